/**
 * A rental's money, in integer cents (API §13):
 * - `balanceDue` = Σ amount of its unpaid charges;
 * - rent-to-own: each paid charge accrues `equityPercent` of its amount as equity (rounded
 *   half away from zero, per charge, when it is paid); a refund reopens the charge and takes
 *   its equity back; `equity` = Σ equity of the paid charges; `payoffAmount` = purchase price
 *   − equity, never below 0;
 * - a buyout sale completes only at the payoff it was started at, and the rent whose equity a
 *   completed buyout counted stays paid until that buyout is voided or refunded.
 */
import { ConflictError } from "../errors.ts";
import { type BasisPoints, type Cents, formatMoney, percentOf, sumCents } from "../money.ts";

export interface ChargeMoney {
  amountCents: Cents;
  paid: boolean;
  /** The equity the charge accrued when it was paid (0 while unpaid). */
  equityCents: Cents;
}

export interface RentToOwnTerms {
  purchasePriceCents: Cents;
  equityPercentBp: BasisPoints;
}

export interface RentalMoney {
  balanceDueCents: Cents;
  equityCents: Cents;
  /** Null when the rental is not rent-to-own. */
  payoffCents: Cents | null;
}

/** The equity a charge of `amountCents` accrues when paid (0 without rent-to-own). */
export function equityOfPayment(amountCents: Cents, terms: RentToOwnTerms | null): Cents {
  return terms ? percentOf(amountCents, terms.equityPercentBp) : 0;
}

/** What is left to pay to buy the instrument out: price − equity, never below 0. */
export function payoffOf(terms: RentToOwnTerms, equityCents: Cents): Cents {
  return Math.max(0, terms.purchasePriceCents - equityCents);
}

export function rentalMoney(
  charges: readonly ChargeMoney[],
  terms: RentToOwnTerms | null,
): RentalMoney {
  const balanceDueCents = sumCents(charges.filter((c) => !c.paid).map((c) => c.amountCents));
  const equityCents = sumCents(charges.filter((c) => c.paid).map((c) => c.equityCents));
  return {
    balanceDueCents,
    equityCents,
    payoffCents: terms ? payoffOf(terms, equityCents) : null,
  };
}

/**
 * A buyout sale started at `pricedCents` completes only while that is still the rental's
 * payoff: rent refunded (equity taken back) or paid (equity added) since makes the sale stale
 * → ConflictError `payoff_changed` with the current `payoffAmount`; the clerk voids the sale
 * and starts the buyout again.
 */
export function assertPayoffUnchanged(
  rentalNumber: string,
  pricedCents: Cents,
  payoffCents: Cents,
): void {
  if (pricedCents === payoffCents) return;
  throw new ConflictError(
    "payoff_changed",
    `Rental ${rentalNumber} pays off at ${formatMoney(payoffCents)} now, not the ` +
      `${formatMoney(pricedCents)} this buyout sale was started at: void it and start the ` +
      "buyout again",
    { payoffAmount: formatMoney(payoffCents) },
  );
}

/**
 * Rent paid toward a completed buyout (its charge's equity counted in the payoff) cannot be
 * refunded or voided: ConflictError `equity_consumed` naming the buyout sale
 * (`buyoutTransactionId`), until that sale is voided or refunded.
 */
export function assertEquityNotConsumed(
  charges: ReadonlyArray<{ id: string; buyoutTransactionId: string | null }>,
): void {
  const used = charges.find((c) => c.buyoutTransactionId !== null);
  if (!used) return;
  throw new ConflictError(
    "equity_consumed",
    `The equity of rental charge "${used.id}" counts in the payoff of buyout sale ` +
      `"${used.buyoutTransactionId}": void or refund the buyout first`,
    { buyoutTransactionId: used.buyoutTransactionId },
  );
}
