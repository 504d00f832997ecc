/**
 * The point of sale's window onto rentals (API §13), owned by the POS and filled in by the
 * rentals feature when `createDeps` builds the app (`AppDeps.rentals`, from
 * app/rentals/rental_payments.ts), the same way repairs fill `repair_ticket_port.ts`. Without
 * it, rental_payment transactions are refused (400 invalid_reference: rentals are not
 * available). Every call runs inside the caller's transaction.
 */
import type { Transaction } from "kysely";
import type { Database, Db } from "../db/database.ts";

/** A line of a rental_payment: one unpaid charge (taxed as a service). */
export interface RentalChargeLine {
  chargeId: string;
  description: string;
  /** Decimal text, "49.99". */
  amount: string;
}

export interface RentalPort {
  /**
   * The lines of a rental_payment of `chargeIds`, in the order given, and the account they
   * are billed to. Unknown charges → 400 invalid_reference; charges of rentals of different
   * accounts → 400 validation_failed; a charge already paid → 409 invalid_transition.
   */
  paymentLines(
    trx: Db,
    chargeIds: readonly string[],
  ): Promise<{ accountId: string; lines: RentalChargeLine[] }>;
  /**
   * Settles a rental_payment as it completes: locks the charges (FOR UPDATE, in id order)
   * and refuses any that is paid already (409 invalid_transition: two terminals completing
   * payments of one charge, one wins), then marks them paid by `transactionId` (each accrues
   * its rental's rent-to-own equity).
   */
  markChargesPaid(
    trx: Transaction<Database>,
    chargeIds: readonly string[],
    transactionId: string,
    now: Date,
  ): Promise<void>;
  /**
   * A refund or void of the payment `transactionId`: its charges are unpaid again. Under the
   * locks of their rentals: a charge whose equity a completed buyout counted stays paid (409
   * equity_consumed) until that buyout is voided or refunded.
   */
  reopenCharges(
    trx: Transaction<Database>,
    chargeIds: readonly string[],
    transactionId: string,
    now: Date,
  ): Promise<void>;
  /**
   * Completing the buyout sale `transactionId` of rental `rentalId`, priced at `payoffAmount`
   * (decimal text): under the rental's lock, an active rental becomes `purchased` and its unit
   * `sold`; a rental that is no longer active → 409 invalid_transition; a payoff that is no
   * longer `payoffAmount` (rent refunded or paid since the sale started) → 409 payoff_changed
   * with the current `payoffAmount`.
   */
  completeBuyout(
    trx: Transaction<Database>,
    rentalId: string,
    transactionId: string,
    payoffAmount: string,
    actorId: string,
    now: Date,
  ): Promise<void>;
  /**
   * Refunding the completed buyout `transactionId`: the rent it counted can be refunded again
   * (the rental stays purchased and its unit sold).
   */
  buyoutRefunded(
    trx: Transaction<Database>,
    rentalId: string,
    transactionId: string,
    now: Date,
  ): Promise<void>;
  /**
   * Voiding the completed buyout `transactionId`: the rental is active and its unit rented
   * again, and the rent it counted can be refunded again.
   */
  undoBuyout(
    trx: Transaction<Database>,
    rentalId: string,
    transactionId: string,
    actorId: string,
    now: Date,
  ): Promise<void>;
}
