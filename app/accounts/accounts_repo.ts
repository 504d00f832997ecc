/** All SQL of accounts, members, identifiers, payment methods, tax exemptions, processor links. */
import { type Selectable, sql } from "kysely";
import type { Db } from "../db/database.ts";
import { nullableJsonb } from "../db/jsonb.ts";
import { paginate, paginateByShape, type ShapeMemo } from "../db/pagination.ts";
import {
  deleteById,
  hasRow,
  isoString,
  isoStringOrNull,
  softDeleteById,
  touchedAny,
} from "../db/rows.ts";
import { likePattern, type ListParams } from "../schemas.ts";
import type { AddressJson } from "../platform/platform_tables.ts";
import type {
  AccountTable,
  MemberIdentifierTable,
  PaymentMethodTable,
  ProcessorLinkTable,
  TaxExemptionTable,
} from "./accounts_tables.ts";

/** Only the keys present in `changes` (undefined = leave alone), renamed to columns. */
function pickColumns(changes: object, columns: Record<string, string>): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(columns)) {
    const value = (changes as Record<string, unknown>)[key];
    if (value === undefined) continue;
    set[column] = column === "address" ? nullableJsonb(value as AddressJson | null) : value;
  }
  return set;
}

/** Sets the present `changes` (renamed to `columns`) and `updated_at` on the row `id`. */
async function updateById(
  db: Db,
  table:
    | "members"
    | "member_identifiers"
    | "payment_methods"
    | "tax_exemptions"
    | "processor_links",
  id: string,
  changes: object,
  columns: Record<string, string>,
  now: Date,
): Promise<void> {
  await db.updateTable(table).where("id", "=", id)
    .set({ ...pickColumns(changes, columns), updated_at: now })
    .execute();
}

// ============================================================================= accounts

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

type AccountRow = Omit<Selectable<AccountTable>, "deleted_at" | "search">;

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

export interface AccountValues {
  id: string;
  accountNumber: string;
  name: string;
  email: string | null;
  phone: string | null;
  address: AddressJson | null;
  primaryMemberId: string | null;
  now: Date;
}

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

/** A live (not soft-deleted) account; `lock` takes FOR UPDATE on its row. */
export async function findAccount(
  db: Db,
  id: string,
  options: { lock?: boolean } = {},
): Promise<AccountRecord | undefined> {
  let query = db.selectFrom("accounts as a").select(accountColumns).where("a.id", "=", id)
    .where("a.deleted_at", "is", null);
  if (options.lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row && toAccount(row);
}

/**
 * Locks live accounts FOR UPDATE one by one in id order — every use case that locks several
 * accounts goes through here, so two transactions never wait on each other in a cycle.
 */
export async function lockAccountsInOrder(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, AccountRecord>> {
  const locked = new Map<string, AccountRecord>();
  for (const id of [...new Set(ids)].sort()) {
    const account = await findAccount(db, id, { lock: true });
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

export function softDeleteAccount(db: Db, id: string, now: Date): Promise<boolean> {
  return softDeleteById(db, "accounts", id, now);
}

/**
 * Accounts list. `q` matches the account's search text (name, number, email, phone) or any
 * member's search text (names, email): ids from both trigram indexes, united, so neither
 * table is scanned.
 */
function accountListBase(db: Db, pattern: string | undefined) {
  let query = db.selectFrom("accounts as a").select(accountColumns)
    .where("a.deleted_at", "is", null);
  if (pattern !== undefined) {
    query = query.where(
      "a.id",
      "in",
      db.selectFrom("accounts").select("accounts.id").where("accounts.search", "ilike", pattern)
        .unionAll(
          db.selectFrom("members").select("members.account_id as id")
            .where("members.search", "ilike", pattern),
        ),
    );
  }
  return query;
}

/** Compiled account-list SQL per shape (see `paginateByShape`). */
const accountListSql: ShapeMemo = new Map();

export function listAccounts(db: Db, params: ListParams) {
  const pattern = params.q ? likePattern(params.q) : undefined;
  return paginateByShape(
    db,
    accountListSql,
    pattern === undefined ? "" : "q",
    pattern === undefined ? [] : [pattern, pattern],
    () => accountListBase(db, pattern),
    params,
    {
      sortColumns: { name: "a.name", accountNumber: "a.account_number", createdAt: "a.created_at" },
      tieBreaker: "a.id",
      map: (row) => toAccount(row),
    },
  );
}

// ============================================================================== members

export interface MemberRow {
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
  profile_picture_file_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Members of live accounts, with the account name and the latest profile picture. */
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
      sql<string | null>`(
        SELECT f.id FROM files f
        WHERE f.entity_type = 'member' AND f.entity_id = m.id AND f.category = 'profile'
        ORDER BY f.created_at DESC, f.id DESC LIMIT 1
      )`.as("profile_picture_file_id"),
    ]);
}

export async function findMemberRow(db: Db, id: string): Promise<MemberRow | undefined> {
  return await memberQuery(db).where("m.id", "=", id).executeTakeFirst() as MemberRow | undefined;
}

/** The member's row FOR UPDATE (of a live account), for rules that read then write. */
export async function lockMember(
  db: Db,
  id: string,
): Promise<
  | {
    id: string;
    accountId: string;
    firstName: string;
    lastName: string;
    dateOfBirth: string | null;
  }
  | undefined
> {
  const row = await db.selectFrom("members as m")
    .innerJoin("accounts as a", "a.id", "m.account_id")
    .where("a.deleted_at", "is", null)
    .where("m.id", "=", id)
    .select(["m.id", "m.account_id", "m.first_name", "m.last_name", "m.date_of_birth"])
    .forUpdate("m")
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

export interface MemberValues {
  id: string;
  accountId: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string | null;
  isMinor: boolean;
  email: string | null;
  phone: string | null;
  address: AddressJson | null;
  now: Date;
}

export async function insertMember(db: Db, values: MemberValues): Promise<void> {
  await db.insertInto("members").values({
    id: values.id,
    account_id: values.accountId,
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

export async function updateMemberRow(
  db: Db,
  id: string,
  changes: {
    firstName?: string;
    lastName?: string;
    dateOfBirth?: string | null;
    isMinor?: boolean;
    email?: string | null;
    phone?: string | null;
    address?: AddressJson | null;
    accountId?: string;
  },
  now: Date,
): Promise<void> {
  await updateById(db, "members", id, changes, {
    firstName: "first_name",
    lastName: "last_name",
    dateOfBirth: "date_of_birth",
    isMinor: "is_minor",
    email: "email",
    phone: "phone",
    address: "address",
    accountId: "account_id",
  }, now);
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

export async function listIdentifierIdsOfMember(db: Db, memberId: string): Promise<string[]> {
  const rows = await db.selectFrom("member_identifiers").select("id")
    .where("member_id", "=", memberId).execute();
  return rows.map((r) => r.id);
}

/**
 * Members list. `q` matches member names and email (trigram index on members.search) or the
 * account's name (trigram index on accounts.name, then members by account): ids united.
 */
export function listMemberRows(db: Db, params: ListParams & { accountId?: string }) {
  let query = memberQuery(db);
  if (params.accountId) query = query.where("m.account_id", "=", params.accountId);
  if (params.q) {
    const pattern = likePattern(params.q);
    query = query.where(
      "m.id",
      "in",
      db.selectFrom("members").select("members.id").where("members.search", "ilike", pattern)
        .unionAll(
          db.selectFrom("members as mm").innerJoin("accounts as aa", "aa.id", "mm.account_id")
            .select("mm.id").where("aa.name", "ilike", pattern),
        ),
    );
  }
  return query;
}

export const memberSortColumns = {
  lastName: "m.last_name",
  firstName: "m.first_name",
  createdAt: "m.created_at",
};

// ========================================================================== id types

export interface IdTypeRecord {
  id: string;
  value: string;
  label: string;
  isBuiltIn: boolean;
}

export async function listIdTypes(db: Db): Promise<IdTypeRecord[]> {
  const rows = await db.selectFrom("id_types").select(["id", "value", "label", "is_built_in"])
    .orderBy("is_built_in", "desc").orderBy("label").execute();
  return rows.map((r) => ({ id: r.id, value: r.value, label: r.label, isBuiltIn: r.is_built_in }));
}

/** Whether `value` exists, holding a key-share lock so it cannot be deleted before commit. */
export async function idTypeExists(db: Db, value: string): Promise<boolean> {
  return await hasRow(
    db.selectFrom("id_types").select("id").where("value", "=", value).forKeyShare(),
  );
}

export async function findIdType(db: Db, id: string): Promise<IdTypeRecord | undefined> {
  const r = await db.selectFrom("id_types").select(["id", "value", "label", "is_built_in"])
    .where("id", "=", id).executeTakeFirst();
  return r && { id: r.id, value: r.value, label: r.label, isBuiltIn: r.is_built_in };
}

/** Deletes an id type; an identifier still using it makes this fail (foreign key). */
export async function deleteIdTypeRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom("id_types").where("id", "=", id).execute();
}

export async function insertIdType(
  db: Db,
  values: { id: string; value: string; label: string; isBuiltIn: boolean; now: Date },
  options: { ignoreExisting?: boolean } = {},
): Promise<void> {
  let query = db.insertInto("id_types").values({
    id: values.id,
    value: values.value,
    label: values.label,
    is_built_in: values.isBuiltIn,
    created_at: values.now,
  });
  if (options.ignoreExisting) query = query.onConflict((oc) => oc.column("value").doNothing());
  await query.execute();
}

// ======================================================================= identifiers

export interface IdentifierRecord {
  id: string;
  memberId: string;
  idType: string;
  idNumber: string;
  issuingState: string | null;
  issuedDate: string | null;
  expiresDate: string | null;
  frontFileId: string | null;
  backFileId: string | null;
  createdAt: string;
  updatedAt: string;
}

const identifierColumns = [
  "i.id",
  "i.member_id",
  "i.id_type",
  "i.id_number",
  "i.issuing_state",
  "i.issued_date",
  "i.expires_date",
  "i.front_file_id",
  "i.back_file_id",
  "i.created_at",
  "i.updated_at",
] as const;

function toIdentifier(row: Selectable<MemberIdentifierTable>): IdentifierRecord {
  return {
    id: row.id,
    memberId: row.member_id,
    idType: row.id_type,
    idNumber: row.id_number,
    issuingState: row.issuing_state,
    issuedDate: row.issued_date,
    expiresDate: row.expires_date,
    frontFileId: row.front_file_id,
    backFileId: row.back_file_id,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

/** Identifiers of members of live accounts. */
function identifierQuery(db: Db) {
  return db.selectFrom("member_identifiers as i")
    .innerJoin("members as m", "m.id", "i.member_id")
    .innerJoin("accounts as a", "a.id", "m.account_id")
    .where("a.deleted_at", "is", null)
    .select(identifierColumns);
}

export async function findIdentifier(
  db: Db,
  id: string,
  options: { lock?: boolean } = {},
): Promise<IdentifierRecord | undefined> {
  let query = identifierQuery(db).where("i.id", "=", id);
  if (options.lock) query = query.forUpdate("i");
  const row = await query.executeTakeFirst();
  return row && toIdentifier(row);
}

export function listIdentifiers(db: Db, memberId: string, params: ListParams) {
  return paginate(identifierQuery(db).where("i.member_id", "=", memberId), params, {
    sortColumns: { idType: "i.id_type", createdAt: "i.created_at" },
    tieBreaker: "i.id",
    map: toIdentifier,
  });
}

export interface IdentifierChanges {
  idType?: string;
  idNumber?: string;
  issuingState?: string | null;
  issuedDate?: string | null;
  expiresDate?: string | null;
  frontFileId?: string | null;
  backFileId?: string | null;
}

const identifierColumnMap = {
  idType: "id_type",
  idNumber: "id_number",
  issuingState: "issuing_state",
  issuedDate: "issued_date",
  expiresDate: "expires_date",
  frontFileId: "front_file_id",
  backFileId: "back_file_id",
};

export async function insertIdentifier(
  db: Db,
  values: { id: string; memberId: string; now: Date } & IdentifierChanges,
): Promise<void> {
  await db.insertInto("member_identifiers").values({
    id: values.id,
    member_id: values.memberId,
    id_type: values.idType!,
    id_number: values.idNumber!,
    issuing_state: values.issuingState ?? null,
    issued_date: values.issuedDate ?? null,
    expires_date: values.expiresDate ?? null,
    front_file_id: values.frontFileId ?? null,
    back_file_id: values.backFileId ?? null,
    created_at: values.now,
    updated_at: values.now,
  }).execute();
}

export async function updateIdentifierRow(
  db: Db,
  id: string,
  changes: IdentifierChanges,
  now: Date,
): Promise<void> {
  await updateById(db, "member_identifiers", id, changes, identifierColumnMap, now);
}

export async function deleteIdentifierRow(db: Db, id: string): Promise<void> {
  await deleteById(db, "member_identifiers", id);
}

/**
 * Whether `fileId` is a file of entityType member_identifier whose identifier belongs to
 * `memberId` (a member's document scans cannot be linked to another member).
 */
export async function isIdentifierFileOfMember(
  db: Db,
  fileId: string,
  memberId: string,
): Promise<boolean> {
  return await hasRow(
    db.selectFrom("files as f")
      .innerJoin("member_identifiers as i", "i.id", "f.entity_id")
      .where("f.id", "=", fileId)
      .where("f.entity_type", "=", "member_identifier")
      .where("i.member_id", "=", memberId)
      .select("f.id"),
  );
}

// ==================================================================== payment methods

export interface PaymentMethodRecord {
  id: string;
  accountId: string;
  type: "card" | "ach" | "check" | "other";
  brand: string | null;
  last4: string | null;
  expMonth: number | null;
  expYear: number | null;
  processor: string | null;
  processorPaymentMethodId: string | null;
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}

const paymentMethodColumns = [
  "p.id",
  "p.account_id",
  "p.type",
  "p.brand",
  "p.last4",
  "p.exp_month",
  "p.exp_year",
  "p.processor",
  "p.processor_payment_method_id",
  "p.is_default",
  "p.created_at",
  "p.updated_at",
] as const;

function toPaymentMethod(row: Selectable<PaymentMethodTable>): PaymentMethodRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    type: row.type as PaymentMethodRecord["type"],
    brand: row.brand,
    last4: row.last4,
    expMonth: row.exp_month,
    expYear: row.exp_year,
    processor: row.processor,
    processorPaymentMethodId: row.processor_payment_method_id,
    isDefault: row.is_default,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

function paymentMethodQuery(db: Db) {
  return db.selectFrom("payment_methods as p")
    .innerJoin("accounts as a", "a.id", "p.account_id")
    .where("a.deleted_at", "is", null)
    .select(paymentMethodColumns);
}

export async function findPaymentMethod(
  db: Db,
  id: string,
): Promise<PaymentMethodRecord | undefined> {
  const row = await paymentMethodQuery(db).where("p.id", "=", id).executeTakeFirst();
  return row && toPaymentMethod(row);
}

export function listPaymentMethods(db: Db, accountId: string, params: ListParams) {
  return paginate(paymentMethodQuery(db).where("p.account_id", "=", accountId), params, {
    sortColumns: { type: "p.type", createdAt: "p.created_at" },
    tieBreaker: "p.id",
    map: toPaymentMethod,
  });
}

export interface PaymentMethodChanges {
  type?: string;
  brand?: string | null;
  last4?: string | null;
  expMonth?: number | null;
  expYear?: number | null;
  processor?: string | null;
  processorPaymentMethodId?: string | null;
  isDefault?: boolean;
}

const paymentMethodColumnMap = {
  type: "type",
  brand: "brand",
  last4: "last4",
  expMonth: "exp_month",
  expYear: "exp_year",
  processor: "processor",
  processorPaymentMethodId: "processor_payment_method_id",
  isDefault: "is_default",
};

export async function insertPaymentMethod(
  db: Db,
  values: { id: string; accountId: string; now: Date } & PaymentMethodChanges,
): Promise<void> {
  await db.insertInto("payment_methods").values({
    id: values.id,
    account_id: values.accountId,
    type: values.type!,
    brand: values.brand ?? null,
    last4: values.last4 ?? null,
    exp_month: values.expMonth ?? null,
    exp_year: values.expYear ?? null,
    processor: values.processor ?? null,
    processor_payment_method_id: values.processorPaymentMethodId ?? null,
    is_default: values.isDefault ?? false,
    created_at: values.now,
    updated_at: values.now,
  }).execute();
}

export async function updatePaymentMethodRow(
  db: Db,
  id: string,
  changes: PaymentMethodChanges,
  now: Date,
): Promise<void> {
  await updateById(db, "payment_methods", id, changes, paymentMethodColumnMap, now);
}

/** Clears the account's default payment method (before another one becomes the default). */
export async function clearDefaultPaymentMethod(
  db: Db,
  accountId: string,
  now: Date,
): Promise<void> {
  await db.updateTable("payment_methods").where("account_id", "=", accountId)
    .where("is_default", "=", true).set({ is_default: false, updated_at: now }).execute();
}

export async function deletePaymentMethodRow(db: Db, id: string): Promise<void> {
  await deleteById(db, "payment_methods", id);
}

// ===================================================================== tax exemptions

export interface TaxExemptionRecord {
  id: string;
  accountId: string;
  certificateNumber: string;
  issuingState: string | null;
  reason: string | null;
  expiresDate: string | null;
  status: "pending" | "approved" | "revoked";
  approvedAt: string | null;
  approvedBy: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
  revokeReason: string | null;
  createdAt: string;
  updatedAt: string;
}

const taxExemptionColumns = [
  "t.id",
  "t.account_id",
  "t.certificate_number",
  "t.issuing_state",
  "t.reason",
  "t.expires_date",
  "t.status",
  "t.approved_at",
  "t.approved_by",
  "t.revoked_at",
  "t.revoked_by",
  "t.revoke_reason",
  "t.created_at",
  "t.updated_at",
] as const;

function toTaxExemption(row: Selectable<TaxExemptionTable>): TaxExemptionRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    certificateNumber: row.certificate_number,
    issuingState: row.issuing_state,
    reason: row.reason,
    expiresDate: row.expires_date,
    status: row.status as TaxExemptionRecord["status"],
    approvedAt: isoStringOrNull(row.approved_at),
    approvedBy: row.approved_by,
    revokedAt: isoStringOrNull(row.revoked_at),
    revokedBy: row.revoked_by,
    revokeReason: row.revoke_reason,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

function taxExemptionQuery(db: Db) {
  return db.selectFrom("tax_exemptions as t")
    .innerJoin("accounts as a", "a.id", "t.account_id")
    .where("a.deleted_at", "is", null)
    .select(taxExemptionColumns);
}

export async function findTaxExemption(
  db: Db,
  id: string,
  options: { lock?: boolean } = {},
): Promise<TaxExemptionRecord | undefined> {
  let query = taxExemptionQuery(db).where("t.id", "=", id);
  if (options.lock) query = query.forUpdate("t");
  const row = await query.executeTakeFirst();
  return row && toTaxExemption(row);
}

export function listTaxExemptions(
  db: Db,
  accountId: string,
  params: ListParams & { status?: string },
) {
  let query = taxExemptionQuery(db).where("t.account_id", "=", accountId);
  if (params.status) query = query.where("t.status", "=", params.status);
  return paginate(query, params, {
    sortColumns: {
      certificateNumber: "t.certificate_number",
      status: "t.status",
      createdAt: "t.created_at",
    },
    tieBreaker: "t.id",
    map: toTaxExemption,
  });
}

export interface TaxExemptionChanges {
  certificateNumber?: string;
  issuingState?: string | null;
  reason?: string | null;
  expiresDate?: string | null;
  status?: string;
  approvedAt?: Date;
  approvedBy?: string;
  revokedAt?: Date;
  revokedBy?: string;
  revokeReason?: string;
}

const taxExemptionColumnMap = {
  certificateNumber: "certificate_number",
  issuingState: "issuing_state",
  reason: "reason",
  expiresDate: "expires_date",
  status: "status",
  approvedAt: "approved_at",
  approvedBy: "approved_by",
  revokedAt: "revoked_at",
  revokedBy: "revoked_by",
  revokeReason: "revoke_reason",
};

export async function insertTaxExemption(
  db: Db,
  values: {
    id: string;
    accountId: string;
    certificateNumber: string;
    issuingState: string | null;
    reason: string | null;
    expiresDate: string | null;
    now: Date;
  },
): Promise<void> {
  await db.insertInto("tax_exemptions").values({
    id: values.id,
    account_id: values.accountId,
    certificate_number: values.certificateNumber,
    issuing_state: values.issuingState,
    reason: values.reason,
    expires_date: values.expiresDate,
    status: "pending",
    created_at: values.now,
    updated_at: values.now,
  }).execute();
}

export async function updateTaxExemptionRow(
  db: Db,
  id: string,
  changes: TaxExemptionChanges,
  now: Date,
): Promise<void> {
  await updateById(db, "tax_exemptions", id, changes, taxExemptionColumnMap, now);
}

export async function deleteTaxExemptionRow(db: Db, id: string): Promise<void> {
  await deleteById(db, "tax_exemptions", id);
}

/** Whether the account has an approved exemption not expired on `onDate` (YYYY-MM-DD). */
export async function existsActiveTaxExemption(
  db: Db,
  accountId: string,
  onDate: string,
): Promise<boolean> {
  return await hasRow(
    db.selectFrom("tax_exemptions").select("id")
      .where("account_id", "=", accountId)
      .where("status", "=", "approved")
      .where((eb) => eb.or([eb("expires_date", "is", null), eb("expires_date", ">=", onDate)]))
      .limit(1),
  );
}

// ==================================================================== processor links

export interface ProcessorLinkRecord {
  id: string;
  accountId: string;
  processor: string;
  externalCustomerId: string;
  createdAt: string;
  updatedAt: string;
}

function toProcessorLink(row: Selectable<ProcessorLinkTable>): ProcessorLinkRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    processor: row.processor,
    externalCustomerId: row.external_customer_id,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

function processorLinkQuery(db: Db) {
  return db.selectFrom("processor_links as l")
    .innerJoin("accounts as a", "a.id", "l.account_id")
    .where("a.deleted_at", "is", null)
    .select([
      "l.id",
      "l.account_id",
      "l.processor",
      "l.external_customer_id",
      "l.created_at",
      "l.updated_at",
    ]);
}

export async function findProcessorLink(
  db: Db,
  id: string,
): Promise<ProcessorLinkRecord | undefined> {
  const row = await processorLinkQuery(db).where("l.id", "=", id).executeTakeFirst();
  return row && toProcessorLink(row);
}

export function listProcessorLinks(db: Db, accountId: string, params: ListParams) {
  return paginate(processorLinkQuery(db).where("l.account_id", "=", accountId), params, {
    sortColumns: { processor: "l.processor", createdAt: "l.created_at" },
    tieBreaker: "l.id",
    map: toProcessorLink,
  });
}

export async function insertProcessorLink(
  db: Db,
  values: {
    id: string;
    accountId: string;
    processor: string;
    externalCustomerId: string;
    now: Date;
  },
): Promise<void> {
  await db.insertInto("processor_links").values({
    id: values.id,
    account_id: values.accountId,
    processor: values.processor,
    external_customer_id: values.externalCustomerId,
    created_at: values.now,
    updated_at: values.now,
  }).execute();
}

export async function updateProcessorLinkRow(
  db: Db,
  id: string,
  changes: { processor?: string; externalCustomerId?: string },
  now: Date,
): Promise<void> {
  await updateById(db, "processor_links", id, changes, {
    processor: "processor",
    externalCustomerId: "external_customer_id",
  }, now);
}

export async function deleteProcessorLinkRow(db: Db, id: string): Promise<void> {
  await deleteById(db, "processor_links", id);
}
