/** SQL of folder permissions (grants of a level on a folder to a role or a user). */
import type { Selectable } from "kysely";
import type { Db } from "../db/database.ts";
import { isoString } from "../db/rows.ts";
import type { Level } from "../../domain/storage/levels.ts";
import type { GrantJson } from "./storage_schemas.ts";
import type { StorageFolderPermissionTable } from "./storage_tables.ts";

/** The unique indexes behind "one grant per folder and role / user". */
export const GRANT_UNIQUE_INDEXES = [
  "storage_folder_permissions_role_key",
  "storage_folder_permissions_user_key",
];

function toGrant(row: Selectable<StorageFolderPermissionTable>): GrantJson {
  return {
    id: row.id,
    folderId: row.folder_id,
    roleId: row.role_id,
    userId: row.user_id,
    level: row.level as Level,
    createdBy: row.created_by,
    createdAt: isoString(row.created_at),
  };
}

/** The folder's own grants (not inherited ones), oldest first. */
export async function listFolderGrants(db: Db, folderId: string): Promise<GrantJson[]> {
  const rows = await db.selectFrom("storage_folder_permissions").selectAll()
    .where("folder_id", "=", folderId).orderBy("created_at").orderBy("id").execute();
  return rows.map(toGrant);
}

export async function insertGrant(
  db: Db,
  values: {
    id: string;
    folderId: string;
    roleId: string | null;
    userId: string | null;
    level: Level;
    createdBy: string | null;
    now: Date;
  },
): Promise<GrantJson> {
  const row = await db.insertInto("storage_folder_permissions").values({
    id: values.id,
    folder_id: values.folderId,
    role_id: values.roleId,
    user_id: values.userId,
    level: values.level,
    created_by: values.createdBy,
    created_at: values.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toGrant(row);
}

/** Deletes the grant when it belongs to that folder; returns it, or undefined. */
export async function deleteGrant(
  db: Db,
  folderId: string,
  grantId: string,
): Promise<GrantJson | undefined> {
  const row = await db.deleteFrom("storage_folder_permissions").where("id", "=", grantId)
    .where("folder_id", "=", folderId).returningAll().executeTakeFirst();
  return row && toGrant(row);
}
