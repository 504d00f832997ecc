/** Use cases of the inventory lookup tables (unit statuses, item conditions) and their seed. */
import { ConflictError } from "../../domain/errors.ts";
import {
  BUILT_IN_ITEM_CONDITIONS,
  BUILT_IN_UNIT_STATUSES,
} from "../../domain/inventory/lookups.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { isUniqueViolation } from "../db/db_errors.ts";
import { uuidv7 } from "../ids.ts";
import { deleteLookupRow } from "../lookups.ts";
import {
  deleteLookup,
  findLookup,
  insertLookup,
  type LookupRecord,
  type LookupTableName,
  seedLookupValues,
} from "./lookups_repo.ts";

const LOOKUP_LABELS: Record<LookupTableName, string> = {
  unit_statuses: "unit status",
  item_conditions: "item condition",
};

export async function createLookupValue(
  deps: AppDeps,
  table: LookupTableName,
  input: { value: string; label: string },
): Promise<LookupRecord> {
  try {
    return await insertLookup(deps.db, table, {
      id: deps.ids.uuid(),
      value: input.value,
      label: input.label,
      isBuiltIn: false,
      now: deps.clock.now(),
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ConflictError(
        "duplicate",
        `The ${LOOKUP_LABELS[table]} "${input.value}" already exists`,
      );
    }
    throw error;
  }
}

/**
 * Built-ins → 409 built_in. A value still used by a unit → 409 in_use: the units' foreign
 * key (ON DELETE RESTRICT) refuses the delete, so a unit created concurrently either makes
 * the delete fail or fails itself (400 invalid_reference) — never a dangling value.
 */
export async function deleteLookupValue(
  deps: AppDeps,
  table: LookupTableName,
  id: string,
): Promise<void> {
  await deleteLookupRow(deps.db, {
    label: LOOKUP_LABELS[table],
    usedBy: "units",
    find: (db, rowId) => findLookup(db, table, rowId),
    remove: (db, rowId) => deleteLookup(db, table, rowId),
  }, id);
}

/** Idempotent: inserts the built-in values that are missing, leaves the rest alone. */
export async function seedInventoryLookups(db: Db): Promise<void> {
  // Fixed creation times keep the built-ins in their documented order.
  const base = Date.UTC(2000, 0, 1);
  await seedLookupValues(
    db,
    "unit_statuses",
    BUILT_IN_UNIT_STATUSES.map((row, i) => ({
      ...row,
      id: uuidv7(base + i),
      createdAt: new Date(base + i),
    })),
  );
  await seedLookupValues(
    db,
    "item_conditions",
    BUILT_IN_ITEM_CONDITIONS.map((row, i) => ({
      ...row,
      id: uuidv7(base + i),
      createdAt: new Date(base + i),
    })),
  );
}
