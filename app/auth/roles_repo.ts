/**
 * The SQL of roles and their permissions. Rows become `Role` objects only through `toRole`.
 *
 * Lock: a role row is locked `FOR UPDATE` (`lockRole`) by updates and deletes, which read
 * the role before changing it.
 */
import { sql, type Transaction } from "kysely";
import type { Permission, SystemRoleDefinition } from "../../domain/auth/permissions.ts";
import type { Database, Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { containsText } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { Role, RoleSummary } from "./auth_schemas.ts";
import { isoString } from "../db/rows.ts";

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

function toRole(row: RoleRow): Role {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    isSystem: row.is_system,
    permissions: [...(row.permissions ?? [])].sort(),
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
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

export async function findRole(db: Db, id: string): Promise<Role | undefined> {
  const row = await selectRoles(db).where("r.id", "=", id).executeTakeFirst();
  return row && toRole(row);
}

/** Locks the role row `FOR UPDATE` until the transaction ends; undefined when missing. */
export async function lockRole(trx: Transaction<Database>, id: string): Promise<Role | undefined> {
  const row = await selectRoles(trx).where("r.id", "=", id).forUpdate().executeTakeFirst();
  return row && toRole(row);
}

export async function findRoleSummary(db: Db, id: string): Promise<RoleSummary | undefined> {
  return await db.selectFrom("roles").select(["id", "slug", "name"]).where("id", "=", id)
    .executeTakeFirst();
}

export async function findRoleIdBySlug(db: Db, slug: string): Promise<string | undefined> {
  const row = await db.selectFrom("roles").select("id").where("slug", "=", slug)
    .executeTakeFirst();
  return row?.id;
}

/** The subset of `ids` naming existing roles. */
export async function findExistingRoleIds(
  db: Db,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom("roles").select("id").where("id", "in", [...ids]).execute();
  return new Set(rows.map((r) => r.id));
}

/** The union of the permissions the given roles grant (not expanded). */
export async function findPermissionsOfRoles(
  db: Db,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("role_permissions").select("permission").distinct()
    .where("role_id", "in", [...ids]).execute();
  return rows.map((r) => r.permission);
}

const roleSearchText = sql<string>`(r.name || ' ' || r.slug)`;

export function listRoles(db: Db, params: ListParams) {
  let query = selectRoles(db);
  if (params.q) query = query.where(containsText(roleSearchText, params.q));
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

/**
 * Seeds a system role with its permissions unless a role with its slug exists (a re-seed
 * keeps what admins edited since).
 */
export async function insertSystemRoleIfMissing(
  db: Db,
  id: string,
  role: SystemRoleDefinition,
): Promise<void> {
  const inserted = await db.insertInto("roles")
    .values({
      id,
      slug: role.slug,
      name: role.name,
      description: role.description,
      is_system: true,
    })
    .onConflict((oc) => oc.column("slug").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (inserted && role.permissions.length > 0) {
    await db.insertInto("role_permissions")
      .values(role.permissions.map((permission) => ({ role_id: inserted.id, permission })))
      .execute();
  }
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
