/** Use cases of the store's settings (API §4), and the store's today. */
import { storeLocalDate } from "../../domain/calendar.ts";
import { storeSetupGaps } from "../../domain/platform/store_setup.ts";
import { type Cluster, tellOthersAfterCommit } from "./cluster.ts";
import { STORE_CHANGED, STORE_ZONE_TTL_MS } from "./store_zone.ts";
import type { PrintStore } from "../../domain/printing/text_layout.ts";
import type { Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import { hasAnyLocation } from "./locations_repo.ts";
import { findStore, findStoreTimezone, type StoreRecord, updateStore } from "./store_repo.ts";

/**
 * Today's date in the store's time zone: the date lessons count from and minors are judged
 * on. Through `db` when it is a transaction (read with the rest of it), else the cache.
 */
export async function storeToday(
  deps: Pick<AppDeps, "db" | "clock" | "storeZone">,
  db: Db = deps.db,
): Promise<string> {
  const zone = db === deps.db ? await deps.storeZone.get() : await findStoreTimezone(db);
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

/**
 * What the shop still lacks before its first day (`ops setup` fills it in), in words; empty
 * once it is set up. The server names `ops setup` at start-up while this is not empty.
 */
export async function findStoreSetupGaps(db: Db): Promise<string[]> {
  const store = await findStore(db);
  return storeSetupGaps({ storeName: store.name, hasLocation: await hasAnyLocation(db) });
}

/** The store as the printed forms head it (receipts, claim tags, rental agreements). */
export function printedStore(store: StoreRecord): Required<PrintStore> {
  return { name: store.name, address: store.address, phone: store.phone, email: store.email };
}
