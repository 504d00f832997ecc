/**
 * The SQL of users: the API shape (with their roles inline), credentials for logging in, and
 * the writes of the user row. Rows become `User` objects only through `toUser`.
 *
 * Lock: a user row is locked `FOR UPDATE` (`lockUser`) by every change that reads it first
 * (status, reset links, role grants); user creation takes the advisory lock of
 * `lockUserCreation` instead (the row does not exist yet).
 */
import { sql, type Transaction } from "kysely";
import type { Database, Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { hasRow, isoString, touchedAny } from "../db/rows.ts";
import { containsText } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { RoleSummary, User } from "./auth_schemas.ts";

interface UserRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  employee_number: string;
  is_active: boolean;
  has_pin: boolean;
  roles: RoleSummary[] | null;
  created_at: Date;
}

function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    employeeNumber: row.employee_number,
    isActive: row.is_active,
    hasPin: row.has_pin,
    roles: row.roles ?? [],
    createdAt: isoString(row.created_at),
  };
}

/** The user columns plus the roles as one JSON array (no query per user). */
function selectUsers(db: Db) {
  return db.selectFrom("users as u").select([
    "u.id",
    "u.email",
    "u.first_name",
    "u.last_name",
    "u.employee_number",
    "u.is_active",
    sql<boolean>`u.pin_hash IS NOT NULL`.as("has_pin"),
    sql<RoleSummary[] | null>`(
      SELECT json_agg(json_build_object('id', r.id, 'slug', r.slug, 'name', r.name)
                      ORDER BY r.name, r.id)
      FROM user_roles ur JOIN roles r ON r.id = ur.role_id
      WHERE ur.user_id = u.id
    )`.as("roles"),
    "u.created_at",
  ]);
}

export async function findUser(db: Db, id: string): Promise<User | undefined> {
  const row = await selectUsers(db).where("u.id", "=", id).executeTakeFirst();
  return row && toUser(row);
}

/** The same expression as the `users_search_trgm_idx` index, so `q` uses it. */
const userSearchText = sql<string>`(u.email || ' ' || u.first_name || ' ' || u.last_name)`;

export function listUsers(db: Db, params: ListParams & { isActive?: boolean }) {
  let query = selectUsers(db);
  if (params.q) query = query.where(containsText(userSearchText, params.q));
  if (params.isActive !== undefined) query = query.where("u.is_active", "=", params.isActive);
  return paginate(query, params, {
    sortColumns: { email: "u.email", lastName: "u.last_name", createdAt: "u.created_at" },
    tieBreaker: "u.id",
    map: toUser,
  });
}

/** Whether a user with this id exists (disabled users too). */
export async function hasUser(db: Db, id: string): Promise<boolean> {
  return await hasRow(db.selectFrom("users").select("id").where("id", "=", id));
}

/**
 * "First Last" of the `users` row joined as `alias`, for the reads of other features that name
 * a user (a drawer's cashier, a void's): null when the join found none. The same text as
 * {@link findUserName}.
 */
export function selectUserName(alias: string) {
  return sql<string | null>`trim(${sql.ref(`${alias}.first_name`)} || ' ' || ${
    sql.ref(`${alias}.last_name`)
  })`;
}

/** "First Last" of a user (receipts name the cashier); undefined when there is none. */
export async function findUserName(db: Db, id: string): Promise<string | undefined> {
  const row = await db.selectFrom("users").select(["first_name", "last_name"])
    .where("id", "=", id).executeTakeFirst();
  return row ? `${row.first_name} ${row.last_name}`.trim() : undefined;
}

export async function findUserIdByEmail(db: Db, email: string): Promise<string | undefined> {
  const row = await db.selectFrom("users").select("id")
    .where(sql`lower(email)`, "=", email.toLowerCase()).executeTakeFirst();
  return row?.id;
}

// --- Credentials ----------------------------------------------------------------------

export interface Credentials {
  id: string;
  email: string;
  passwordHash: string | null;
  pinHash: string | null;
  isActive: boolean;
  tokenVersion: number;
  posTokenVersion: number;
}

function selectCredentials(db: Db) {
  return db.selectFrom("users").select([
    "id",
    "email",
    "password_hash as passwordHash",
    "pin_hash as pinHash",
    "is_active as isActive",
    "token_version as tokenVersion",
    "pos_token_version as posTokenVersion",
  ]);
}

export function findCredentialsByEmail(db: Db, email: string): Promise<Credentials | undefined> {
  return selectCredentials(db).where(sql`lower(email)`, "=", email.toLowerCase())
    .executeTakeFirst();
}

export function findCredentialsById(db: Db, id: string): Promise<Credentials | undefined> {
  return selectCredentials(db).where("id", "=", id).executeTakeFirst();
}

export function findCredentialsByEmployeeNumber(
  db: Db,
  employeeNumber: string,
): Promise<Credentials | undefined> {
  return selectCredentials(db).where("employee_number", "=", employeeNumber).executeTakeFirst();
}

/**
 * Locks the user row `FOR UPDATE` (the one lock strength of user rows) until the
 * transaction ends and returns its credentials; undefined when there is no such user.
 */
export function lockUser(
  trx: Transaction<Database>,
  id: string,
): Promise<Credentials | undefined> {
  return selectCredentials(trx).where("id", "=", id).forUpdate().executeTakeFirst();
}

// --- Creation -------------------------------------------------------------------------

/**
 * Serializes user creation (transaction-scoped advisory lock): the first-user check and
 * the lowest free employee number are then read and written without a race.
 */
export async function lockUserCreation(trx: Transaction<Database>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('shop.user_creation'))`.execute(trx);
}

export async function hasAnyUser(db: Db): Promise<boolean> {
  return await hasRow(db.selectFrom("users").select("id").limit(1));
}

/** The lowest employee number from 0001 that no user holds, or undefined when all are taken. */
export async function findLowestFreeEmployeeNumber(db: Db): Promise<string | undefined> {
  const result = await sql<{ n: number }>`
    SELECT c.n FROM (
      SELECT 1 AS n
      UNION ALL
      SELECT employee_number::int + 1 FROM users
    ) c
    WHERE c.n BETWEEN 1 AND 9999
      AND NOT EXISTS (SELECT 1 FROM users x WHERE x.employee_number = lpad(c.n::text, 4, '0'))
    ORDER BY c.n
    LIMIT 1`.execute(db);
  const n = result.rows[0]?.n;
  return n === undefined ? undefined : String(n).padStart(4, "0");
}

export async function insertUser(db: Db, values: {
  id: string;
  email: string;
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  employeeNumber: string;
  now: Date;
}): Promise<void> {
  await db.insertInto("users").values({
    id: values.id,
    email: values.email,
    password_hash: values.passwordHash,
    first_name: values.firstName,
    last_name: values.lastName,
    employee_number: values.employeeNumber,
    created_at: values.now,
    updated_at: values.now,
  }).execute();
}

// --- Changes --------------------------------------------------------------------------

/** Whether the user exists (and was updated). */
export async function updateUserProfile(
  db: Db,
  id: string,
  changes: { firstName?: string; lastName?: string; employeeNumber?: string },
  now: Date,
): Promise<boolean> {
  const result = await db.updateTable("users").where("id", "=", id).set({
    ...(changes.firstName !== undefined ? { first_name: changes.firstName } : {}),
    ...(changes.lastName !== undefined ? { last_name: changes.lastName } : {}),
    ...(changes.employeeNumber !== undefined ? { employee_number: changes.employeeNumber } : {}),
    updated_at: now,
  }).executeTakeFirst();
  return touchedAny(result);
}

/** Sets a new password hash and revokes every token issued before (token_version + 1). */
export async function setPasswordHash(
  db: Db,
  id: string,
  passwordHash: string,
  now: Date,
): Promise<void> {
  await db.updateTable("users").where("id", "=", id).set({
    password_hash: passwordHash,
    token_version: sql`token_version + 1`,
    updated_at: now,
  }).execute();
}

/** Enables or disables; disabling revokes every token (re-enabling revives none). */
export async function setUserActive(
  db: Db,
  id: string,
  isActive: boolean,
  now: Date,
): Promise<void> {
  await db.updateTable("users").where("id", "=", id).set({
    is_active: isActive,
    ...(isActive ? {} : { token_version: sql`token_version + 1` }),
    updated_at: now,
  }).execute();
}

/** Sets or removes the PIN; revokes the user's `pos` tokens only. */
export async function setPinHash(
  db: Db,
  id: string,
  pinHash: string | null,
  now: Date,
): Promise<void> {
  await db.updateTable("users").where("id", "=", id).set({
    pin_hash: pinHash,
    pos_token_version: sql`pos_token_version + 1`,
    updated_at: now,
  }).execute();
}
