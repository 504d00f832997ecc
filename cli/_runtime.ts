/**
 * The runtime of commands that work on the database directly: config → database → deps,
 * closed again when the command is done. A command never creates a database as a side effect
 * (API §16): a missing embedded database or an unmigrated one is one line naming the fix; only
 * `ops migrate up` may create the embedded one. Logs go to stderr (stdout is for data), and
 * only errors unless LOG_LEVEL=debug.
 */
import { type AppConfig, loadShopConfig } from "../app/config.ts";
import { startRuntime } from "../app/bootstrap.ts";
import {
  type DataDirHolder,
  DataDirLockedError,
  findDataDirHolder,
} from "../app/db/data_dir_lock.ts";
import { assertNotMoved } from "../app/db/moved_marker.ts";
import { migrationStatus } from "../app/db/migrate.ts";
import type { AppDeps } from "../app/deps.ts";
import { createLogger } from "../app/logger.ts";
import { postgresLocation } from "../app/db/postgres_client.ts";
import { CliError } from "./_errors.ts";
import { printNote } from "./_output.ts";

export interface RuntimeOptions {
  /** `ops migrate up` only: create the embedded database when there is none yet. */
  create?: boolean;
  /** Refuse a database with pending migrations (default: true). */
  requireMigrated?: boolean;
  /** `ops restore --force` only: open an embedded database the shop moved away from. */
  allowMoved?: boolean;
}

/** Refused because another process (a running server) holds the embedded database. */
export class DatabaseBusyError extends CliError {
  readonly pid: number;
  /** Where the holder listens (a server that announced itself in the lock). */
  readonly url: string | undefined;
  readonly dataDir: string;
  constructor(cause: DataDirLockedError, dataDir: string) {
    const who = cause.url
      ? `pid ${cause.pid}, the server at ${cause.url}`
      : `pid ${cause.pid}, a running server?`;
    super(
      `The embedded database in DATA_DIR "${dataDir}" is in use by another process ` +
        `(${who}): this command works on the database directly, ` +
        "so stop that process first (or run it with DATABASE_URL when the server uses PostgreSQL)",
      { cause },
    );
    this.name = "DatabaseBusyError";
    this.pid = cause.pid;
    this.url = cause.url;
    this.dataDir = dataDir;
  }
}

/** The settings of the server and of `ops`: the environment over `shop.env` (app/config.ts). */
export function cliConfig(): AppConfig {
  return loadShopConfig();
}

/** The running server that holds the embedded database, if one does (none with DATABASE_URL). */
export async function embeddedHolder(
  config: AppConfig = cliConfig(),
): Promise<DataDirHolder | undefined> {
  return config.databaseUrl ? undefined : await findDataDirHolder(config.dataDir);
}

/** Where the embedded database of `config` lives (undefined with DATABASE_URL). */
export function embeddedPath(config: AppConfig): string | undefined {
  return config.databaseUrl ? undefined : `${config.dataDir.replace(/\/+$/, "")}/pgdata`;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Which database a message is about, without a password. */
export function databaseLabel(config: AppConfig): string {
  if (!config.databaseUrl) return `the embedded database in DATA_DIR "${config.dataDir}"`;
  try {
    const url = new URL(config.databaseUrl);
    return `the PostgreSQL database ${url.pathname.slice(1)} at ${
      postgresLocation(config.databaseUrl)
    }`;
  } catch {
    return "the DATABASE_URL database";
  }
}

async function assertMigrated(deps: AppDeps, config: AppConfig): Promise<void> {
  const status = await migrationStatus(deps.db);
  const pending = status.filter((m) => m.executedAt === null).length;
  if (pending === 0) return;
  const what = pending === status.length
    ? "is empty (no migration applied)"
    : `has ${pending} pending migration(s)`;
  const label = databaseLabel(config);
  throw new CliError(
    `${label[0]!.toUpperCase()}${
      label.slice(1)
    } ${what}: run \`ops migrate up\` and then \`ops seed\` ` +
      "(or start the server once, which does both)",
  );
}

/** Opens the runtime, runs `work`, and always closes it (releasing the data-directory lock). */
export async function withRuntime<T>(
  options: RuntimeOptions,
  work: (deps: AppDeps) => Promise<T>,
): Promise<T> {
  const config = cliConfig();
  const pgdata = embeddedPath(config);
  if (pgdata && !options.allowMoved) await assertNotMoved(config.dataDir);
  if (pgdata && !options.create && !(await exists(`${pgdata}/PG_VERSION`))) {
    throw new CliError(
      `There is no database in DATA_DIR "${config.dataDir}" (no ${pgdata}): start the server ` +
        "once (`deno task start`) or run `ops migrate up` and `ops seed`, or set DATA_DIR " +
        "(or DATABASE_URL) to the shop's database",
    );
  }
  const logger = createLogger(
    config.logLevel === "debug" ? "debug" : "error",
    (line) => printNote(line),
  );
  let runtime;
  try {
    runtime = await startRuntime({
      config,
      logger,
      migrate: false,
      allowMoved: options.allowMoved,
    });
  } catch (error) {
    if (error instanceof DataDirLockedError) throw new DatabaseBusyError(error, config.dataDir);
    throw error;
  }
  try {
    if (options.requireMigrated ?? true) await assertMigrated(runtime.deps, config);
    return await work(runtime.deps);
  } finally {
    await runtime.close();
  }
}
