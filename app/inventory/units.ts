/** Use cases of units (serialized and rental products), validated against the lookups. */
import type { Transaction } from "kysely";
import { InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import { assertCarriesUnits } from "../../domain/inventory/products.ts";
import type { AppDeps } from "../deps.ts";
import type { Database, Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import { lockLookupValue } from "./lookups_repo.ts";
import { lockProduct } from "./products_repo.ts";
import { requireProduct } from "./products.ts";
import type { Actor } from "../actor.ts";
import { findUnit, insertUnit, softDeleteUnit, type UnitRecord, updateUnit } from "./units_repo.ts";

function unitNotFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Unit "${id}" does not exist`);
}

/**
 * Unknown status/condition → 400 invalid_reference (the foreign keys back this up); the
 * values stay locked until commit, so they cannot be deleted under the unit.
 */
export async function assertUnitLookups(
  trx: Transaction<Database>,
  values: { status?: string; condition?: string },
): Promise<void> {
  if (
    values.status !== undefined && !(await lockLookupValue(trx, "unit_statuses", values.status))
  ) {
    throw new InvalidReferenceError("status", `Unknown unit status "${values.status}"`);
  }
  if (
    values.condition !== undefined &&
    !(await lockLookupValue(trx, "item_conditions", values.condition))
  ) {
    throw new InvalidReferenceError("condition", `Unknown item condition "${values.condition}"`);
  }
}

/** The live unit or 404. */
export async function requireUnit(db: Db, id: string): Promise<UnitRecord> {
  const unit = await findUnit(db, id);
  if (!unit) throw unitNotFound(id);
  return unit;
}

/** Only serialized and rental products have units (else 409 invalid_product_type). */
export async function createUnit(
  deps: AppDeps,
  productId: string,
  input: { serialNumber?: string | null; status: string; condition: string; notes?: string | null },
  actor?: Actor,
): Promise<UnitRecord> {
  return await withTransaction(deps.db, async (trx) => {
    const product = await requireProduct(trx, productId, lockProduct);
    assertCarriesUnits(productId, product.type);
    await assertUnitLookups(trx, input);
    return insertUnit(trx, {
      id: deps.ids.uuid(),
      productId,
      serialNumber: input.serialNumber ?? null,
      status: input.status,
      condition: input.condition,
      notes: input.notes ?? null,
      now: deps.clock.now(),
    }, { actorId: actor?.userId ?? null, source: "unit" });
  });
}

export async function changeUnit(
  deps: AppDeps,
  id: string,
  input: {
    serialNumber?: string | null;
    status?: string;
    condition?: string;
    notes?: string | null;
  },
  actor?: Actor,
): Promise<UnitRecord> {
  return await withTransaction(deps.db, async (trx) => {
    await assertUnitLookups(trx, input);
    const unit = await updateUnit(trx, id, input, deps.clock.now(), {
      actorId: actor?.userId ?? null,
      source: "unit",
    });
    if (!unit) throw unitNotFound(id);
    return unit;
  });
}

export async function removeUnit(deps: AppDeps, id: string): Promise<void> {
  if (!(await softDeleteUnit(deps.db, id, deps.clock.now()))) throw unitNotFound(id);
}
