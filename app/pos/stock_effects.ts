/**
 * The stock effect of transaction lines, applied through inventory (which owns products and
 * units): a sale takes stock out (`sign` −1), a void or refund puts it back (+1). What
 * changes is decided by the pure `domain/pos/stock_effects.ts`.
 */
import type { Transaction } from "kysely";
import { assertUnitsStillInStock } from "../../domain/pos/sale_rules.ts";
import {
  stockDeltas,
  type StockLine,
  type StockSign,
  unitIdsOf,
  unitStatusAfter,
} from "../../domain/pos/stock_effects.ts";
import type { Database } from "../db/database.ts";
import { adjustStockOfProducts, setUnitStatus, type UnitChangeBy } from "../inventory/stock.ts";
import { lockUnits } from "../inventory/stock_repo.ts";

/**
 * Applies the stock effect of `lines`: units change status (locked first, in id order; a sale
 * needs them in stock, else 409 unit_unavailable), non-serialized products change
 * `qty_on_hand` (in product id order).
 */
export async function applyStock(
  trx: Transaction<Database>,
  lines: readonly StockLine[],
  sign: StockSign,
  now: Date,
  by?: UnitChangeBy,
): Promise<void> {
  await applyUnitStatuses(trx, lines, sign, now, by);
  await adjustStockOfProducts(trx, stockDeltas(lines, sign), now);
}

/** The unit half of {@link applyStock}: no query when no line has a unit. */
export async function applyUnitStatuses(
  trx: Transaction<Database>,
  lines: ReadonlyArray<Pick<StockLine, "unitId">>,
  sign: StockSign,
  now: Date,
  by?: UnitChangeBy,
): Promise<void> {
  const unitIds = unitIdsOf(lines);
  if (unitIds.length === 0) return;
  const units = await lockUnits(trx, unitIds);
  if (sign < 0) assertUnitsStillInStock(units);
  for (const unitId of unitIds) {
    await setUnitStatus(trx, unitId, unitStatusAfter(sign), now, by);
  }
}
