/**
 * A rental's money, in integer cents (API §13):
 * - `balanceDue` = Σ amount of its unpaid charges;
 * - rent-to-own: each paid charge accrues `equityPercent` of its amount as equity (rounded
 *   half away from zero, per charge, when it is paid); a refund reopens the charge and takes
 *   its equity back; `equity` = Σ equity of the paid charges; `payoffAmount` = purchase price
 *   − equity, never below 0.
 */
import { type BasisPoints, type Cents, percentOf, sumCents } from "../money.ts";

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
