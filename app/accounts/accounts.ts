/** Use cases of accounts: create (optionally from a primary contact), read, list, update, delete. */
import type { Transaction } from "kysely";
import { NotFoundError } from "../../domain/errors.ts";
import { accountNameFor, formatAccountNumber } from "../../domain/accounts/naming.ts";
import type { AppDeps } from "../deps.ts";
import type { Database, Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { ListParams } from "../schemas.ts";
import type { AddressJson } from "../db/column_types.ts";
import {
  type AccountChanges,
  type AccountRecord,
  type AccountValues,
  findAccount,
  insertAccount,
  listAccounts as listAccountRows,
  nextAccountNumberValue,
  refreshMemberSearch,
  softDeleteAccount,
  updateAccountRow,
} from "./accounts_repo.ts";
import { insertMember, setAccountNameOfMembers } from "./members_repo.ts";

export interface CreateAccountInput {
  name?: string;
  email?: string | null;
  phone?: string | null;
  address?: AddressJson | null;
  primaryContact?: {
    firstName: string;
    lastName: string;
    dateOfBirth?: string;
    email?: string;
    phone?: string;
  };
}

/** The 404 of an account that does not exist (or is deleted). */
export function accountNotFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Account "${id}" does not exist`);
}

/** The live account or 404 (sub-record use cases check their parent with this). */
export async function requireAccount(db: Db, id: string): Promise<AccountRecord> {
  const account = await findAccount(db, id);
  if (!account) throw accountNotFound(id);
  return account;
}

/**
 * Inserts an account with a fresh account number (from a sequence); `primaryMemberId` may
 * name a member inserted right after in the same transaction (the FK is checked at commit).
 */
export async function insertNewAccount(
  deps: AppDeps,
  trx: Transaction<Database>,
  values: Omit<AccountValues, "id" | "accountNumber" | "now">,
): Promise<string> {
  const id = deps.ids.uuid();
  const accountNumber = formatAccountNumber(await nextAccountNumberValue(trx));
  await insertAccount(trx, { ...values, id, accountNumber, now: deps.clock.now() });
  return id;
}

/**
 * Creates an account. Without `name`, the primary contact names it (`<first> <last> -
 * Account`). A primary contact becomes the first member and the primary member; the
 * account's email/phone default to the contact's, and the member inherits the account's
 * contact fields it does not give itself.
 */
export async function createAccount(
  deps: AppDeps,
  input: CreateAccountInput,
): Promise<AccountRecord> {
  const contact = input.primaryContact;
  const id = await withTransaction(deps.db, async (trx) => {
    const email = input.email ?? contact?.email ?? null;
    const phone = input.phone ?? contact?.phone ?? null;
    const address = input.address ?? null;
    const memberId = contact ? deps.ids.uuid() : null;
    const name = input.name ?? accountNameFor(contact!.firstName, contact!.lastName);
    const accountId = await insertNewAccount(deps, trx, {
      name,
      email,
      phone,
      address,
      primaryMemberId: memberId,
    });
    if (contact && memberId) {
      await insertMember(trx, {
        id: memberId,
        accountId,
        accountName: name,
        firstName: contact.firstName,
        lastName: contact.lastName,
        dateOfBirth: contact.dateOfBirth ?? null,
        isMinor: false,
        email: contact.email ?? email,
        phone: contact.phone ?? phone,
        address,
        now: deps.clock.now(),
      });
      await refreshMemberSearch(trx, [accountId]);
    }
    return accountId;
  });
  return await getAccount(deps, id);
}

export function getAccount(deps: AppDeps, id: string): Promise<AccountRecord> {
  return requireAccount(deps.db, id);
}

export function listAccounts(deps: AppDeps, params: ListParams) {
  return listAccountRows(deps.db, params);
}

export async function updateAccount(
  deps: AppDeps,
  id: string,
  changes: AccountChanges,
): Promise<AccountRecord> {
  await withTransaction(deps.db, async (trx) => {
    const updated = await updateAccountRow(trx, id, changes, deps.clock.now());
    if (!updated) throw accountNotFound(id);
    // After the row lock the UPDATE took: a member added meanwhile has committed.
    if (changes.name !== undefined) {
      await setAccountNameOfMembers(trx, id, changes.name);
      await deps.nameCopies.accountsRenamed(trx, [id]);
    }
  });
  return await getAccount(deps, id);
}

/** Soft delete: the row stays (history), the account and its members disappear. */
export async function deleteAccount(deps: AppDeps, id: string): Promise<void> {
  const deleted = await softDeleteAccount(deps.db, id, deps.clock.now());
  if (!deleted) throw accountNotFound(id);
}
