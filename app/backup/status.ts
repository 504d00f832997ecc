/**
 * `ops status` / `GET /v1/status` (API §16): the database engine and size, the schema
 * (migration) version, the vault's state, the last backup (recorded by backup_runs.ts) and the
 * outbox's backlog.
 */
import { migrationStatus } from "../db/migrate.ts";
import type { AppDeps } from "../deps.ts";
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
