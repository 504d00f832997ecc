/** Use cases of the store's settings (API §4), and the store's today. */
import { storeLocalDate } from "../../domain/calendar.ts";
import type { PrintStore } from "../../domain/printing/text_layout.ts";
import type { Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import { findStore, findStoreTimezone, type StoreRecord, updateStore } from "./store_repo.ts";

/**
 * Today's date in the store's time zone (read through `db`, a transaction when given): the
 * date lessons count from and minors are judged on.
 */
export async function storeToday(
  deps: Pick<AppDeps, "db" | "clock">,
  db: Db = deps.db,
): Promise<string> {
  return storeLocalDate(deps.clock.now(), await findStoreTimezone(db));
}

/** `PATCH /store`: the changed fields; the whole store back. */
export async function updateStoreSettings(
  deps: Pick<AppDeps, "db" | "clock">,
  changes: Partial<Omit<StoreRecord, "updatedAt">>,
): Promise<StoreRecord> {
  await updateStore(deps.db, changes, deps.clock.now());
  return findStore(deps.db);
}

/** The store as the printed forms head it (receipts, claim tags, rental agreements). */
export function printedStore(store: StoreRecord): Required<PrintStore> {
  return { name: store.name, address: store.address, phone: store.phone, email: store.email };
}
