/**
 * A backup on behalf of someone (API §16): `GET /v1/backup` for a signed-in user, `ops backup`
 * on the database directly for the system. A backup reads every domain (every user's password
 * hash, every account, the vault's ciphertext), so its caller must hold every permission (API
 * §3, no privilege beyond one's own; 403 `forbidden`, audited as `backup.denied`). Each one is
 * audited with its actor before its first byte (`backup.downloaded` through the API,
 * `backup.created` by `ops backup`), so no archive leaves unaudited even when its reader stops
 * early; a complete one is recorded for `ops status` and audited as `backup.completed` (tables,
 * rows, files, bytes) under the same entity id.
 */
import { assertHoldsEveryPermission } from "../../domain/auth/privileges.ts";
import type { Manifest } from "../../domain/backup/archive_format.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import { auditingDenials } from "../auth/privileges.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { type BackupProgress, type BackupRun, backupTotals, startBackup } from "./backup.ts";
import { insertBackupRun } from "./backup_runs_repo.ts";

type Deps = Pick<
  AppDeps,
  "db" | "dbKind" | "config" | "clock" | "ids" | "logger" | "version"
>;

/** The audit entity of a backup: its id is the backup run's (`ops status`' last backup). */
const ENTITY_TYPE = "backup";

export interface AuditedBackupRun extends BackupRun {
  /** The audit entries' entity id, and the backup run's once {@link recordBackup} wrote it. */
  id: string;
}

/**
 * Starts a backup for `actor` once it may (every permission) and it is audited as `action`
 * with `location` (where the caller saves it) and the engine.
 */
export async function startAuditedBackup(
  deps: Deps,
  actor: Actor,
  how: { action: "backup.downloaded" | "backup.created"; location: string },
  onProgress?: (progress: BackupProgress) => void,
): Promise<AuditedBackupRun> {
  const id = deps.ids.uuid();
  const details = { location: how.location, engine: deps.dbKind };
  const denied = { action: "backup.denied", entityType: ENTITY_TYPE, entityId: id, details };
  await auditingDenials(deps, actor, denied, async () => {
    assertHoldsEveryPermission(actor.permissions, "A backup");
    await audit(deps, deps.db, actor, {
      action: how.action,
      entityType: ENTITY_TYPE,
      entityId: id,
      details,
    });
  });
  return { id, ...startBackup(deps, onProgress) };
}

/**
 * Records the backup `id` written completely (`location`: where it was saved) and audits it
 * as `backup.completed`, in one transaction.
 */
export async function recordBackup(
  deps: Pick<AppDeps, "db" | "clock" | "ids">,
  actor: Actor,
  id: string,
  manifest: Manifest,
  written: { location: string; bytes: number; seconds: number },
): Promise<void> {
  const run = {
    location: written.location,
    bytes: written.bytes,
    seconds: written.seconds,
    schemaVersion: manifest.migrations.at(-1) ?? "",
    ...backupTotals(manifest),
  };
  await withTransaction(deps.db, async (trx) => {
    await insertBackupRun(trx, id, { ...run, finishedAt: deps.clock.now() });
    await audit(deps, trx, actor, {
      action: "backup.completed",
      entityType: ENTITY_TYPE,
      entityId: id,
      details: run,
    });
  });
}
