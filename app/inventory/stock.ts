/**
 * Stock primitives for other features (POS sales, voids, refunds, adjustments). Both run
 * inside the caller's transaction.
 */
import { NotFoundError } from "../../domain/errors.ts";
import type { Db } from "../db/database.ts";
import { incrementStock, type UnitRecord, updateUnit } from "./inventory_repo.ts";
import { assertUnitLookups } from "./units.ts";

/**
 * Atomically adds `delta` (negative to decrement) to the product's `qtyOnHand` with
 * `qty_on_hand = qty_on_hand + delta`: concurrent calls never lose an update. The count may
 * go below zero (API §8: a sale is never blocked by a wrong count). Returns the new count.
 */
export async function adjustStock(
  trx: Db,
  productId: string,
  delta: number,
  now = new Date(),
): Promise<number> {
  if (!Number.isInteger(delta)) throw new Error(`Stock delta must be an integer: ${delta}`);
  const qty = await incrementStock(trx, productId, delta, now);
  if (qty === undefined) throw new NotFoundError(`Product "${productId}" does not exist`);
  return qty;
}

/** Sets a unit's status (validated against the unit-status lookup: 400 invalid_reference). */
export async function setUnitStatus(
  trx: Db,
  unitId: string,
  status: string,
  now = new Date(),
): Promise<UnitRecord> {
  await assertUnitLookups(trx, { status });
  const unit = await updateUnit(trx, unitId, { status }, now);
  if (!unit) throw new NotFoundError(`Unit "${unitId}" does not exist`);
  return unit;
}
