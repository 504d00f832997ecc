/**
 * The store's time zone, cached per process (its own file: `AppDeps` holds it, and the use cases
 * of the store in store.ts take `AppDeps`).
 */
import type { Db } from "../db/database.ts";
import { findStoreTimezone } from "./store_repo.ts";
import { createTrustedCache } from "./trusted_cache.ts";

/** The cluster message that makes every server process drop its cached time zone. */
export const STORE_CHANGED = "store_changed";
export const STORE_ZONE_TTL_MS = 3000;

/**
 * The store's time zone, read by every list that judges dates by the store's today (rentals,
 * members, lessons), cached per process the way actors are (app/auth/actor_cache.ts): a
 * change through `PATCH /store` drops it here and, acknowledged, on every other server
 * process before it answers; an entry is at most 3 s old and cached only while `trusted()`.
 */
export interface StoreZoneCache {
  get(): Promise<string>;
  invalidate(): void;
}

export function createStoreZoneCache(db: Db, trusted: () => boolean): StoreZoneCache {
  const cache = createTrustedCache(() => findStoreTimezone(db), {
    ttlMs: STORE_ZONE_TTL_MS,
    trusted,
  });
  return { get: () => cache.get(undefined), invalidate: () => cache.invalidate() };
}
