/** SQL of files in storage folders (their access query lives in access_repo.ts). */
import { sql } from "kysely";
import type { Db } from "../db/database.ts";
import { type Page, paginate } from "../db/pagination.ts";
import { containsText, LOWERED } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import { ACCESS_CHANGE, type StorageFileRecord, toStorageFile } from "./access_repo.ts";

const fileColumns = [
  "id",
  "folder_id",
  "name",
  "content_type",
  "size",
  "path",
  "created_at",
  "created_by",
] as const;

/** A folder's files; `q` searches the name (the folder index narrows to one folder). */
export function listFilesInFolder(
  db: Db,
  folderId: string,
  params: ListParams,
): Promise<Page<StorageFileRecord>> {
  let query = db.selectFrom("storage_files").select(fileColumns).where("folder_id", "=", folderId);
  if (params.q) {
    query = query.where(containsText(sql`lower(name)`, params.q, LOWERED));
  }
  return paginate(query, params, {
    sortColumns: { name: "name", createdAt: "created_at", size: "size" },
    tieBreaker: "id",
    map: toStorageFile,
  });
}

export async function insertStorageFile(
  db: Db,
  values: Omit<StorageFileRecord, "createdAt"> & { now: Date },
): Promise<StorageFileRecord> {
  const row = await db.insertInto("storage_files").values({
    id: values.id,
    folder_id: values.folderId,
    name: values.name,
    content_type: values.contentType,
    size: values.size,
    path: values.path,
    created_by: values.createdBy,
    created_at: values.now,
    updated_at: values.now,
  }).returning(fileColumns).executeTakeFirstOrThrow();
  return toStorageFile(row);
}

/** Renames or moves the file (a move raises its access generation); undefined when it is gone. */
export async function updateStorageFile(
  db: Db,
  id: string,
  changes: { name?: string; folderId?: string },
  now: Date,
): Promise<StorageFileRecord | undefined> {
  const row = await db.updateTable("storage_files").where("id", "=", id).set({
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.folderId !== undefined
      ? { folder_id: changes.folderId, access_generation: ACCESS_CHANGE }
      : {}),
    updated_at: now,
  }).returning(fileColumns).executeTakeFirst();
  return row && toStorageFile(row);
}

/** Deletes the file's row; returns its storage path, or undefined when there was none. */
export async function deleteStorageFileRow(db: Db, id: string): Promise<string | undefined> {
  const row = await db.deleteFrom("storage_files").where("id", "=", id).returning("path")
    .executeTakeFirst();
  return row?.path;
}

/** Deletes the files of the folder and all its descendants; returns their storage paths. */
export async function deleteFilesUnder(db: Db, folderId: string): Promise<string[]> {
  const { rows } = await sql<{ path: string }>`
    WITH RECURSIVE sub (id) AS (
      SELECT id FROM storage_folders WHERE id = ${folderId}
      UNION
      SELECT f.id FROM storage_folders f JOIN sub s ON f.parent_id = s.id
    )
    DELETE FROM storage_files WHERE folder_id IN (SELECT id FROM sub) RETURNING path`
    .execute(db);
  return rows.map((r) => r.path);
}
