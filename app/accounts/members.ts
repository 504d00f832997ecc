/**
 * Use cases of members: create, read, list, update, delete and move between accounts.
 *
 * Invariant: an account's `primary_member_id` names one of ITS members, or is null only
 * when it has none. The database enforces the first half (a deferred composite foreign key
 * `(accounts.id, primary_member_id) → members(account_id, id)`); the use cases keep the
 * second by repairing the pointer in the same transaction, holding the account rows FOR
 * UPDATE — always locked in id order (`lockAccountsInOrder`) so two moves never deadlock.
 */
import {
  ConflictError,
  InvalidReferenceError,
  NotFoundError,
  ValidationError,
} from "../../domain/errors.ts";
import { isMinorOn, localDate } from "../../domain/accounts/age.ts";
import { accountNameFor } from "../../domain/accounts/naming.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import { isForeignKeyViolation } from "../db/db_errors.ts";
import { paginate } from "../db/pagination.ts";
import type { ListParams } from "../schemas.ts";
import type { AddressJson } from "../platform/platform_tables.ts";
import { findStoreTimezone } from "../platform/platform_repo.ts";
import { deleteFilesOf } from "../files/files_repo.ts";
import { removeStoredFiles } from "../files/files.ts";
import {
  type AccountRecord,
  deleteMemberRow,
  findAccount,
  findEarliestMemberId,
  findMemberAccountId,
  findMemberRow,
  insertMember,
  listIdentifierIdsOfMember,
  listMemberRows,
  lockAccountsInOrder,
  lockMember,
  type MemberRow,
  memberSortColumns,
  setPrimaryMember,
  updateMemberRow,
} from "./accounts_repo.ts";
import { insertNewAccount } from "./accounts.ts";

export interface MemberView {
  id: string;
  accountId: string;
  accountName: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string | null;
  isMinor: boolean;
  email: string | null;
  phone: string | null;
  address: AddressJson | null;
  profilePictureFileId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Today's date in the store's time zone (minors are judged on it). */
export async function storeToday(deps: AppDeps, db: Db = deps.db): Promise<string> {
  return localDate(deps.clock.now(), await findStoreTimezone(db));
}

export function presentMember(row: MemberRow, today: string): MemberView {
  return {
    id: row.id,
    accountId: row.account_id,
    accountName: row.account_name,
    firstName: row.first_name,
    lastName: row.last_name,
    dateOfBirth: row.date_of_birth,
    isMinor: row.date_of_birth ? isMinorOn(row.date_of_birth, today) : row.is_minor,
    email: row.email,
    phone: row.phone,
    address: row.address,
    profilePictureFileId: row.profile_picture_file_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function getMember(deps: AppDeps, id: string): Promise<MemberView> {
  const row = await findMemberRow(deps.db, id);
  if (!row) throw new NotFoundError(`Member "${id}" does not exist`);
  return presentMember(row, await storeToday(deps));
}

export async function listMembers(deps: AppDeps, params: ListParams & { accountId?: string }) {
  if (params.accountId && !(await findAccount(deps.db, params.accountId))) {
    throw new NotFoundError(`Account "${params.accountId}" does not exist`);
  }
  const today = await storeToday(deps);
  return paginate(listMemberRows(deps.db, params), params, {
    sortColumns: memberSortColumns,
    tieBreaker: "m.id",
    map: (row) => presentMember(row as MemberRow, today),
  });
}

function assertNotInFuture(dateOfBirth: string | null | undefined, today: string): void {
  if (dateOfBirth && dateOfBirth > today) {
    throw new ValidationError([{
      path: "dateOfBirth",
      message: "The date of birth is in the future",
    }]);
  }
}

export interface CreateMemberInput {
  firstName: string;
  lastName: string;
  dateOfBirth?: string | null;
  isMinor?: boolean;
  email?: string | null;
  phone?: string | null;
  address?: AddressJson | null;
}

/**
 * Adds a member to a live account. Email, phone and address left out are inherited from the
 * account; the first member becomes the primary member.
 */
export async function createMember(
  deps: AppDeps,
  accountId: string,
  input: CreateMemberInput,
): Promise<MemberView> {
  const today = await storeToday(deps);
  if (input.isMinor !== undefined && input.dateOfBirth) {
    throw new ValidationError([
      { path: "isMinor", message: "isMinor is derived from dateOfBirth and cannot be set with it" },
    ]);
  }
  assertNotInFuture(input.dateOfBirth, today);
  const id = deps.ids.uuid();
  await withTransaction(deps.db, async (trx) => {
    const account = await findAccount(trx, accountId, { lock: true });
    if (!account) throw new NotFoundError(`Account "${accountId}" does not exist`);
    await insertMember(trx, {
      id,
      accountId,
      firstName: input.firstName,
      lastName: input.lastName,
      dateOfBirth: input.dateOfBirth ?? null,
      isMinor: input.dateOfBirth ? false : input.isMinor ?? false,
      email: input.email === undefined ? account.email : input.email,
      phone: input.phone === undefined ? account.phone : input.phone,
      address: input.address === undefined ? account.address : input.address,
      now: deps.clock.now(),
    });
    if (account.primaryMemberId === null) {
      await setPrimaryMember(trx, accountId, id, deps.clock.now());
    }
  });
  return await getMember(deps, id);
}

export type UpdateMemberInput = Partial<CreateMemberInput>;

/** Updates a member; `isMinor` only while no date of birth is known (after this update). */
export async function updateMember(
  deps: AppDeps,
  id: string,
  changes: UpdateMemberInput,
): Promise<MemberView> {
  const today = await storeToday(deps);
  assertNotInFuture(changes.dateOfBirth, today);
  await withTransaction(deps.db, async (trx) => {
    const member = await lockMember(trx, id);
    if (!member) throw new NotFoundError(`Member "${id}" does not exist`);
    const dateOfBirth = changes.dateOfBirth === undefined
      ? member.dateOfBirth
      : changes.dateOfBirth;
    if (changes.isMinor !== undefined && dateOfBirth) {
      throw new ValidationError([{
        path: "isMinor",
        message: "isMinor is derived from dateOfBirth; remove the date of birth to set it",
      }]);
    }
    await updateMemberRow(trx, id, changes, deps.clock.now());
  });
  return await getMember(deps, id);
}

const MAX_ATTEMPTS = 5;

/**
 * Runs `work` with the member's current account(s) locked, retrying when the member moved
 * to another account between reading it and locking (a concurrent move).
 */
async function withMemberAccountsLocked<T>(
  deps: AppDeps,
  memberId: string,
  otherAccountId: string | undefined,
  work: (trx: Db, sourceId: string, locked: Map<string, AccountRecord>) => Promise<T>,
): Promise<T> {
  for (let attempt = 1;; attempt++) {
    const sourceId = await findMemberAccountId(deps.db, memberId);
    if (!sourceId) throw new NotFoundError(`Member "${memberId}" does not exist`);
    const result = await withTransaction(deps.db, async (trx) => {
      const locked = await lockAccountsInOrder(
        trx,
        otherAccountId ? [sourceId, otherAccountId] : [sourceId],
      );
      const member = await lockMember(trx, memberId);
      if (!member) throw new NotFoundError(`Member "${memberId}" does not exist`);
      if (member.accountId !== sourceId || !locked.has(sourceId)) return { retry: true as const };
      return { retry: false as const, value: await work(trx, sourceId, locked) };
    });
    if (!result.retry) return result.value;
    if (attempt >= MAX_ATTEMPTS) {
      throw new ConflictError("concurrent_update", `Member "${memberId}" keeps moving; retry`);
    }
  }
}

/** Points the account's primary at its earliest-created member when it named `memberId`. */
async function repairPrimary(
  deps: AppDeps,
  trx: Db,
  account: AccountRecord,
  leavingMemberId: string,
): Promise<void> {
  if (account.primaryMemberId !== leavingMemberId) return;
  await setPrimaryMember(
    trx,
    account.id,
    await findEarliestMemberId(trx, account.id),
    deps.clock.now(),
  );
}

/**
 * Deletes a member (with its identity documents and its files). When it was the primary,
 * the earliest-created remaining member becomes primary (or null).
 */
export async function deleteMember(deps: AppDeps, id: string): Promise<void> {
  let storedPaths: string[] = [];
  try {
    storedPaths = await withMemberAccountsLocked(
      deps,
      id,
      undefined,
      async (trx, sourceId, locked) => {
        const identifierIds = await listIdentifierIdsOfMember(trx, id);
        const paths = [
          ...await deleteFilesOf(trx, "member", [id]),
          ...await deleteFilesOf(trx, "member_identifier", identifierIds),
        ];
        await deleteMemberRow(trx, id);
        await repairPrimary(deps, trx, locked.get(sourceId)!, id);
        return paths;
      },
    );
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw new ConflictError("in_use", `Member "${id}" is referenced by other records`);
    }
    throw error;
  }
  await removeStoredFiles(deps, storedPaths);
}

/**
 * Moves a member to another account, or (without `accountId`) to a new account named after
 * the member, which it becomes primary of. Both primary pointers are repaired; moving a
 * member to its own account changes nothing.
 */
export async function moveMember(
  deps: AppDeps,
  id: string,
  destinationId: string | undefined,
): Promise<{ member: MemberView; account: AccountRecord }> {
  const accountId = await withMemberAccountsLocked(
    deps,
    id,
    destinationId,
    async (trx, sourceId, locked) => {
      const now = deps.clock.now();
      const source = locked.get(sourceId)!;
      if (destinationId === sourceId) return sourceId;
      let targetId: string;
      if (destinationId) {
        const destination = locked.get(destinationId);
        if (!destination) {
          throw new InvalidReferenceError("accountId", `Account "${destinationId}" does not exist`);
        }
        targetId = destination.id;
        await updateMemberRow(trx, id, { accountId: targetId }, now);
        if (destination.primaryMemberId === null) await setPrimaryMember(trx, targetId, id, now);
      } else {
        const member = (await findMemberRow(trx, id))!;
        targetId = await insertNewAccount(deps, trx, {
          name: accountNameFor(member.first_name, member.last_name),
          email: member.email,
          phone: member.phone,
          address: member.address,
          primaryMemberId: id,
        });
        await updateMemberRow(trx, id, { accountId: targetId }, now);
      }
      await repairPrimary(deps, trx, source, id);
      return targetId;
    },
  );
  const account = await findAccount(deps.db, accountId);
  return { member: await getMember(deps, id), account: account! };
}
