/**
 * The registry of live server processes (`server_processes`, owned by the cluster,
 * app/platform/cluster.ts) and its notifications. A process's row holds its ephemeral public
 * key and proof (domain/platform/peer_keys.ts), never a secret; `seen_at` is its heartbeat, in
 * the database's own clock so every process judges liveness alike.
 */
import { sql } from "kysely";
import type { Db } from "../db/database.ts";

/** The one notification channel of the cluster (NOTIFY is per database). */
export const CLUSTER_CHANNEL = "shop_cluster";

/** A process whose heartbeat is older than this is no longer waited for. */
export const LIVE_WINDOW_SECONDS = 10;
/** Rows of processes not seen for this long are removed (a process killed without leaving). */
const FORGET_AFTER_SECONDS = 120;

export interface ProcessRecord {
  processId: string;
  publicKey: string;
  proof: string;
}

/** What a process reports of itself (for `ops status`): where it is, and its vault's state. */
export interface ProcessReport {
  url: string | null;
  pid: number;
  host: string;
  vaultUnlocked: boolean;
}

export async function registerProcess(
  db: Db,
  record: ProcessRecord,
  report: ProcessReport,
): Promise<void> {
  await db.insertInto("server_processes")
    .values({
      id: record.processId,
      public_key: record.publicKey,
      proof: record.proof,
      started_at: sql<Date>`now()`,
      seen_at: sql<Date>`now()`,
      url: report.url,
      pid: report.pid,
      host: report.host,
      vault_unlocked: report.vaultUnlocked,
    })
    .onConflict((oc) =>
      oc.column("id").doUpdateSet({
        seen_at: sql<Date>`now()`,
        vault_unlocked: report.vaultUnlocked,
      })
    )
    .execute();
}

/**
 * The heartbeat (with the vault's state as it is now); false when the row is gone (removed as
 * stale: register again).
 */
export async function touchProcess(
  db: Db,
  processId: string,
  vaultUnlocked: boolean,
): Promise<boolean> {
  const result = await db.updateTable("server_processes")
    .set({ seen_at: sql<Date>`now()`, vault_unlocked: vaultUnlocked })
    .where("id", "=", processId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function forgetStaleProcesses(db: Db): Promise<void> {
  await db.deleteFrom("server_processes")
    .where("seen_at", "<", sql<Date>`now() - make_interval(secs => ${FORGET_AFTER_SECONDS})`)
    .execute();
}

export async function unregisterProcess(db: Db, processId: string): Promise<void> {
  await db.deleteFrom("server_processes").where("id", "=", processId).execute();
}

/** The other processes seen within the live window (a handful of rows: no index needed). */
export async function listLiveProcesses(db: Db, exceptId: string): Promise<ProcessRecord[]> {
  return await db.selectFrom("server_processes")
    .select(["id as processId", "public_key as publicKey", "proof"])
    .where("id", "<>", exceptId)
    .where("seen_at", ">", sql<Date>`now() - make_interval(secs => ${LIVE_WINDOW_SECONDS})`)
    .execute();
}

export async function findProcess(db: Db, processId: string): Promise<ProcessRecord | undefined> {
  return await db.selectFrom("server_processes")
    .select(["id as processId", "public_key as publicKey", "proof"])
    .where("id", "=", processId)
    .executeTakeFirst();
}

/** Sends `payload` to every listener of the cluster's channel (delivered at commit). */
export async function notifyCluster(db: Db, payload: string): Promise<void> {
  await sql`SELECT pg_notify(${CLUSTER_CHANNEL}, ${payload})`.execute(db);
}

/**
 * A live server process as people find it (`ops status`, `ops restore`'s refusal): where it
 * runs and listens, since when, and whether its vault is unlocked.
 */
export interface LiveServerProcess {
  url: string | null;
  host: string | null;
  pid: number | null;
  startedAt: Date;
  vaultUnlocked: boolean;
}

/**
 * Every process seen within the live window, oldest first, on a database of any schema
 * version (a restore's target): none when it has no `server_processes` table yet, and no
 * url, host, pid or unlocked vault where the table lacks them (rows or schemas from before
 * they were kept).
 */
export async function listLiveServerProcesses(db: Db): Promise<LiveServerProcess[]> {
  const table = await sql<{ ok: boolean }>`
    SELECT to_regclass('public.server_processes') IS NOT NULL AS ok`.execute(db);
  if (!table.rows[0]?.ok) return [];
  const result = await sql<{ row: Record<string, unknown> }>`
    SELECT to_jsonb(p) AS row FROM server_processes p
    WHERE p.seen_at > now() - make_interval(secs => ${LIVE_WINDOW_SECONDS})
    ORDER BY p.started_at, to_jsonb(p)->>'url'`.execute(db);
  return result.rows.map(({ row }) => ({
    url: typeof row.url === "string" ? row.url : null,
    host: typeof row.host === "string" ? row.host : null,
    pid: typeof row.pid === "number" ? row.pid : null,
    startedAt: new Date(String(row.started_at)),
    vaultUnlocked: row.vault_unlocked === true,
  }));
}
