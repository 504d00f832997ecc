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
 * Together they are the sale's *discount share* ({@link discountShare}), kept exactly as a
 * fraction. It is judged again whenever the subtotal changes (issue 42): an amount discount
 * of 10 % becomes 100 % when the lines it was taken from are removed. A change of lines
 * needs the approval when it prices a line *further* below its catalogue price than before
 * and that line alone passes the threshold, or when it raises the share beyond both the
 * threshold and the share a manager approved for the sale ({@link lineChangeNeedsApproval});
 * completing the sale asks again when the share is beyond both ({@link shareNeedsApproval}).
 * A percent discount keeps its share whatever the lines; an amount discount's grows as the
 * subtotal shrinks. Lines without a product, consumable lines and lines at or above the price
 * have no reduction.
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
 * The discounts' share of a sale, exactly: `part / whole`, both in cents × basis points.
 * `part` = Σ reductions + the order discount as applied (a percentage of the subtotal before
 * rounding to cents, or an amount capped at the subtotal); `whole` = the subtotal at
 * catalogue prices (subtotal + Σ reductions). A sale worth nothing at catalogue prices has
 * the share 0.
 */
export interface DiscountShare {
  part: bigint;
  whole: bigint;
}

const FULL = BigInt(FULL_PERCENT);

/** No discount at all. */
export const NO_DISCOUNT_SHARE: DiscountShare = { part: 0n, whole: FULL };

/** The share of `lines` with `orderDiscount` (see {@link DiscountShare}). */
export function discountShare(
  lines: readonly CataloguedLine[],
  orderDiscount: OrderDiscount | null,
): DiscountShare {
  const subtotal = BigInt(subtotalOf(lines));
  const reductions = BigInt(sumCents(lines.map(priceReductionCents)));
  if (subtotal + reductions <= 0n) return NO_DISCOUNT_SHARE;
  let order = 0n;
  if (orderDiscount && subtotal > 0n) {
    validateDiscount(orderDiscount);
    const value = BigInt(orderDiscount.value);
    order = orderDiscount.kind === "percent"
      ? value * subtotal
      : (value < subtotal ? value : subtotal) * FULL;
  }
  return { part: reductions * FULL + order, whole: (subtotal + reductions) * FULL };
}

/** `share` is strictly more than `thresholdBasisPoints` (exactly at it is not). */
export function shareExceeds(share: DiscountShare, thresholdBasisPoints: BasisPoints): boolean {
  assertCents(thresholdBasisPoints, "basis points");
  return share.part > 0n && share.part * FULL > BigInt(thresholdBasisPoints) * share.whole;
}

/** `a` is strictly more than `b`. */
export function shareAbove(a: DiscountShare, b: DiscountShare): boolean {
  return a.part * b.whole > b.part * a.whole;
}

/** The share as a percentage, rounded up to basis points (for the audit log): 1 / 3 → 3334. */
export function shareBasisPointsRoundedUp(share: DiscountShare): BasisPoints {
  const scaled = share.part * FULL;
  const bp = scaled / share.whole + (scaled % share.whole === 0n ? 0n : 1n);
  return Number(bp);
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
  return shareExceeds(discountShare(lines, orderDiscount), thresholdBasisPoints);
}

/**
 * Whether a sale whose discount share is `share` needs a manager's approval by size (at
 * completion, API §8): beyond the threshold and beyond the share a manager approved for it
 * (`approved`, null when none did).
 */
export function shareNeedsApproval(
  share: DiscountShare,
  thresholdBasisPoints: BasisPoints,
  approved: DiscountShare | null,
): boolean {
  return shareExceeds(share, thresholdBasisPoints) &&
    (approved === null || shareAbove(share, approved));
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

/** A change of a sale's lines, as the approval rule sees it. */
export interface LineChange {
  /** The lines before the change. */
  before: readonly CataloguedLine[];
  /** The lines after it. */
  after: readonly CataloguedLine[];
  /** Indexes of `after` the change priced further below their catalogue price. */
  raised: readonly number[];
  orderDiscount: OrderDiscount | null;
  /** The share a manager approved for the sale; null when none did. */
  approved: DiscountShare | null;
}

/**
 * Whether a change of lines needs a manager's approval by size: one of the lines it priced
 * further below their catalogue price (see {@link raisedReductions}) passes the threshold
 * alone, or it raised the discount share beyond the threshold and beyond the share approved
 * (`shareNeedsApproval`). A change that lowers the share, or leaves it, never asks for one
 * (completion judges the share as it is).
 */
export function lineChangeNeedsApproval(
  change: LineChange,
  thresholdBasisPoints: BasisPoints,
): boolean {
  if (change.raised.some((i) => lineReductionExceeds(change.after[i]!, thresholdBasisPoints))) {
    return true;
  }
  const after = discountShare(change.after, change.orderDiscount);
  return shareAbove(after, discountShare(change.before, change.orderDiscount)) &&
    shareNeedsApproval(after, thresholdBasisPoints, change.approved);
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
