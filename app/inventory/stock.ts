/**
 * Stock use cases for other features (POS sales, voids and refunds; stock receipts; repair
 * parts). All run inside the caller's transaction and take `now` from the caller (its
 * `deps.clock`). The SQL and the lock strengths are in `stock_repo.ts`.
 */
import type { Transaction } from "kysely";
import { NotFoundError } from "../../domain/errors.ts";
import { carriesUnits } from "../../domain/inventory/products.ts";
import type { Database } from "../db/database.ts";
import { type UnitChangeBy, type UnitRecord, updateUnit } from "./units_repo.ts";
import { applyStockDeltas, findProductTypes, type StockDelta } from "./stock_repo.ts";
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

/** Why repair parts move: the ticket whose lines changed, and who changed them. */
export interface RepairPartCause {
  repairTicketId: string;
  actorId: string | null;
}

/**
 * Repair parts (API §22 "Repair parts", kind `repair_part`): the stock a repair ticket's lines
 * take (negative `delta`) or give back (positive), applied atomically in the caller's
 * transaction (the ticket's), in product id order like every stock update (may go below
 * zero: a repair is never blocked by a wrong count). Products tracked unit by unit
 * (serialized, rental) are left alone: their units are not taken this way. The one place
 * stock changes for this cause: its stock movement (ref `{ repairTicketId }`, by `actorId`)
 * belongs here.
 */
export async function moveRepairPartStock(
  trx: Transaction<Database>,
  cause: RepairPartCause,
  deltas: readonly StockDelta[],
  now: Date,
): Promise<void> {
  const moving = deltas.filter((d) => d.delta !== 0);
  if (moving.length === 0) return;
  for (const { delta } of moving) {
    if (!Number.isInteger(delta)) {
      throw new Error(`Repair part stock delta must be an integer (${cause.repairTicketId})`);
    }
  }
  const types = await findProductTypes(trx, [...new Set(moving.map((d) => d.productId))]);
  const counted = moving.filter((d) => {
    const type = types.get(d.productId);
    return type !== undefined && !carriesUnits(type);
  });
  await applyStockDeltas(trx, counted, now);
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
