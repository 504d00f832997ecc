/**
 * Partial refunds (API §8 `POST /transactions/:id/refunds`).
 *
 * A refund gives back, per refunded unit, a pro-rata share of the line's **net** (after the
 * order discount) and **tax** as computed at sale. To avoid cent drift the shares are taken
 * from a cumulative schedule rather than a per-unit price:
 *
 *   refundable(n) = round(amount × n ÷ quantitySold)      (round half away from zero)
 *
 * is what the first `n` units are worth in total, and a refund of `k` units after `r` earlier
 * refunded units gets `refundable(r + k) − earlierRefundedAmount`. So:
 * - any sequence of partial refunds that ends with every unit refunded returns exactly the
 *   line's net and tax (the last refund takes whatever remains: `amount − earlier`);
 * - the result does not depend on how the units were grouped into refunds;
 * - a share is never negative and never more than what is left to refund.
 *
 * All amounts here are positive magnitudes; the refund transaction stores them negated.
 */
import { ConflictError, InvalidReferenceError, ValidationError } from "../errors.ts";
import { assertCents, type Cents, mulDivRound, sumCents } from "../money.ts";

/** A line of the original sale, with what was already refunded of it. */
export interface RefundableLine {
  itemId: string;
  /** What the line sold (a refusal names it; its id otherwise). */
  description?: string;
  /** Quantity sold (positive integer). */
  quantity: number;
  /** The line's net (gross − discount share) at sale, in cents (≥ 0). */
  netCents: Cents;
  /** The line's tax at sale, in cents (≥ 0). */
  taxCents: Cents;
  /** Units of this line refunded by earlier refunds (default 0). */
  refundedQuantity?: number;
  /**
   * Net already refunded for this line (default: the schedule's value for
   * `refundedQuantity`, which is what earlier refunds computed by this module returned).
   */
  refundedNetCents?: Cents;
  /** Tax already refunded for this line (default as for `refundedNetCents`). */
  refundedTaxCents?: Cents;
}

export interface RefundRequestItem {
  itemId: string;
  quantity: number;
}

export interface RefundLine {
  itemId: string;
  quantity: number;
  netCents: Cents;
  taxCents: Cents;
  /** net + tax. */
  totalCents: Cents;
}

export interface RefundComputation {
  /** One line per distinct requested item, in order of first appearance. */
  lines: RefundLine[];
  /** Σ net: the pre-tax amount refunded (the drawer report's `refunds`). */
  netCents: Cents;
  taxCents: Cents;
  /** net + tax: what is paid back to the customer. */
  totalCents: Cents;
}

/** What the first `units` of a line of `quantity` units worth `amount` are worth together. */
export function refundableAmount(amount: Cents, units: number, quantity: number): Cents {
  return mulDivRound(amount, units, quantity);
}

function share(
  amount: Cents,
  quantity: number,
  unitsAfter: number,
  earlierRefunded: Cents,
): Cents {
  const remaining = amount - earlierRefunded;
  if (unitsAfter === quantity) return remaining;
  const due = refundableAmount(amount, unitsAfter, quantity) - earlierRefunded;
  return Math.min(Math.max(due, 0), Math.max(remaining, 0));
}

/**
 * Computes the refund lines for `request` against the original sale's `lines`.
 *
 * - Quantities must be positive integers (ValidationError on `items[i].quantity`); an item
 *   asked for twice is refunded once with the quantities added up.
 * - An `itemId` that is not a line of the original transaction → InvalidReferenceError
 *   (400 `invalid_reference`, path `items[i].itemId`).
 * - Refunding more units than were sold, counting earlier refunds → ConflictError
 *   `refund_exceeds_sale` (409).
 * - An empty request → ValidationError on `items`.
 */
export function computeRefund(
  lines: readonly RefundableLine[],
  request: readonly RefundRequestItem[],
): RefundComputation {
  if (request.length === 0) {
    throw new ValidationError([{ path: "items", message: "At least one item is required" }]);
  }
  const byId = new Map(lines.map((line) => [line.itemId, line]));
  const wanted = new Map<string, number>();
  request.forEach((item, i) => {
    if (!Number.isSafeInteger(item.quantity) || item.quantity < 1) {
      throw new ValidationError([{
        path: `items[${i}].quantity`,
        message: "The quantity must be a positive integer",
      }]);
    }
    if (!byId.has(item.itemId)) {
      throw new InvalidReferenceError(
        `items[${i}].itemId`,
        `Item "${item.itemId}" is not a line of the original transaction`,
      );
    }
    wanted.set(item.itemId, (wanted.get(item.itemId) ?? 0) + item.quantity);
  });

  const result: RefundLine[] = [];
  for (const [itemId, quantity] of wanted) {
    const line = byId.get(itemId) as RefundableLine;
    validateLine(line);
    const earlierUnits = line.refundedQuantity ?? 0;
    const after = earlierUnits + quantity;
    if (after > line.quantity) {
      throw new ConflictError(
        "refund_exceeds_sale",
        `Cannot refund ${quantity} of ${
          line.description ? `"${line.description}"` : `item "${itemId}"`
        }: ${line.quantity} sold, ${earlierUnits} already refunded`,
      );
    }
    const earlierNet = line.refundedNetCents ??
      refundableAmount(line.netCents, earlierUnits, line.quantity);
    const earlierTax = line.refundedTaxCents ??
      refundableAmount(line.taxCents, earlierUnits, line.quantity);
    const net = share(line.netCents, line.quantity, after, earlierNet);
    const tax = share(line.taxCents, line.quantity, after, earlierTax);
    result.push({ itemId, quantity, netCents: net, taxCents: tax, totalCents: net + tax });
  }
  const netCents = sumCents(result.map((l) => l.netCents));
  const taxCents = sumCents(result.map((l) => l.taxCents));
  return { lines: result, netCents, taxCents, totalCents: netCents + taxCents };
}

function validateLine(line: RefundableLine): void {
  if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) {
    throw new RangeError(`Line "${line.itemId}" has an invalid quantity ${line.quantity}`);
  }
  assertCents(line.netCents, "netCents");
  assertCents(line.taxCents, "taxCents");
  const refunded = line.refundedQuantity ?? 0;
  if (!Number.isSafeInteger(refunded) || refunded < 0) {
    throw new RangeError(`Line "${line.itemId}" has an invalid refunded quantity ${refunded}`);
  }
  if (line.netCents < 0 || line.taxCents < 0) {
    throw new RangeError(`Line "${line.itemId}" has a negative net or tax`);
  }
}
