/**
 * SQL writing storage folders, and the locks of the tree.
 *
 * Lock strengths: the tree lock (a transaction-level advisory lock) serializes every change of
 * the tree's shape — moves and deletes — so a move's cycle check reads a tree no other move is
 * changing; a folder being deleted holds its whole subtree FOR UPDATE, which blocks new files
 * and subfolders in it (their foreign keys take KEY SHARE) until it is gone.
 */
import { sql, type Transaction } from "kysely";
import type { Database, Db } from "../db/database.ts";
import { deleteById } from "../db/rows.ts";
import { ACCESS_CHANGE, type FolderRecord, toFolder } from "./access_repo.ts";

/** The unique index behind "sibling names are unique, root folders included". */
export const SIBLING_NAME_INDEX = "storage_folders_sibling_name_key";

const folderColumns = [
  "id",
  "parent_id",
  "name",
  "is_public",
  "created_by",
  "created_at",
  "updated_at",
] as const;

/** Serializes moves and deletes of folders until the transaction ends. */
export async function lockStorageTree(trx: Transaction<Database>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('storage_tree'))`.execute(trx);
}

/** Locks the folder and all its descendants FOR UPDATE; returns how many there are. */
export async function lockSubtree(trx: Transaction<Database>, folderId: string): Promise<number> {
  const { rows } = await sql<{ id: string }>`
    WITH RECURSIVE sub (id) AS (
      SELECT id FROM storage_folders WHERE id = ${folderId}
      UNION
      SELECT f.id FROM storage_folders f JOIN sub s ON f.parent_id = s.id
    )
    SELECT f.id FROM storage_folders f WHERE f.id IN (SELECT id FROM sub) FOR UPDATE`
    .execute(trx);
  return rows.length;
}

export async function insertFolder(
  db: Db,
  values: {
    id: string;
    parentId: string | null;
    name: string;
    isPublic: boolean;
    createdBy: string | null;
    now: Date;
  },
): Promise<FolderRecord> {
  const row = await db.insertInto("storage_folders").values({
    id: values.id,
    parent_id: values.parentId,
    name: values.name,
    is_public: values.isPublic,
    created_by: values.createdBy,
    created_at: values.now,
    updated_at: values.now,
  }).returning(folderColumns).executeTakeFirstOrThrow();
  return toFolder(row);
}

/**
 * Applies the changes; undefined when the folder is gone. `narrowsAccess` (made private,
 * moved) raises its access generation: signed URLs of the files below stop working.
 */
export async function updateFolder(
  db: Db,
  id: string,
  changes: { name?: string; parentId?: string | null; isPublic?: boolean; narrowsAccess: boolean },
  now: Date,
): Promise<FolderRecord | undefined> {
  const row = await db.updateTable("storage_folders").where("id", "=", id).set({
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.parentId !== undefined ? { parent_id: changes.parentId } : {}),
    ...(changes.isPublic !== undefined ? { is_public: changes.isPublic } : {}),
    ...(changes.narrowsAccess ? { access_generation: ACCESS_CHANGE } : {}),
    updated_at: now,
  }).returning(folderColumns).executeTakeFirst();
  return row && toFolder(row);
}

/** Raises the folder's access generation (a grant on it revoked): see `ACCESS_CHANGE`. */
export async function narrowFolderAccess(db: Db, id: string): Promise<void> {
  await db.updateTable("storage_folders").where("id", "=", id)
    .set({ access_generation: ACCESS_CHANGE }).execute();
}

/**
 * Deletes the folder; its descendants and all their grants go with it (ON DELETE CASCADE).
 * Their files must be deleted first (`deleteFilesUnder`): a folder holding files is refused.
 */
export function deleteFolderRow(db: Db, id: string): Promise<boolean> {
  return deleteById(db, "storage_folders", id);
}
