/**
 * Start-up shared by the server and the CLI: config → database → (migrations + seeds) → deps.
 */
import { type AppConfig, loadConfig } from "./config.ts";
import { type DatabaseHandle, openDatabase } from "./db/connect.ts";
import { migrateToLatest } from "./db/migrate.ts";
import type { AppDeps } from "./deps.ts";
import { createDeps } from "./create_deps.ts";
import { createLogger, type Logger } from "./logger.ts";
import { runSeeds } from "./seed.ts";

export interface Runtime {
  deps: AppDeps;
  close(): Promise<void>;
  /** LISTEN on the database (PostgreSQL only), for cross-process cache invalidation. */
  listen?: DatabaseHandle["listen"];
}

export async function startRuntime(
  options: { config?: AppConfig; logger?: Logger; migrate?: boolean } = {},
): Promise<Runtime> {
  const config = options.config ?? loadConfig(Deno.env.toObject());
  const logger = options.logger ?? createLogger(config.logLevel);
  const handle = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.dbPoolSize,
    statementTimeoutMs: config.dbStatementTimeoutMs,
  });
  try {
    if (options.migrate ?? config.migrateOnStart) {
      const applied = await migrateToLatest(handle.db);
      if (applied.length > 0) logger.info("migrations applied", { migrations: applied });
      await runSeeds(handle.db);
    }
  } catch (error) {
    await handle.close();
    throw error;
  }
  const deps = createDeps({ config, db: handle.db, dbKind: handle.kind, logger });
  return { deps, close: () => handle.close(), listen: handle.listen?.bind(handle) };
}
