/**
 * Lines priced below the catalogue (API §8): a product line whose unit price is below the
 * product's price is a discount. The difference — (catalogue price − unit price) × quantity,
 * its *reduction* — counts toward `discountApprovalThresholdPercent` like the order discount:
 * - per line: the reduction's share of the line at its catalogue price, i.e. how far below
 *   the price it is sold;
 * - together with the order discount: Σ reductions + the order discount (a percentage of
 *   the subtotal, or an amount capped at it) over the sale's subtotal at catalogue prices
 *   (subtotal + Σ reductions).
 * Either strictly above the threshold needs a manager's approval (when the config asks for
 * one, `manager_override.ts`). Exactly at the threshold needs none, as for order discounts.
 *
 * Only a change that prices a line *further* below its catalogue price than before asks for
 * the approval (a new reduced line, a lower price, a larger quantity of a reduced line): an
 * approved reduction stays approved while other lines change, as an approved order discount
 * does. Lines without a product, consumable lines and lines at or above the price have no
 * reduction.
 */
import {
  assertCents,
  type BasisPoints,
  type Cents,
  exceedsShare,
  FULL_PERCENT,
  sumCents,
} from "../money.ts";
import {
  needsDiscountOverride,
  type OrderDiscount,
  validateDiscount,
} from "./transaction_totals.ts";

/** A line as the catalogue-price rule sees it. */
export interface CataloguedLine {
  /** Positive integer. */
  quantity: number;
  unitPriceCents: Cents;
  /** The product's price; null for a line without a product (or one no longer sold). */
  cataloguePriceCents: Cents | null;
  isConsumable: boolean;
}

/** How far below its catalogue price a line is sold, in cents for the whole quantity (≥ 0). */
export function priceReductionCents(line: CataloguedLine): Cents {
  if (line.isConsumable || line.cataloguePriceCents === null) return 0;
  assertCents(line.cataloguePriceCents, "cataloguePrice");
  assertCents(line.unitPriceCents, "unitPrice");
  const below = line.cataloguePriceCents - line.unitPriceCents;
  if (below <= 0) return 0;
  const reduction = below * line.quantity;
  assertCents(reduction, "reduction");
  return reduction;
}

/** Σ quantity × unit price of the customer-facing lines (as `computeTotals`' subtotal). */
function subtotalOf(lines: readonly CataloguedLine[]): Cents {
  return sumCents(
    lines.flatMap((line) => (line.isConsumable ? [] : [line.quantity * line.unitPriceCents])),
  );
}

/** The line's reduction is more than `thresholdBasisPoints` of the line at catalogue price. */
export function lineReductionExceeds(line: CataloguedLine, thresholdBasisPoints: BasisPoints) {
  const reduction = priceReductionCents(line);
  if (reduction === 0) return false;
  return exceedsShare(reduction, line.cataloguePriceCents! * line.quantity, thresholdBasisPoints);
}

/**
 * The lines' reductions together with the order discount are more than
 * `thresholdBasisPoints` of the subtotal at catalogue prices (subtotal + Σ reductions). Exact:
 * a percent discount counts as its percentage of the subtotal, before rounding to cents, so
 * with no reductions this agrees with `needsDiscountOverride`.
 */
export function discountsTogetherExceed(
  lines: readonly CataloguedLine[],
  orderDiscount: OrderDiscount | null,
  thresholdBasisPoints: BasisPoints,
): boolean {
  assertCents(thresholdBasisPoints, "basis points");
  const subtotal = BigInt(subtotalOf(lines));
  const reductions = BigInt(sumCents(lines.map(priceReductionCents)));
  const full = BigInt(FULL_PERCENT);
  // Everything in cents × basis points: reductions × 100 %, the order discount as applied.
  let order = 0n;
  if (orderDiscount && subtotal > 0n) {
    validateDiscount(orderDiscount);
    const value = BigInt(orderDiscount.value);
    order = orderDiscount.kind === "percent"
      ? value * subtotal
      : (value < subtotal ? value : subtotal) * full;
  }
  const part = reductions * full + order;
  if (part <= 0n) return false;
  return part > BigInt(thresholdBasisPoints) * (subtotal + reductions);
}

/**
 * Indexes of the lines of `after` priced further below their catalogue price than the line at
 * the same index of `before` (a missing one: a new line).
 */
export function raisedReductions(
  before: readonly (CataloguedLine | undefined)[],
  after: readonly CataloguedLine[],
): number[] {
  return after.flatMap((line, i) => {
    const earlier = before[i];
    const was = earlier ? priceReductionCents(earlier) : 0;
    return priceReductionCents(line) > was ? [i] : [];
  });
}

/**
 * Whether a change of lines needs a manager's approval by size: it raised the reduction of
 * the lines `raised` (see {@link raisedReductions}) and one of them alone, or all reductions
 * with the order discount, exceed the threshold.
 */
export function reductionsNeedApproval(
  lines: readonly CataloguedLine[],
  raised: readonly number[],
  orderDiscount: OrderDiscount | null,
  thresholdBasisPoints: BasisPoints,
): boolean {
  if (raised.length === 0) return false;
  return raised.some((i) => lineReductionExceeds(lines[i]!, thresholdBasisPoints)) ||
    discountsTogetherExceed(lines, orderDiscount, thresholdBasisPoints);
}

/**
 * Whether setting `orderDiscount` needs a manager's approval by size, the lines' reductions
 * counted with it (API §8): never for no discount (value 0); else when the discount's own
 * share of the subtotal (`needsDiscountOverride`), or the discounts together, exceed the
 * threshold.
 */
export function orderDiscountNeedsApproval(
  lines: readonly CataloguedLine[],
  orderDiscount: OrderDiscount,
  thresholdBasisPoints: BasisPoints,
): boolean {
  if (orderDiscount.value === 0) return false;
  return needsDiscountOverride(orderDiscount, subtotalOf(lines), thresholdBasisPoints) ||
    discountsTogetherExceed(lines, orderDiscount, thresholdBasisPoints);
}
