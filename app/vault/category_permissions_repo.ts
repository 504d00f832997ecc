/**
 * SQL of the grants on vault categories (a level for a role or a user; one per subject and
 * category, enforced by partial unique indexes).
 */
import type { Selectable } from "kysely";
import type { VaultLevel } from "../../domain/vault/access.ts";
import type { Db } from "../db/database.ts";
import { isoString } from "../db/rows.ts";
import type { VaultGrant } from "./vault_schemas.ts";
import type { VaultCategoryPermissionTable } from "./vault_tables.ts";

function toGrant(row: Selectable<VaultCategoryPermissionTable>): VaultGrant {
  return {
    id: row.id,
    categoryId: row.category_id,
    roleId: row.role_id,
    userId: row.user_id,
    level: row.level,
    createdAt: isoString(row.created_at),
  };
}

/** A category's grants, oldest first (a small per-record list: `{ data }`). */
export async function listGrants(db: Db, categoryId: string): Promise<VaultGrant[]> {
  const rows = await db.selectFrom("vault_category_permissions").selectAll()
    .where("category_id", "=", categoryId).orderBy("created_at").orderBy("id").execute();
  return rows.map(toGrant);
}

export async function insertGrant(db: Db, values: {
  id: string;
  categoryId: string;
  roleId: string | null;
  userId: string | null;
  level: VaultLevel;
  now: Date;
}): Promise<VaultGrant> {
  const row = await db.insertInto("vault_category_permissions").values({
    id: values.id,
    category_id: values.categoryId,
    role_id: values.roleId,
    user_id: values.userId,
    level: values.level,
    created_at: values.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toGrant(row);
}

/** Deletes a grant of this category; the deleted grant, or undefined when there was none. */
export async function deleteGrant(
  db: Db,
  categoryId: string,
  grantId: string,
): Promise<VaultGrant | undefined> {
  const row = await db.deleteFrom("vault_category_permissions")
    .where("id", "=", grantId).where("category_id", "=", categoryId)
    .returningAll().executeTakeFirst();
  return row && toGrant(row);
}
