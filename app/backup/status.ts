/**
 * `ops status` / `GET /v1/status` (API §16): the database engine and size, the schema
 * (migration) version, the vault's state, the last backup (recorded by backup_runs.ts) and the
 * outbox's backlog. On the database directly (`ops status` with DATABASE_URL), also the server
 * processes running on it and their vault, as each reports itself in the registry of live
 * processes (app/platform/cluster.ts).
 */
import { migrationStatus } from "../db/migrate.ts";
import type { AppDeps } from "../deps.ts";
import { listLiveServerProcesses, type LiveServerProcess } from "../platform/cluster_repo.ts";
import { vaultStatus } from "../vault/vault.ts";
import {
  type BackupRunRecord,
  countOutboxBacklog,
  findDatabaseSize,
  findLastBackupRun,
} from "./backup_runs_repo.ts";

export interface ShopStatus {
  engine: "postgres" | "embedded";
  databaseBytes: number;
  schemaVersion: string | null;
  pendingMigrations: number;
  vault: { initialized: boolean; locked: boolean };
  lastBackup: BackupRunRecord | null;
  outbox: { pending: number; failed: number };
  version: string;
}

export async function shopStatus(
  deps: Pick<AppDeps, "db" | "dbKind" | "vaultKeys" | "version">,
): Promise<ShopStatus> {
  const migrations = await migrationStatus(deps.db);
  return {
    engine: deps.dbKind,
    databaseBytes: await findDatabaseSize(deps.db),
    schemaVersion: migrations.filter((m) => m.executedAt !== null).at(-1)?.name ?? null,
    pendingMigrations: migrations.filter((m) => m.executedAt === null).length,
    vault: await vaultStatus(deps),
    lastBackup: (await findLastBackupRun(deps.db)) ?? null,
    outbox: await countOutboxBacklog(deps.db),
    version: deps.version,
  };
}

/** A live server process as it reports itself, its start as an ISO timestamp. */
export type RunningServer = Omit<LiveServerProcess, "startedAt"> & { startedAt: string };

export interface DatabaseStatus extends ShopStatus {
  /** The server processes running on this database (PostgreSQL; none on the embedded one). */
  servers: RunningServer[];
}

/**
 * The status seen from outside every server (`ops status` on the database directly): the vault
 * is unlocked when a live server process says its key is in its memory (this process never
 * holds one).
 */
export async function databaseStatus(
  deps: Pick<AppDeps, "db" | "dbKind" | "vaultKeys" | "version">,
): Promise<DatabaseStatus> {
  const status = await shopStatus(deps);
  const servers = (await listLiveServerProcesses(deps.db)).map((s) => ({
    ...s,
    startedAt: s.startedAt.toISOString(),
  }));
  const unlocked = status.vault.initialized && servers.some((s) => s.vaultUnlocked);
  return { ...status, vault: { ...status.vault, locked: !unlocked }, servers };
}
