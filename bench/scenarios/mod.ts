/**
 * Every bench scenario, in the order they run (HTTP ones, then timed ones after them).
 * Add yours here (a line each).
 */
import type { AnyScenario } from "./_scenario.ts";
import { locationsList } from "./locations_list.ts";
import { productsSearch } from "./products_search.ts";
import { accountsSearch } from "./accounts_search.ts";
import { lessonsGenerate } from "./lessons_generate.ts";
import { posComplete } from "./pos_complete.ts";
import { repairsPaymentQueries, repairsReadyForPickup, repairsSearch } from "./repairs.ts";
import { storageChildren, storageDeepFile } from "./storage_hub.ts";
import { vaultReveal } from "./vault_reveal.ts";
import { counterScan } from "./counter_scan.ts";
import { rentalsBilling, rentalsOverdue, rentalsPastDue, unitTimeline } from "./rentals.ts";

export const SCENARIOS: ReadonlyArray<AnyScenario> = [
  locationsList,
  productsSearch,
  accountsSearch,
  lessonsGenerate,
  posComplete,
  repairsSearch,
  repairsReadyForPickup,
  repairsPaymentQueries,
  storageChildren,
  storageDeepFile,
  vaultReveal,
  rentalsOverdue,
  rentalsPastDue,
  unitTimeline,
  counterScan,
  rentalsBilling,
];
