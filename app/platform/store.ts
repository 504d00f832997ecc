/** Use cases of the store's settings (API §4), and the store's today. */
import { storeLocalDate } from "../../domain/calendar.ts";
import { type Cluster, tellOthersAfterCommit } from "./cluster.ts";
import type { PrintStore } from "../../domain/printing/text_layout.ts";
import type { Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import { findStore, findStoreTimezone, type StoreRecord, updateStore } from "./store_repo.ts";

/** The cluster message that makes every server process drop its cached time zone. */
export const STORE_CHANGED = "store_changed";
const STORE_ZONE_TTL_MS = 3000;

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

/**
 * Today's date in the store's time zone: the date lessons count from and minors are judged
 * on. Through `db` when it is a transaction (read with the rest of it), else the cache.
 */
export async function storeToday(
  deps: Pick<AppDeps, "db" | "clock" | "storeZone">,
  db: Db = deps.db,
): Promise<string> {
  const zone = db === deps.db ? await deps.storeZone.get(db) : await findStoreTimezone(db);
  return storeLocalDate(deps.clock.now(), zone);
}

/** `PATCH /store`: the changed fields; the whole store back. */
export async function updateStoreSettings(
  deps: Pick<AppDeps, "db" | "clock" | "storeZone"> & { cluster: Cluster },
  changes: Partial<Omit<StoreRecord, "updatedAt">>,
): Promise<StoreRecord> {
  await updateStore(deps.db, changes, deps.clock.now());
  deps.storeZone.invalidate();
  await tellOthersAfterCommit(deps.cluster, STORE_CHANGED, STORE_ZONE_TTL_MS);
  return findStore(deps.db);
}

/** The store as the printed forms head it (receipts, claim tags, rental agreements). */
export function printedStore(store: StoreRecord): Required<PrintStore> {
  return { name: store.name, address: store.address, phone: store.phone, email: store.email };
}
