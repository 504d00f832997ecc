/**
 * The effective runtime configuration (API §4): the stored values merged over the defaults,
 * read from its row or from a per-process cache kept the way the store's time zone is
 * (store_zone.ts): `PATCH /config` drops it here and, acknowledged, on every other server
 * process before it answers (settings.ts); an entry is at most 3 s old and cached only while
 * `trusted()`. A read inside a transaction reads the row, with the rest of the transaction.
 */
import type { Db } from "../db/database.ts";
import { configSchema, DEFAULT_CONFIG, type RuntimeConfig } from "./platform_schemas.ts";
import { findStoredConfig } from "./settings_repo.ts";
import { createTrustedCache } from "./trusted_cache.ts";

/** The cluster message that makes every server process drop its cached runtime config. */
export const CONFIG_CHANGED = "config_changed";
export const CONFIG_CACHE_TTL_MS = 3000;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Merges `patch` into `base`: nested objects merge key by key, everything else replaces. */
export function mergeDeep(
  base: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    result[key] = isPlainObject(value) && isPlainObject(base[key])
      ? mergeDeep(base[key], value)
      : value;
  }
  return result;
}

/** The effective runtime config, read from its row through `db`. */
export async function getRuntimeConfig(db: Db): Promise<RuntimeConfig> {
  const stored = await findStoredConfig(db);
  const merged = mergeDeep(DEFAULT_CONFIG as unknown as Record<string, unknown>, stored);
  const parsed = configSchema.safeParse(merged);
  return parsed.success ? parsed.data : DEFAULT_CONFIG;
}

/** The runtime config, cached per process (shared: callers never change it). */
export interface RuntimeConfigCache {
  get(): Promise<RuntimeConfig>;
  invalidate(): void;
}

export function createRuntimeConfigCache(db: Db, trusted: () => boolean): RuntimeConfigCache {
  const cache = createTrustedCache(() => getRuntimeConfig(db), {
    ttlMs: CONFIG_CACHE_TTL_MS,
    trusted,
  });
  return { get: () => cache.get(undefined), invalidate: () => cache.invalidate() };
}

/**
 * The runtime config for a use case: from the cache, or through `db` when it is a
 * transaction (read with the rest of it).
 */
export async function currentConfig(
  deps: { db: Db; runtimeConfig: RuntimeConfigCache },
  db: Db = deps.db,
): Promise<RuntimeConfig> {
  return db === deps.db ? await deps.runtimeConfig.get() : await getRuntimeConfig(db);
}
