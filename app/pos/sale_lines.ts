/**
 * New lines of a sale: their products and units are read from inventory (two queries
 * whatever the number of lines) and checked and filled in by the pure sale rules
 * (`domain/pos/sale_rules.ts`); then they become item rows with their computed amounts.
 */
import type { TransactionTotals } from "../../domain/pos/transaction_totals.ts";
import {
  type LinePath,
  productIdsOfLines,
  resolveSaleLines,
  type SaleLine,
  type SaleLineInput,
} from "../../domain/pos/sale_rules.ts";
import type { Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import { findProductsForSale, findUnitsForSale } from "../inventory/stock_repo.ts";
import type { NewItem } from "./items_repo.ts";
import { lineAmounts } from "./pricing.ts";

/**
 * Checks references and sellability of new lines and applies product defaults: consumable
 * or inactive products → 400 `not_sellable`, a unit that is not in stock → 409
 * `unit_unavailable`.
 */
export async function resolveLines(
  trx: Db,
  inputs: readonly SaleLineInput[],
  pathOf: LinePath,
): Promise<SaleLine[]> {
  const unitIds = [...new Set(inputs.flatMap((i) => (i.unitId ? [i.unitId] : [])))];
  const units = new Map((await findUnitsForSale(trx, unitIds)).map((u) => [u.id, u]));
  const productIds = productIdsOfLines(inputs, units, pathOf);
  const products = new Map((await findProductsForSale(trx, productIds)).map((p) => [p.id, p]));
  return resolveSaleLines(inputs, units, products, pathOf);
}

/**
 * Item rows of `lines` for transaction `transactionId`; their amounts are those of
 * `totals.lines[offset + i]`. Line i is created at `now + i` ms, so the order of lines
 * stays stable within one request.
 */
export function newItemRows(
  deps: Pick<AppDeps, "ids">,
  transactionId: string,
  lines: readonly SaleLine[],
  totals: TransactionTotals,
  offset: number,
  now: Date,
): NewItem[] {
  return lines.map((line, i) => ({
    id: deps.ids.uuid(),
    transactionId,
    kind: line.kind,
    productId: line.productId,
    unitId: line.unitId,
    description: line.description,
    quantity: line.quantity,
    unitPrice: line.unitPrice,
    taxCategory: line.taxCategory,
    isConsumable: line.isConsumable,
    ...lineAmounts(totals, offset + i),
    createdAt: new Date(now.getTime() + i),
  }));
}
