/**
 * Stock use cases for other features (POS sales, voids and refunds; stock receipts). All run
 * inside the caller's transaction and take `now` from the caller (its `deps.clock`). The SQL
 * and the lock strengths are in `stock_repo.ts`.
 */
import type { Transaction } from "kysely";
import { NotFoundError } from "../../domain/errors.ts";
import type { Database } from "../db/database.ts";
import { type UnitRecord, updateUnit } from "./units_repo.ts";
import { applyStockDeltas, type StockDelta } from "./stock_repo.ts";
import { assertUnitLookups } from "./units.ts";

/**
 * The stock update as common table expressions, for a feature that must change stock within
 * one of its own statements (the POS completes a sale in one round trip): see
 * `stockDeltaCte` in `stock_repo.ts`, whose SQL stays inventory's.
 */
export { type StockDelta, stockDeltaCte } from "./stock_repo.ts";

/**
 * Atomically adds `delta` (negative to decrement) to the product's `qtyOnHand` with
 * `qty_on_hand = qty_on_hand + delta`: concurrent calls never lose an update. The count may
 * go below zero (API §8: a sale is never blocked by a wrong count). Returns the new count.
 */
export async function adjustStock(
  trx: Transaction<Database>,
  productId: string,
  delta: number,
  now: Date,
): Promise<number> {
  if (!Number.isInteger(delta)) throw new Error(`Stock delta must be an integer: ${delta}`);
  const qty = (await applyStockDeltas(trx, [{ productId, delta }], now)).get(productId);
  if (qty === undefined) {
    throw new NotFoundError("not_found", `Product "${productId}" does not exist`);
  }
  return qty;
}

/** {@link adjustStock} for several products in one statement (products missing are skipped). */
export async function adjustStockOfProducts(
  trx: Transaction<Database>,
  deltas: readonly StockDelta[],
  now: Date,
): Promise<void> {
  await applyStockDeltas(trx, deltas, now);
}

/** Sets a unit's status (validated against the unit-status lookup: 400 invalid_reference). */
export async function setUnitStatus(
  trx: Transaction<Database>,
  unitId: string,
  status: string,
  now: Date,
): Promise<UnitRecord> {
  await assertUnitLookups(trx, { status });
  const unit = await updateUnit(trx, unitId, { status }, now);
  if (!unit) throw new NotFoundError("not_found", `Unit "${unitId}" does not exist`);
  return unit;
}
