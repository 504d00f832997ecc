/**
 * The runtime of commands that work on the database directly: config → database (→ pending
 * migrations and seeds when asked) → deps, closed again when the command is done. Logs go to
 * stderr (stdout is for data), and only errors unless LOG_LEVEL=debug.
 */
import { type AppConfig, loadConfig } from "../app/config.ts";
import { startRuntime } from "../app/bootstrap.ts";
import { DataDirLockedError } from "../app/db/data_dir_lock.ts";
import type { AppDeps } from "../app/deps.ts";
import { createLogger } from "../app/logger.ts";

export interface RuntimeOptions {
  /** Apply pending migrations and seeds first (default: false). */
  migrate?: boolean;
  /** What to do instead when a server holds the embedded database (e.g. "use --server URL"). */
  whenLocked?: string;
}

/** Refused because a running server holds the embedded database (exit 1, message names fixes). */
export class DatabaseBusyError extends Error {
  constructor(cause: DataDirLockedError, whenLocked?: string) {
    const fixes = [
      "stop the server (it releases the directory on exit)",
      "or run the command with DATABASE_URL when the server uses PostgreSQL",
      ...(whenLocked ? [`or ${whenLocked}`] : []),
    ];
    super(`${cause.message}\nThis command opens the database directly: ${fixes.join(", ")}.`);
    this.name = "DatabaseBusyError";
  }
}

export function cliConfig(): AppConfig {
  return loadConfig(Deno.env.toObject());
}

/** Opens the runtime, runs `work`, and always closes it (releasing the data-directory lock). */
export async function withRuntime<T>(
  options: RuntimeOptions,
  work: (deps: AppDeps) => Promise<T>,
): Promise<T> {
  const config = cliConfig();
  const logger = createLogger(
    config.logLevel === "debug" ? "debug" : "error",
    (line) => console.error(line),
  );
  let runtime;
  try {
    runtime = await startRuntime({ config, logger, migrate: options.migrate ?? false });
  } catch (error) {
    if (error instanceof DataDirLockedError) throw new DatabaseBusyError(error, options.whenLocked);
    throw error;
  }
  try {
    return await work(runtime.deps);
  } finally {
    await runtime.close();
  }
}
