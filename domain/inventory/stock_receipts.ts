/** Stock receipt rules (pure). Money in integer cents. */
import { assertCents, type Cents } from "../money.ts";

/** What a delivery cost: the unit cost times the quantity received. */
export function receiptTotalCost(costPerUnit: Cents, quantity: number): Cents {
  assertCents(costPerUnit, "costPerUnit");
  if (!Number.isSafeInteger(quantity) || quantity < 0) {
    throw new RangeError(`quantity must be a non-negative integer, got ${quantity}`);
  }
  const total = costPerUnit * quantity;
  assertCents(total, "totalCost");
  return total;
}
