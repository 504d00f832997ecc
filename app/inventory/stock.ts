/**
 * Stock use cases for other features (POS sales, voids and refunds; stock receipts). All run
 * inside the caller's transaction and take `now` from the caller (its `deps.clock`). The SQL
 * and the lock strengths are in `stock_repo.ts`.
 */
import type { Transaction } from "kysely";
import { NotFoundError } from "../../domain/errors.ts";
import type { Database } from "../db/database.ts";
import { type UnitChangeBy, type UnitRecord, updateUnit } from "./units_repo.ts";
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

export type { UnitChangeBy } from "./units_repo.ts";

/**
 * Sets a unit's status (validated against the unit-status lookup: 400 invalid_reference);
 * `by` (who, and through what) goes to the unit's history.
 */
export async function setUnitStatus(
  trx: Transaction<Database>,
  unitId: string,
  status: string,
  now: Date,
  by?: UnitChangeBy,
): Promise<UnitRecord> {
  return await setUnitState(trx, unitId, { status }, now, by);
}

/** {@link setUnitStatus} that may also change the unit's condition (item-conditions lookup). */
export async function setUnitState(
  trx: Transaction<Database>,
  unitId: string,
  state: { status: string; condition?: string },
  now: Date,
  by?: UnitChangeBy,
): Promise<UnitRecord> {
  await assertUnitLookups(trx, state);
  const unit = await updateUnit(trx, unitId, state, now, by);
  if (!unit) throw new NotFoundError("not_found", `Unit "${unitId}" does not exist`);
  return unit;
}

/**
 * Takes an in-stock unit of `productId` into `status` (a rental takes it as `rented`), in one
 * statement: false when the unit is missing, of another product or not in stock (a
 * concurrent caller got it first). The history row names `by`.
 */
export async function takeUnitFromStock(
  trx: Transaction<Database>,
  unitId: string,
  productId: string,
  status: string,
  now: Date,
  by: UnitChangeBy,
): Promise<boolean> {
  await assertUnitLookups(trx, { status });
  const unit = await updateUnit(trx, unitId, { status }, now, by, {
    status: "in_stock",
    productId,
  });
  return unit !== undefined;
}
