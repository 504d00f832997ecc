/**
 * All SQL of identity and access: users, roles, role permissions, user roles, reset tokens,
 * rate-limit counters and PIN failures. Rows become API objects only through `toUser` and
 * `toRole` (the one place the user and role shapes are built).
 */
import { sql } from "kysely";
import type { Permission } from "../../domain/auth/permissions.ts";
import type { Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { hasRow, touchedAny } from "../db/rows.ts";
import { likePattern, type ListParams } from "../schemas.ts";
import type { Role, RoleSummary, User } from "./auth_schemas.ts";

/** The channel other processes LISTEN on to drop their cached actors. */
export const IDENTITY_CHANNEL = "identity_changed";

// --- Users --------------------------------------------------------------------------

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

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    employeeNumber: row.employee_number,
    isActive: row.is_active,
    hasPin: row.has_pin,
    roles: row.roles ?? [],
    createdAt: row.created_at.toISOString(),
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
  if (params.q) query = query.where(userSearchText, "ilike", likePattern(params.q));
  if (params.isActive !== undefined) query = query.where("u.is_active", "=", params.isActive);
  return paginate(query, params, {
    sortColumns: { email: "u.email", lastName: "u.last_name", createdAt: "u.created_at" },
    tieBreaker: "u.id",
    map: toUser,
  });
}

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

export function findCredentialsById(
  db: Db,
  id: string,
  lock = false,
): Promise<Credentials | undefined> {
  let query = selectCredentials(db).where("id", "=", id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export function findCredentialsByEmployeeNumber(
  db: Db,
  employeeNumber: string,
): Promise<Credentials | undefined> {
  return selectCredentials(db).where("employee_number", "=", employeeNumber).executeTakeFirst();
}

/**
 * Serializes user creation (transaction-scoped advisory lock): the first-user check and
 * the lowest free employee number are then read and written without a race.
 */
export async function lockUserCreation(trx: Db): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('shop.user_creation'))`.execute(trx);
}

export async function anyUserExists(db: Db): Promise<boolean> {
  return await hasRow(db.selectFrom("users").select("id").limit(1));
}

/** The lowest employee number from 0001 that no user holds, or undefined when all are taken. */
export async function lowestFreeEmployeeNumber(db: Db): Promise<string | undefined> {
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

export async function userExists(db: Db, id: string, lock = false): Promise<boolean> {
  let query = db.selectFrom("users").select("id").where("id", "=", id);
  if (lock) query = query.forUpdate();
  return await hasRow(query);
}

export async function findUserIdByEmail(db: Db, email: string): Promise<string | undefined> {
  const row = await db.selectFrom("users").select("id")
    .where(sql`lower(email)`, "=", email.toLowerCase()).executeTakeFirst();
  return row?.id;
}

// --- Roles --------------------------------------------------------------------------

interface RoleRow {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  is_system: boolean;
  permissions: string[] | null;
  created_at: Date;
  updated_at: Date;
}

export function toRole(row: RoleRow): Role {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    isSystem: row.is_system,
    permissions: [...(row.permissions ?? [])].sort(),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function selectRoles(db: Db) {
  return db.selectFrom("roles as r").select([
    "r.id",
    "r.slug",
    "r.name",
    "r.description",
    "r.is_system",
    sql<string[] | null>`(
      SELECT array_agg(rp.permission ORDER BY rp.permission)
      FROM role_permissions rp WHERE rp.role_id = r.id
    )`.as("permissions"),
    "r.created_at",
    "r.updated_at",
  ]);
}

export async function findRole(db: Db, id: string, lock = false): Promise<Role | undefined> {
  let query = selectRoles(db).where("r.id", "=", id);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row && toRole(row);
}

export async function findRoleIdBySlug(db: Db, slug: string): Promise<string | undefined> {
  const row = await db.selectFrom("roles").select("id").where("slug", "=", slug)
    .executeTakeFirst();
  return row?.id;
}

const roleSearchText = sql<string>`(r.name || ' ' || r.slug)`;

export function listRoles(db: Db, params: ListParams) {
  let query = selectRoles(db);
  if (params.q) query = query.where(roleSearchText, "ilike", likePattern(params.q));
  return paginate(query, params, {
    sortColumns: { name: "r.name", slug: "r.slug", createdAt: "r.created_at" },
    tieBreaker: "r.id",
    map: toRole,
  });
}

export async function listAllRoles(db: Db): Promise<Role[]> {
  const rows = await selectRoles(db).orderBy("r.name").orderBy("r.id").execute();
  return rows.map(toRole);
}

/** The subset of `ids` naming existing roles. */
export async function existingRoleIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom("roles").select("id").where("id", "in", [...ids]).execute();
  return new Set(rows.map((r) => r.id));
}

export async function insertRole(db: Db, values: {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  now: Date;
}): Promise<void> {
  await db.insertInto("roles").values({
    id: values.id,
    slug: values.slug,
    name: values.name,
    description: values.description,
    is_system: false,
    created_at: values.now,
    updated_at: values.now,
  }).execute();
}

export async function updateRoleRow(
  db: Db,
  id: string,
  changes: { slug?: string; name?: string; description?: string | null },
  now: Date,
): Promise<void> {
  await db.updateTable("roles").where("id", "=", id).set({
    ...(changes.slug !== undefined ? { slug: changes.slug } : {}),
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.description !== undefined ? { description: changes.description } : {}),
    updated_at: now,
  }).execute();
}

export async function replaceRolePermissions(
  db: Db,
  roleId: string,
  permissions: readonly Permission[],
): Promise<void> {
  await db.deleteFrom("role_permissions").where("role_id", "=", roleId).execute();
  const unique = [...new Set(permissions)];
  if (unique.length > 0) {
    await db.insertInto("role_permissions")
      .values(unique.map((permission) => ({ role_id: roleId, permission }))).execute();
  }
}

export async function deleteRoleRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom("roles").where("id", "=", id).execute();
}

// --- User roles ---------------------------------------------------------------------

export function listUserRoles(db: Db, userId: string): Promise<RoleSummary[]> {
  return db.selectFrom("user_roles as ur").innerJoin("roles as r", "r.id", "ur.role_id")
    .select(["r.id", "r.slug", "r.name"])
    .where("ur.user_id", "=", userId)
    .orderBy("r.name").orderBy("r.id")
    .execute();
}

export async function findRoleSummary(db: Db, id: string): Promise<RoleSummary | undefined> {
  return await db.selectFrom("roles").select(["id", "slug", "name"]).where("id", "=", id)
    .executeTakeFirst();
}

/** Adds the role; false when the user already has it. */
export async function insertUserRole(
  db: Db,
  userId: string,
  roleId: string,
  now: Date,
): Promise<boolean> {
  const result = await db.insertInto("user_roles")
    .values({ user_id: userId, role_id: roleId, created_at: now })
    .onConflict((oc) => oc.columns(["user_id", "role_id"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteUserRole(db: Db, userId: string, roleId: string): Promise<boolean> {
  return touchedAny(
    await db.deleteFrom("user_roles")
      .where("user_id", "=", userId).where("role_id", "=", roleId).executeTakeFirst(),
  );
}

/** Tells every process (LISTEN) that users, roles or grants changed; sent on commit. */
export async function notifyIdentityChanged(db: Db): Promise<void> {
  await sql`SELECT pg_notify(${IDENTITY_CHANNEL}, '')`.execute(db);
}

// --- Password reset tokens ----------------------------------------------------------

export async function insertResetToken(db: Db, values: {
  id: string;
  userId: string;
  tokenHash: string;
  purpose: "email" | "admin";
  expiresAt: Date;
  now: Date;
}): Promise<void> {
  await db.insertInto("password_reset_tokens").values({
    id: values.id,
    user_id: values.userId,
    token_hash: values.tokenHash,
    purpose: values.purpose,
    expires_at: values.expiresAt,
    created_at: values.now,
  }).execute();
}

/**
 * Marks the token used and returns its user, in one statement (so it works once even when
 * two requests race); undefined when it is unknown, used or expired.
 */
export async function consumeResetToken(
  db: Db,
  tokenHash: string,
  now: Date,
): Promise<string | undefined> {
  const row = await db.updateTable("password_reset_tokens")
    .set({ used_at: now })
    .where("token_hash", "=", tokenHash)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .returning("user_id")
    .executeTakeFirst();
  return row?.user_id;
}

/** Uses up every other outstanding token of the user (after a reset or a password change). */
export async function revokeResetTokens(db: Db, userId: string, now: Date): Promise<void> {
  await db.updateTable("password_reset_tokens").set({ used_at: now })
    .where("user_id", "=", userId).where("used_at", "is", null).execute();
}

// --- Rate-limit counters --------------------------------------------------------------

/** Atomic upsert-increment of one window's counter; returns the hits including this one. */
export async function incrementCounter(
  db: Db,
  bucket: string,
  windowStart: Date,
): Promise<number> {
  const row = await db.insertInto("rate_limit_counters")
    .values({ bucket, window_start: windowStart, hits: 1 })
    .onConflict((oc) =>
      oc.columns(["bucket", "window_start"]).doUpdateSet({
        hits: sql`rate_limit_counters.hits + 1`,
      })
    )
    .returning("hits")
    .executeTakeFirstOrThrow();
  return row.hits;
}

export async function pruneCounters(db: Db, before: Date): Promise<void> {
  await db.deleteFrom("rate_limit_counters").where("window_start", "<", before).execute();
}

// --- PIN failures -------------------------------------------------------------------

export interface PinFailureRow {
  failures: number;
  firstFailureAt: Date;
  lockedUntil: Date | null;
}

export function findPinFailures(
  db: Db,
  employeeNumber: string,
  lock = false,
): Promise<PinFailureRow | undefined> {
  let query = db.selectFrom("pin_login_failures")
    .select([
      "failures",
      "first_failure_at as firstFailureAt",
      "locked_until as lockedUntil",
    ])
    .where("employee_number", "=", employeeNumber);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Makes sure a row exists so it can be locked (`FOR UPDATE`) by the next statement. */
export async function ensurePinFailureRow(
  db: Db,
  employeeNumber: string,
  now: Date,
): Promise<void> {
  await db.insertInto("pin_login_failures")
    .values({ employee_number: employeeNumber, failures: 0, first_failure_at: now })
    .onConflict((oc) => oc.column("employee_number").doNothing())
    .execute();
}

export async function savePinFailures(
  db: Db,
  employeeNumber: string,
  state: PinFailureRow,
): Promise<void> {
  await db.updateTable("pin_login_failures").set({
    failures: state.failures,
    first_failure_at: state.firstFailureAt,
    locked_until: state.lockedUntil,
  }).where("employee_number", "=", employeeNumber).execute();
}

export async function clearPinFailures(db: Db, employeeNumber: string): Promise<void> {
  await db.deleteFrom("pin_login_failures").where("employee_number", "=", employeeNumber)
    .execute();
}

/** Reset tokens of one purpose issued to the user since `since` (forgot-password limit). */
export async function countResetTokensSince(
  db: Db,
  userId: string,
  purpose: "email" | "admin",
  since: Date,
): Promise<number> {
  const row = await db.selectFrom("password_reset_tokens")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", userId).where("purpose", "=", purpose)
    .where("created_at", ">", since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
