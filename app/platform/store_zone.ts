/**
 * The store's time zone, cached per process (its own file: `AppDeps` holds it, and the use cases
 * of the store in store.ts take `AppDeps`).
 */
import type { Db } from "../db/database.ts";
import { findStoreTimezone } from "./store_repo.ts";

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
  get(db: Db): Promise<string>;
  invalidate(): void;
}

export function createStoreZoneCache(trusted: () => boolean): StoreZoneCache {
  let cached: { zone: string; loadedAt: number } | undefined;
  let generation = 0;
  return {
    async get(db) {
      if (!trusted()) return await findStoreTimezone(db);
      if (cached && performance.now() - cached.loadedAt < STORE_ZONE_TTL_MS) return cached.zone;
      const started = { generation, at: performance.now() };
      const zone = await findStoreTimezone(db);
      // A change that landed while this read was under way may not be in it: not kept.
      if (started.generation === generation) cached = { zone, loadedAt: started.at };
      return zone;
    },
    invalidate() {
      generation++;
      cached = undefined;
    },
  };
}
