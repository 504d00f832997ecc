/**
 * `ops restore --move` (README "Moving to PostgreSQL"): after the archive is in the target,
 * the target becomes the shop's database for the server and every `ops` command.
 *
 * - The settings file (`shop.env`, app/config.ts) gets the location variables the restore was
 *   given in the environment (`DATABASE_URL`, `DATA_DIR`, `FILES_DIR`; directories made
 *   absolute; one set empty is removed), so later runs without them open what the restore
 *   filled.
 * - The embedded data directory the shop leaves gets `MOVED` (app/db/moved_marker.ts): the
 *   old copy stays, but nothing opens it again by mistake. Moving into an embedded directory,
 *   its own marker (from an earlier move away) is removed.
 *
 * A move away from an embedded database a running server holds is refused before anything is
 * restored: sales made on that server after the backup would be left behind.
 */
import { resolve } from "node:path";
import { type AppConfig, loadConfig, settingsFilePath, shopEnvironment } from "../../app/config.ts";
import { redactDatabaseUrl } from "../../app/bootstrap.ts";
import { findDataDirHolder } from "../../app/db/data_dir_lock.ts";
import { removeMovedMarker, writeMovedMarker } from "../../app/db/moved_marker.ts";
import { updateSettingsFile } from "../../app/settings_file.ts";
import { CliError } from "../_errors.ts";

const LOCATION = ["DATABASE_URL", "DATA_DIR", "FILES_DIR"] as const;

export interface MovePlan {
  /** The settings file to write and what changes in it. */
  settingsFile: string;
  changes: Record<string, string | undefined>;
  /** The embedded data directory left behind (to mark), if any. */
  leaving: string | undefined;
  /** Where the shop goes, for the marker and the messages (no password). */
  to: string;
}

async function hasEmbeddedDatabase(dataDir: string): Promise<boolean> {
  return await Deno.stat(`${dataDir.replace(/\/+$/, "")}/pgdata/PG_VERSION`).then(
    () => true,
    () => false,
  );
}

/**
 * What `--move` will do for `target` (the restore's configuration); refuses (nothing changed)
 * when the embedded database it leaves is held by a running server.
 */
export async function planMove(
  target: AppConfig,
  processEnv: Record<string, string | undefined> = Deno.env.toObject(),
): Promise<MovePlan> {
  const changes: Record<string, string | undefined> = {};
  for (const name of LOCATION) {
    if (!(name in processEnv)) continue;
    const value = processEnv[name] || undefined;
    changes[name] = value && name !== "DATABASE_URL" ? resolve(value) : value;
  }
  // The shop's location before this move: what the settings say without the restore's own.
  const without = Object.fromEntries(
    Object.entries(processEnv).filter(([name]) => !(LOCATION as readonly string[]).includes(name)),
  );
  const before = loadConfig(shopEnvironment(without));
  const leavingDir = target.databaseUrl
    ? target.dataDir
    : before.databaseUrl
    ? undefined
    : before.dataDir;
  const leaving = leavingDir &&
      (target.databaseUrl || resolve(leavingDir) !== resolve(target.dataDir)) &&
      await hasEmbeddedDatabase(leavingDir)
    ? leavingDir
    : undefined;
  if (leaving) {
    const holder = await findDataDirHolder(leaving);
    if (holder) {
      throw new CliError(
        `The embedded database in DATA_DIR "${leaving}" is held by a running server (pid ` +
          `${holder.pid}${holder.url ? `, ${holder.url}` : ""}): stop it first, then back up ` +
          "again and restore with --move, so no sale made after the backup is left behind",
      );
    }
  }
  return {
    settingsFile: settingsFilePath(processEnv),
    changes,
    leaving,
    to: target.databaseUrl ? redactDatabaseUrl(target.databaseUrl) : resolve(target.dataDir),
  };
}

/** Carries the plan out once the restore has committed; the lines to tell the user. */
export async function completeMove(
  plan: MovePlan,
  target: AppConfig,
  at: Date,
): Promise<string[]> {
  const notes: string[] = [];
  const written = Object.keys(plan.changes);
  if (written.length > 0) {
    await updateSettingsFile(
      plan.settingsFile,
      plan.changes,
      "# The shop's settings, read by `deno task start` and `deno task ops` (README: Configuration)",
    );
    notes.push(
      `${plan.settingsFile} now sets ${
        written.filter((n) => plan.changes[n] !== undefined).join(", ") || "no location"
      }${
        written.some((n) => plan.changes[n] === undefined)
          ? ` (removed: ${written.filter((n) => plan.changes[n] === undefined).join(", ")})`
          : ""
      }: the server and ops use ${plan.to} from now on.`,
    );
  }
  if (!target.databaseUrl) await removeMovedMarker(target.dataDir);
  if (plan.leaving) {
    await writeMovedMarker(plan.leaving, {
      to: plan.to,
      filesDir: resolve(target.filesDir),
      at: at.toISOString(),
    });
    notes.push(
      `The old copy in DATA_DIR "${plan.leaving}" stays as it was; its MOVED file keeps the ` +
        "server and ops from opening it.",
    );
  }
  return notes;
}
