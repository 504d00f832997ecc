/** SQL of the accounts aggregate: the account rows, their number sequence and their search. */
import { type Selectable, sql, type Transaction } from "kysely";
import type { Database, Db } from "../db/database.ts";
import { nullableJsonb } from "../db/jsonb.ts";
import { newShapeMemo, paginateByShape } from "../db/pagination.ts";
import { isoString, softDeleteById, touchedAny } from "../db/rows.ts";
import { containsText, containsTextBinding, LOWERED } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { AddressJson } from "../db/column_types.ts";
import type { AccountTable } from "./accounts_tables.ts";
import { pickColumns } from "./_columns.ts";

export interface AccountRecord {
  id: string;
  accountNumber: string;
  name: string;
  email: string | null;
  phone: string | null;
  address: AddressJson | null;
  primaryMemberId: string | null;
  createdAt: string;
  updatedAt: string;
}

const accountColumns = [
  "a.id",
  "a.account_number",
  "a.name",
  "a.email",
  "a.phone",
  "a.address",
  "a.primary_member_id",
  "a.created_at",
  "a.updated_at",
] as const;

type AccountRow = Omit<Selectable<AccountTable>, "deleted_at" | "search" | "member_search">;

function toAccount(row: AccountRow): AccountRecord {
  return {
    id: row.id,
    accountNumber: row.account_number,
    name: row.name,
    email: row.email,
    phone: row.phone,
    address: row.address,
    primaryMemberId: row.primary_member_id,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

export async function nextAccountNumberValue(db: Db): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`SELECT nextval('account_number_seq') AS n`
    .execute(db);
  return Number(rows[0]!.n);
}

export type AccountValues = Omit<AccountRecord, "createdAt" | "updatedAt"> & { now: Date };

export async function insertAccount(db: Db, values: AccountValues): Promise<void> {
  await db.insertInto("accounts").values({
    id: values.id,
    account_number: values.accountNumber,
    name: values.name,
    email: values.email,
    phone: values.phone,
    address: nullableJsonb(values.address),
    primary_member_id: values.primaryMemberId,
    created_at: values.now,
    updated_at: values.now,
  }).execute();
}

function liveAccountQuery(db: Db, id: string) {
  return db.selectFrom("accounts as a").select(accountColumns).where("a.id", "=", id)
    .where("a.deleted_at", "is", null);
}

/** A live (not soft-deleted) account, or undefined. */
export async function findAccount(db: Db, id: string): Promise<AccountRecord | undefined> {
  const row = await liveAccountQuery(db, id).executeTakeFirst();
  return row && toAccount(row);
}

/**
 * A live account, locked FOR UPDATE until the transaction ends (undefined when there is none).
 * The one lock of account rows: every use case that reads an account to change what hangs
 * from it (its primary member pointer, its members, its default payment method) holds it, so
 * such changes of one account queue. FOR UPDATE: the strongest row lock, so a row another
 * transaction attaches to the account meanwhile (its foreign key check takes a key-share lock)
 * also waits until these changes have committed.
 */
export async function lockAccount(
  trx: Transaction<Database>,
  id: string,
): Promise<AccountRecord | undefined> {
  const row = await liveAccountQuery(trx, id).forUpdate().executeTakeFirst();
  return row && toAccount(row);
}

/**
 * Locks live accounts (`lockAccount`) one by one in id order — every use case that locks several
 * accounts goes through here, so two transactions never wait on each other in a cycle.
 */
export async function lockAccountsInOrder(
  trx: Transaction<Database>,
  ids: readonly string[],
): Promise<Map<string, AccountRecord>> {
  const locked = new Map<string, AccountRecord>();
  for (const id of [...new Set(ids)].sort()) {
    const account = await lockAccount(trx, id);
    if (account) locked.set(id, account);
  }
  return locked;
}

export interface AccountChanges {
  name?: string;
  email?: string | null;
  phone?: string | null;
  address?: AddressJson | null;
}

/** Updates a live account; whether there was one. */
export async function updateAccountRow(
  db: Db,
  id: string,
  changes: AccountChanges,
  now: Date,
): Promise<boolean> {
  const result = await db.updateTable("accounts").where("id", "=", id)
    .where("deleted_at", "is", null)
    .set({
      ...pickColumns(changes, { name: "name", email: "email", phone: "phone", address: "address" }),
      updated_at: now,
    }).executeTakeFirst();
  return touchedAny(result);
}

export async function setPrimaryMember(
  db: Db,
  accountId: string,
  memberId: string | null,
  now: Date,
): Promise<void> {
  await db.updateTable("accounts").where("id", "=", accountId)
    .set({ primary_member_id: memberId, updated_at: now }).execute();
}

/** An account's members' search text, one member after another, oldest first. */
const MEMBER_TEXTS = sql<string>`string_agg(
  lower(m.first_name || ' ' || m.last_name || ' ' || coalesce(m.email, '')), chr(31)
  ORDER BY m.created_at, m.id)`;

/**
 * Writes the accounts' `member_search` from their members (the migration that made the
 * column wrote the same). Every use case that adds, changes, moves or deletes a member calls
 * it in its transaction, with the account locked first, so this statement sees every
 * committed member of it.
 */
export async function refreshMemberSearch(db: Db, accountIds: readonly string[]): Promise<void> {
  await sql`UPDATE accounts a SET member_search = coalesce((
      SELECT ${MEMBER_TEXTS} FROM members m WHERE m.account_id = a.id), '')
    WHERE a.id IN (${sql.join(accountIds)})`.execute(db);
}

/** `refreshMemberSearch` of every account with members, after a bulk insert (seeds, bench). */
export async function refreshEveryMemberSearch(db: Db): Promise<void> {
  await sql`UPDATE accounts a SET member_search = t.texts
    FROM (SELECT m.account_id, ${MEMBER_TEXTS} AS texts FROM members m GROUP BY m.account_id) t
    WHERE t.account_id = a.id`.execute(db);
}

export function softDeleteAccount(db: Db, id: string, now: Date): Promise<boolean> {
  return softDeleteById(db, "accounts", id, now);
}

/**
 * Accounts list. `q` matches the account's search text: its name, number, email and phone,
 * and its members' names and emails (`member_search`), one trigram index.
 */
function accountListBase(db: Db, q: string | undefined) {
  let query = db.selectFrom("accounts as a").select(accountColumns)
    .where("a.deleted_at", "is", null);
  if (q !== undefined) query = query.where(containsText("a.search", q, LOWERED));
  return query;
}

/** Compiled account-list SQL per shape (see `paginateByShape`). */
const accountListSql = newShapeMemo();

export function listAccounts(db: Db, params: ListParams) {
  const search = params.q ? containsTextBinding(params.q, LOWERED) : undefined;
  return paginateByShape(
    db,
    accountListSql,
    search === undefined ? "" : `q${search.key}`,
    search === undefined ? [] : search.values,
    () => accountListBase(db, params.q || undefined),
    params,
    {
      sortColumns: { name: "a.name", accountNumber: "a.account_number", createdAt: "a.created_at" },
      tieBreaker: "a.id",
      // A search: its matches from the trigram index (search_plan_test).
      planOnce: Boolean(params.q),
      map: (row) => toAccount(row),
    },
  );
}
