/**
 * Use cases of members: create, read, list, update, delete and move between accounts.
 *
 * Invariant: an account's `primary_member_id` names one of ITS members, or is null only
 * when it has none. The database enforces the first half (a deferred composite foreign key
 * `(accounts.id, primary_member_id) → members(account_id, id)`); the use cases keep the
 * second by repairing the pointer in the same transaction, holding the account rows FOR
 * UPDATE — always locked in id order (`lockAccountsInOrder`) so two moves never deadlock.
 */
import type { Transaction } from "kysely";
import { ConflictError, InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import { assertBornBy, assertMinorFlagSettable } from "../../domain/accounts/members.ts";
import { accountNameFor } from "../../domain/accounts/naming.ts";
import type { AppDeps } from "../deps.ts";
import type { Database, Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import { isForeignKeyViolation } from "../db/db_errors.ts";
import type { ListParams } from "../schemas.ts";
import type { AddressJson } from "../db/column_types.ts";
import { deleteFilesOfRecords, findProfilePictureIds, removeStoredFiles } from "../files/files.ts";
import {
  type AccountRecord,
  lockAccount,
  lockAccountsInOrder,
  refreshMemberSearch,
  setPrimaryMember,
} from "./accounts_repo.ts";
import {
  deleteMemberRow,
  findEarliestMemberId,
  findMember,
  findMemberAccountId,
  insertMember,
  listMembers as listMemberRecords,
  type LockedMember,
  lockMember,
  type MemberRecord,
  updateMemberRow,
} from "./members_repo.ts";
import { listIdentifierIdsOfMember } from "./identifiers_repo.ts";
import { accountNotFound, insertNewAccount, requireAccount } from "./accounts.ts";
import { type MemberJson, memberJson } from "./member_json.ts";
import { storeToday } from "../platform/store.ts";

function memberNotFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Member "${id}" does not exist`);
}

/** The member (of a live account) or 404. */
export async function requireMember(db: Db, id: string): Promise<MemberRecord> {
  const member = await findMember(db, id);
  if (!member) throw memberNotFound(id);
  return member;
}

/** The members as the API shows them: minors judged today, profile pictures from files. */
async function membersJson(deps: AppDeps, members: MemberRecord[]): Promise<MemberJson[]> {
  const today = await storeToday(deps);
  const pictures = await findProfilePictureIds(deps.db, members.map((m) => m.id));
  return members.map((m) => memberJson(m, today, pictures.get(m.id) ?? null));
}

export async function getMember(deps: AppDeps, id: string): Promise<MemberJson> {
  const [member] = await membersJson(deps, [await requireMember(deps.db, id)]);
  return member!;
}

export async function listMembers(deps: AppDeps, params: ListParams & { accountId?: string }) {
  if (params.accountId) await requireAccount(deps.db, params.accountId);
  const page = await listMemberRecords(deps.db, params);
  return { data: await membersJson(deps, page.data), pagination: page.pagination };
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
): Promise<MemberJson> {
  const today = await storeToday(deps);
  assertMinorFlagSettable("create", input.isMinor !== undefined, input.dateOfBirth);
  assertBornBy(input.dateOfBirth, today);
  const id = deps.ids.uuid();
  await withTransaction(deps.db, async (trx) => {
    const account = await lockAccount(trx, accountId);
    if (!account) throw accountNotFound(accountId);
    await insertMember(trx, {
      id,
      accountId,
      accountName: account.name,
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
    await refreshMemberSearch(trx, [accountId]);
  });
  return await getMember(deps, id);
}

export type UpdateMemberInput = Partial<CreateMemberInput>;

/** Updates a member; `isMinor` only while no date of birth is known (after this update). */
export async function updateMember(
  deps: AppDeps,
  id: string,
  changes: UpdateMemberInput,
): Promise<MemberJson> {
  const today = await storeToday(deps);
  assertBornBy(changes.dateOfBirth, today);
  // The account locked before the member, as every member write does (withMemberAccountsLocked):
  // its search text is written again from its members.
  await withMemberAccountsLocked(deps, id, undefined, async (trx, accountId, _, member) => {
    const dateOfBirth = changes.dateOfBirth === undefined
      ? member.dateOfBirth
      : changes.dateOfBirth;
    assertMinorFlagSettable("update", changes.isMinor !== undefined, dateOfBirth);
    await updateMemberRow(trx, id, changes, deps.clock.now());
    await refreshMemberSearch(trx, [accountId]);
    if (changes.firstName !== undefined || changes.lastName !== undefined) {
      await deps.nameCopies.membersRenamed(trx, [id]);
    }
  });
  return await getMember(deps, id);
}

const MAX_ATTEMPTS = 5;

/**
 * Runs `work` with the member's current account(s) locked, then the member (handed to `work`),
 * retrying when the member moved to another account between reading it and locking (a
 * concurrent move).
 */
async function withMemberAccountsLocked<T>(
  deps: AppDeps,
  memberId: string,
  otherAccountId: string | undefined,
  work: (
    trx: Transaction<Database>,
    sourceId: string,
    locked: Map<string, AccountRecord>,
    member: LockedMember,
  ) => Promise<T>,
): Promise<T> {
  for (let attempt = 1;; attempt++) {
    const sourceId = await findMemberAccountId(deps.db, memberId);
    if (!sourceId) throw memberNotFound(memberId);
    const result = await withTransaction(deps.db, async (trx) => {
      const locked = await lockAccountsInOrder(
        trx,
        otherAccountId ? [sourceId, otherAccountId] : [sourceId],
      );
      const member = await lockMember(trx, memberId);
      if (!member) throw memberNotFound(memberId);
      if (member.accountId !== sourceId || !locked.has(sourceId)) return { retry: true as const };
      return { retry: false as const, value: await work(trx, sourceId, locked, member) };
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
  trx: Transaction<Database>,
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
          ...await deleteFilesOfRecords(trx, "member", [id]),
          ...await deleteFilesOfRecords(trx, "member_identifier", identifierIds),
        ];
        await deleteMemberRow(trx, id);
        await repairPrimary(deps, trx, locked.get(sourceId)!, id);
        await refreshMemberSearch(trx, [sourceId]);
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
): Promise<{ member: MemberJson; account: AccountRecord }> {
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
        await updateMemberRow(trx, id, { accountId: targetId, accountName: destination.name }, now);
        if (destination.primaryMemberId === null) await setPrimaryMember(trx, targetId, id, now);
      } else {
        const member = (await findMember(trx, id))!;
        const name = accountNameFor(member.firstName, member.lastName);
        targetId = await insertNewAccount(deps, trx, {
          name,
          email: member.email,
          phone: member.phone,
          address: member.address,
          primaryMemberId: id,
        });
        await updateMemberRow(trx, id, { accountId: targetId, accountName: name }, now);
      }
      await repairPrimary(deps, trx, source, id);
      await refreshMemberSearch(trx, [sourceId, targetId]);
      return targetId;
    },
  );
  const account = await requireAccount(deps.db, accountId);
  return { member: await getMember(deps, id), account };
}
