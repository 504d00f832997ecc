/** All SQL of files attached to records. */
import { sql } from "kysely";
import type { Db } from "../db/database.ts";
import { type Page, paginate } from "../db/pagination.ts";
import { containsText } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import { isoString } from "../db/rows.ts";

export interface FileRecord {
  id: string;
  entityType: string;
  entityId: string;
  category: string | null;
  contentType: string;
  size: number;
  path: string;
  createdAt: string;
}

const fileColumns = [
  "id",
  "entity_type",
  "entity_id",
  "category",
  "content_type",
  "size",
  "path",
  "created_at",
] as const;

function toFile(row: {
  id: string;
  entity_type: string;
  entity_id: string;
  category: string | null;
  content_type: string;
  size: number | string;
  path: string;
  created_at: Date;
}): FileRecord {
  return {
    id: row.id,
    entityType: row.entity_type,
    entityId: row.entity_id,
    category: row.category,
    contentType: row.content_type,
    size: Number(row.size),
    path: row.path,
    createdAt: isoString(row.created_at),
  };
}

export async function insertFile(
  db: Db,
  values: Omit<FileRecord, "createdAt"> & { uploadedBy: string | null; now: Date },
): Promise<FileRecord> {
  const row = await db.insertInto("files").values({
    id: values.id,
    entity_type: values.entityType,
    entity_id: values.entityId,
    category: values.category,
    content_type: values.contentType,
    size: values.size,
    path: values.path,
    uploaded_by: values.uploadedBy,
    created_at: values.now,
  }).returning(fileColumns).executeTakeFirstOrThrow();
  return toFile(row);
}

export async function findFile(db: Db, id: string): Promise<FileRecord | undefined> {
  const row = await db.selectFrom("files").select(fileColumns).where("id", "=", id)
    .executeTakeFirst();
  return row && toFile(row);
}

export async function findFileByPath(db: Db, path: string): Promise<FileRecord | undefined> {
  const row = await db.selectFrom("files").select(fileColumns).where("path", "=", path)
    .executeTakeFirst();
  return row && toFile(row);
}

export function listFilesOf(
  db: Db,
  entityType: string,
  entityId: string,
  params: ListParams & { category?: string },
): Promise<Page<FileRecord>> {
  let query = db.selectFrom("files").select(fileColumns)
    .where("entity_type", "=", entityType).where("entity_id", "=", entityId);
  if (params.category !== undefined) query = query.where("category", "=", params.category);
  // One record's files (at most upload.maxFilesPerEntity): the entity index narrows, no
  // search index needed.
  if (params.q) {
    const q = params.q;
    query = query.where((eb) =>
      eb.or([
        containsText("category", q),
        containsText("path", q),
        containsText("content_type", q),
      ])
    );
  }
  return paginate(query, params, {
    sortColumns: { createdAt: "created_at", category: "category", size: "size" },
    nullableSorts: ["category"],
    tieBreaker: "id",
    map: toFile,
  });
}

/**
 * For each of the records, the id of its latest file (by creation) in `category`: records
 * without one are left out. One query over the entity index for a page of records.
 */
export async function findLatestFileIds(
  db: Db,
  entityType: string,
  entityIds: readonly string[],
  category: string,
): Promise<Map<string, string>> {
  if (entityIds.length === 0) return new Map();
  const rows = await db.selectFrom("files").select(["entity_id", "id"])
    .distinctOn("entity_id")
    .where("entity_type", "=", entityType)
    .where("entity_id", "in", [...new Set(entityIds)])
    .where("category", "=", category)
    .orderBy("entity_id").orderBy("created_at", "desc").orderBy("id", "desc")
    .execute();
  return new Map(rows.map((r) => [r.entity_id, r.id]));
}

export async function countFilesOf(db: Db, entityType: string, entityId: string): Promise<number> {
  const row = await db.selectFrom("files").select(sql<number>`count(*)`.as("n"))
    .where("entity_type", "=", entityType).where("entity_id", "=", entityId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Serialises uploads to one owning record until the transaction ends (a transaction-level
 * advisory lock on the owner), so the per-entity file count cannot be overrun by racing
 * uploads, whatever table the owner lives in.
 */
export async function lockFileOwner(db: Db, entityType: string, entityId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`files:${entityType}:${entityId}`}, 0))`
    .execute(db);
}

/** Deletes the row; returns its storage path, or undefined when there was none. */
export async function deleteFileRow(db: Db, id: string): Promise<string | undefined> {
  const row = await db.deleteFrom("files").where("id", "=", id).returning("path")
    .executeTakeFirst();
  return row?.path;
}

/** Deletes every file row of the given records; returns their storage paths. */
export async function deleteFilesOf(
  db: Db,
  entityType: string,
  entityIds: readonly string[],
): Promise<string[]> {
  if (entityIds.length === 0) return [];
  const rows = await db.deleteFrom("files").where("entity_type", "=", entityType)
    .where("entity_id", "in", [...entityIds]).returning("path").execute();
  return rows.map((r) => r.path);
}
