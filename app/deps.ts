/**
 * Everything a use case needs, built once at start-up (or per test) and passed explicitly:
 * no container, no globals. Tests swap `clock` and `ids` to make rules deterministic.
 */
import type { Kysely } from "kysely";
import type { AppConfig } from "./config.ts";
import type { Database } from "./db/database.ts";
import { type Clock, type Ids, systemClock, systemIds } from "./ids.ts";
import type { Logger } from "./logger.ts";
import { createTokenSigner, signingSecret, type TokenSigner } from "./auth/tokens.ts";
import { createModuleCache, type ModuleCache } from "./platform/module_cache.ts";
import { type ActorCache, createActorCache } from "./auth/actor_cache.ts";
import { createLocalFileStorage, type FileStorage } from "./files/storage.ts";

export interface AppDeps {
  config: AppConfig;
  db: Kysely<Database>;
  dbKind: "postgres" | "embedded";
  clock: Clock;
  ids: Ids;
  logger: Logger;
  tokens: TokenSigner;
  modules: ModuleCache;
  /** Users' active flags, token versions and permissions (see app/auth/actor_cache.ts). */
  actors: ActorCache;
  /** Bytes of uploaded files (a local directory under FILES_DIR by default). */
  files: FileStorage;
  startedAt: Date;
  version: string;
}

export const APP_VERSION = "0.1.0";

export interface DepsInput {
  config: AppConfig;
  db: Kysely<Database>;
  dbKind: "postgres" | "embedded";
  logger: Logger;
  clock?: Clock;
  ids?: Ids;
  files?: FileStorage;
}

export function createDeps(input: DepsInput): AppDeps {
  const clock = input.clock ?? systemClock;
  if (!input.config.jwtSecret && input.config.env !== "test") {
    input.logger.warn(
      "JWT_SECRET is not set: using a random per-process secret (development only)",
    );
  }
  return {
    config: input.config,
    db: input.db,
    dbKind: input.dbKind,
    clock,
    ids: input.ids ?? systemIds,
    logger: input.logger,
    tokens: createTokenSigner(signingSecret(input.config.jwtSecret)),
    modules: createModuleCache(input.db, clock),
    actors: createActorCache(input.db),
    files: input.files ?? createLocalFileStorage(input.config.filesDir),
    startedAt: clock.now(),
    version: APP_VERSION,
  };
}
