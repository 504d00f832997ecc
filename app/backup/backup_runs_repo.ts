/** The backups written (for `ops status`), and what `ops status` reads of the database. */
import { sql } from "kysely";
import type { Db } from "../db/database.ts";

export interface BackupRunRecord {
  finishedAt: string;
  location: string;
  bytes: number;
  tables: number;
  rows: number;
  files: number;
  seconds: number;
  schemaVersion: string;
}

export async function insertBackupRun(
  db: Db,
  id: string,
  run: Omit<BackupRunRecord, "finishedAt"> & { finishedAt: Date },
): Promise<void> {
  await db.insertInto("backup_runs").values({
    id,
    finished_at: run.finishedAt,
    location: run.location,
    bytes: run.bytes,
    tables: run.tables,
    rows: run.rows,
    files: run.files,
    seconds: run.seconds.toFixed(2),
    schema_version: run.schemaVersion,
  }).execute();
}

export async function findLastBackupRun(db: Db): Promise<BackupRunRecord | undefined> {
  const row = await db.selectFrom("backup_runs").selectAll().orderBy("finished_at", "desc")
    .limit(1).executeTakeFirst();
  if (!row) return undefined;
  return {
    finishedAt: row.finished_at.toISOString(),
    location: row.location,
    bytes: Number(row.bytes),
    tables: row.tables,
    rows: Number(row.rows),
    files: row.files,
    seconds: Number(row.seconds),
    schemaVersion: row.schema_version,
  };
}

/** The database's size on disk, in bytes. */
export async function findDatabaseSize(db: Db): Promise<number> {
  const result = await sql<{ bytes: number | string }>`
    SELECT pg_database_size(current_database()) AS bytes`.execute(db);
  return Number(result.rows[0]?.bytes ?? 0);
}

/** Emails waiting in the outbox (and those that failed for good). */
export async function countOutboxBacklog(db: Db): Promise<{ pending: number; failed: number }> {
  const rows = await db.selectFrom("email_outbox")
    .select(["status", (eb) => eb.fn.countAll<number>().as("n")])
    .where("status", "in", ["pending", "failed"])
    .groupBy("status")
    .execute();
  const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { pending: count("pending"), failed: count("failed") };
}
