/** SQL of the members aggregate (members of live accounts). */
import { type RawBuilder, sql, type Transaction } from "kysely";
import type { Database, Db } from "../db/database.ts";
import { nullableJsonb } from "../db/jsonb.ts";
import { type Page, paginate } from "../db/pagination.ts";
import { deleteById, isoString } from "../db/rows.ts";
import { containsText, LOWERED } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { AddressJson } from "../db/column_types.ts";
import { pickColumns } from "./_columns.ts";

/** A member as stored, with its account's name. */
export interface MemberRecord {
  id: string;
  accountId: string;
  accountName: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string | null;
  /** The manual flag; only meaningful while `dateOfBirth` is null. */
  isMinor: boolean;
  email: string | null;
  phone: string | null;
  address: AddressJson | null;
  createdAt: string;
  updatedAt: string;
}

/** Members of live accounts, with the account name. */
function memberQuery(db: Db) {
  return db.selectFrom("members as m")
    .innerJoin("accounts as a", "a.id", "m.account_id")
    .where("a.deleted_at", "is", null)
    .select([
      "m.id",
      "m.account_id",
      "a.name as account_name",
      "m.first_name",
      "m.last_name",
      "m.date_of_birth",
      "m.is_minor",
      "m.email",
      "m.phone",
      "m.address",
      "m.created_at",
      "m.updated_at",
    ]);
}

function toMember(row: {
  id: string;
  account_id: string;
  account_name: string;
  first_name: string;
  last_name: string;
  date_of_birth: string | null;
  is_minor: boolean;
  email: string | null;
  phone: string | null;
  address: AddressJson | null;
  created_at: Date | string;
  updated_at: Date | string;
}): MemberRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    accountName: row.account_name,
    firstName: row.first_name,
    lastName: row.last_name,
    dateOfBirth: row.date_of_birth,
    isMinor: row.is_minor,
    email: row.email,
    phone: row.phone,
    address: row.address,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

/** A member of a live account, or undefined. */
export async function findMember(db: Db, id: string): Promise<MemberRecord | undefined> {
  const row = await memberQuery(db).where("m.id", "=", id).executeTakeFirst();
  return row && toMember(row);
}

export interface LockedMember {
  id: string;
  accountId: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string | null;
}

/**
 * The full name ("first last"), lowered, of the member `memberId` (an SQL value or column), as
 * a scalar subquery: the text the rentals' and enrollments' copies of member names hold
 * (app/accounts/name_copies.ts). NULL without such a member.
 */
export function selectLowerFullNameOfMember(memberId: unknown): RawBuilder<string> {
  return sql<string>`(SELECT lower(m.first_name || ' ' || m.last_name) FROM members m
    WHERE m.id = ${memberId})`;
}

/**
 * The member's row (of a live account), locked FOR NO KEY UPDATE until the transaction ends;
 * undefined when there is no such member. The one lock of member rows, for every rule that
 * reads a member and then writes because of it: editing the member (accounts), moving or
 * deleting it (accounts, under its account's lock), enrolling it (lessons: double-booking
 * checks per member queue behind it).
 *
 * FOR NO KEY UPDATE is the lock an UPDATE of the member's other columns takes, so it blocks
 * every change of the row that matters (date of birth, account, deletion) and the other holders
 * of this lock, but not the key-share locks of foreign key checks: rows that merely reference
 * the member (an enrollment, for instance) can still be inserted meanwhile. FOR UPDATE would block
 * those inserts too, for no rule's sake.
 */
export async function lockMember(
  trx: Transaction<Database>,
  id: string,
): Promise<LockedMember | undefined> {
  const row = await trx.selectFrom("members as m")
    .innerJoin("accounts as a", "a.id", "m.account_id")
    .where("a.deleted_at", "is", null)
    .where("m.id", "=", id)
    .select(["m.id", "m.account_id", "m.first_name", "m.last_name", "m.date_of_birth"])
    .forNoKeyUpdate("m")
    .executeTakeFirst();
  return row && {
    id: row.id,
    accountId: row.account_id,
    firstName: row.first_name,
    lastName: row.last_name,
    dateOfBirth: row.date_of_birth,
  };
}

/** The account a live member belongs to (no lock), or undefined. */
export async function findMemberAccountId(db: Db, id: string): Promise<string | undefined> {
  const row = await db.selectFrom("members as m")
    .innerJoin("accounts as a", "a.id", "m.account_id")
    .where("a.deleted_at", "is", null)
    .where("m.id", "=", id)
    .select("m.account_id").executeTakeFirst();
  return row?.account_id;
}

export type MemberValues = Omit<MemberRecord, "createdAt" | "updatedAt"> & { now: Date };

export async function insertMember(db: Db, values: MemberValues): Promise<void> {
  await db.insertInto("members").values({
    id: values.id,
    account_id: values.accountId,
    account_name: values.accountName,
    first_name: values.firstName,
    last_name: values.lastName,
    date_of_birth: values.dateOfBirth,
    is_minor: values.isMinor,
    email: values.email,
    phone: values.phone,
    address: nullableJsonb(values.address),
    created_at: values.now,
    updated_at: values.now,
  }).execute();
}

export interface MemberChanges {
  firstName?: string;
  lastName?: string;
  dateOfBirth?: string | null;
  isMinor?: boolean;
  email?: string | null;
  phone?: string | null;
  address?: AddressJson | null;
  /** With `accountId`: the name of the account it moves to (members.account_name). */
  accountName?: string;
  accountId?: string;
}

const memberColumnMap = {
  firstName: "first_name",
  lastName: "last_name",
  dateOfBirth: "date_of_birth",
  isMinor: "is_minor",
  email: "email",
  phone: "phone",
  address: "address",
  accountId: "account_id",
  accountName: "account_name",
};

export async function updateMemberRow(
  db: Db,
  id: string,
  changes: MemberChanges,
  now: Date,
): Promise<void> {
  await db.updateTable("members").where("id", "=", id)
    .set({ ...pickColumns(changes, memberColumnMap), updated_at: now }).execute();
}

/** Copies an account's (new) name into its members' search text (members.account_name). */
export async function setAccountNameOfMembers(
  db: Db,
  accountId: string,
  name: string,
): Promise<void> {
  await db.updateTable("members").where("account_id", "=", accountId)
    .where("account_name", "<>", name).set({ account_name: name }).execute();
}

/** `setAccountNameOfMembers` for every account, after a bulk insert (seeds, bench). */
export async function setEveryAccountNameOfMembers(db: Db): Promise<void> {
  await sql`UPDATE members m SET account_name = a.name FROM accounts a
    WHERE a.id = m.account_id AND m.account_name <> a.name`.execute(db);
}

export async function deleteMemberRow(db: Db, id: string): Promise<void> {
  await deleteById(db, "members", id);
}

/** The earliest-created member of an account (the next primary), or null. */
export async function findEarliestMemberId(db: Db, accountId: string): Promise<string | null> {
  const row = await db.selectFrom("members").select("id").where("account_id", "=", accountId)
    .orderBy("created_at").orderBy("id").limit(1).executeTakeFirst();
  return row?.id ?? null;
}

/**
 * Members list. `q` matches member names and email or the account's name: all of them are in
 * `members.search` (the account's name through `account_name`), one trigram index.
 */
export function listMembers(
  db: Db,
  params: ListParams & { accountId?: string },
): Promise<Page<MemberRecord>> {
  let query = memberQuery(db);
  if (params.accountId) query = query.where("m.account_id", "=", params.accountId);
  if (params.q) query = query.where(containsText("m.search", params.q, LOWERED));
  return paginate(query, params, {
    sortColumns: { lastName: "m.last_name", firstName: "m.first_name", createdAt: "m.created_at" },
    tieBreaker: "m.id",
    map: toMember,
  });
}
