/**
 * The stock effect of transaction lines (API §8): completing a sale takes stock out, a void
 * or refund puts it back. A line with a unit changes that unit's status (sold / in stock);
 * a line of a product whose stock is counted (every type but serialized: see
 * `receiptIncrementsStock`) changes the product's `qty_on_hand`.
 */
import { type ProductType, receiptIncrementsStock } from "../inventory/products.ts";

/** What the stock effect needs of a line: its product's type, or null without a product. */
export interface StockLine {
  productId: string | null;
  unitId: string | null;
  quantity: number;
  productType: string | null;
}

/** −1 for a sale, +1 for a void or refund. */
export type StockSign = -1 | 1;

/**
 * The non-zero `qty_on_hand` changes that `lines` make, one per product (lines of the same
 * product are summed), in the order products first appear.
 */
export function stockDeltas(
  lines: ReadonlyArray<Pick<StockLine, "productId" | "quantity" | "productType">>,
  sign: StockSign,
): Array<{ productId: string; delta: number }> {
  const deltas = new Map<string, number>();
  for (const line of lines) {
    if (!line.productId || !line.productType) continue;
    if (!receiptIncrementsStock(line.productType as ProductType)) continue;
    deltas.set(line.productId, (deltas.get(line.productId) ?? 0) + sign * line.quantity);
  }
  return [...deltas.entries()].filter(([, delta]) => delta !== 0)
    .map(([productId, delta]) => ({ productId, delta }));
}

/** The distinct units of `lines`, sorted (the order their rows are locked in). */
export function unitIdsOf(lines: ReadonlyArray<Pick<StockLine, "unitId">>): string[] {
  return [...new Set(lines.flatMap((l) => (l.unitId ? [l.unitId] : [])))].sort();
}

/** The status a unit takes: sold by a sale, back in stock by a void or refund. */
export function unitStatusAfter(sign: StockSign): "sold" | "in_stock" {
  return sign < 0 ? "sold" : "in_stock";
}
