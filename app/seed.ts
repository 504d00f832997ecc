/**
 * All idempotent seeds in order. A feature with reference data (lookups, ...) adds its seed
 * function to `SEEDS`; every seed must be safe to run on every start-up.
 */
import type { Db } from "./db/database.ts";
import { seedPlatform } from "./platform/seed.ts";
import { seedSystemRoles } from "./auth/seed.ts";
import { seedInventoryLookups } from "./inventory/lookups.ts";
import { seedIdTypes } from "./accounts/id_types.ts";

const SEEDS: ReadonlyArray<(db: Db) => Promise<void>> = [
  seedPlatform,
  seedSystemRoles,
  seedInventoryLookups,
  seedIdTypes,
];

export async function runSeeds(db: Db): Promise<void> {
  for (const seed of SEEDS) await seed(db);
}
