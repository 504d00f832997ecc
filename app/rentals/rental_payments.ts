/**
 * The rentals feature's side of payment at the POS (API §13): the port the POS owns
 * (app/pos/rental_port.ts), filled in by `createDeps`. A rental_payment's lines are the
 * charges it pays; completing it locks those charges (in id order) and pays each once, with
 * the rent-to-own equity it accrues; a refund or void reopens them, unless a completed buyout
 * counted their equity (409 equity_consumed). A buyout sale completing, voided or refunded:
 * buyout.ts, under the rental's lock.
 */
import { ConflictError, InvalidReferenceError, ValidationError } from "../../domain/errors.ts";
import { formatMoney, parseMoney } from "../../domain/money.ts";
import { assertEquityNotConsumed, equityOfPayment } from "../../domain/rentals/rental_money.ts";
import type { RentalChargeLine, RentalPort } from "../pos/rental_port.ts";
import { completeBuyoutSale, undoBuyoutSale } from "./buyout.ts";
import {
  findCharges,
  findChargesInBuyout,
  lockCharges,
  lockRentalsOfCharges,
  markChargesPaid,
  reopenChargesPaidBy,
} from "./charges_repo.ts";
import { rentToOwnTerms } from "./rental_json.ts";
import { findRentalsByIds } from "./rentals_repo.ts";

function alreadyPaid(chargeId: string): ConflictError {
  return new ConflictError("invalid_transition", `Rental charge "${chargeId}" is paid already`);
}

export function rentalPort(): RentalPort {
  return {
    async paymentLines(trx, chargeIds) {
      if (new Set(chargeIds).size !== chargeIds.length) {
        throw new ValidationError([{
          path: "rentalChargeIds",
          message: "A charge is named twice",
        }]);
      }
      const charges = new Map((await findCharges(trx, chargeIds)).map((c) => [c.id, c]));
      const rentals = new Map(
        (await findRentalsByIds(trx, [...new Set([...charges.values()].map((c) => c.rentalId))]))
          .map((r) => [r.id, r]),
      );
      const lines: RentalChargeLine[] = [];
      let accountId: string | undefined;
      for (const id of chargeIds) {
        const charge = charges.get(id);
        const rental = charge && rentals.get(charge.rentalId);
        if (!charge || !rental) {
          throw new InvalidReferenceError(
            "rentalChargeIds",
            `Rental charge "${id}" does not exist`,
          );
        }
        if (charge.status === "paid") throw alreadyPaid(id);
        if (accountId !== undefined && rental.accountId !== accountId) {
          throw new ValidationError([{
            path: "rentalChargeIds",
            message: "The charges belong to rentals of different accounts",
          }]);
        }
        accountId = rental.accountId;
        lines.push({
          chargeId: id,
          description:
            `Rental ${rental.rentalNumber}, ${charge.periodStart} to ${charge.periodEnd}`,
          amount: formatMoney(parseMoney(charge.amount)),
        });
      }
      return { accountId: accountId!, lines };
    },

    async markChargesPaid(trx, chargeIds, transactionId, now) {
      const charges = await lockCharges(trx, chargeIds);
      const paid = charges.find((c) => c.status === "paid");
      if (paid) throw alreadyPaid(paid.id);
      if (charges.length !== new Set(chargeIds).size) {
        throw new InvalidReferenceError("rentalChargeIds", "A rental charge no longer exists");
      }
      const rentals = new Map(
        (await findRentalsByIds(trx, [...new Set(charges.map((c) => c.rentalId))]))
          .map((r) => [r.id, r]),
      );
      const payments = charges.map((charge) => {
        const rental = rentals.get(charge.rentalId);
        const equity = equityOfPayment(
          parseMoney(charge.amount),
          rental ? rentToOwnTerms(rental) : null,
        );
        return { charge, equity: formatMoney(equity) };
      });
      await markChargesPaid(trx, payments, transactionId, now);
    },

    async reopenCharges(trx, chargeIds, transactionId, now) {
      // The rentals locked first, as a buyout completing locks its rental before it counts the
      // charges' equity: of a refund and a buyout of one rental at once, one waits for the other.
      await lockRentalsOfCharges(trx, chargeIds);
      await lockCharges(trx, chargeIds);
      assertEquityNotConsumed(await findChargesInBuyout(trx, chargeIds, transactionId));
      await reopenChargesPaidBy(trx, chargeIds, transactionId, now);
    },

    completeBuyout: completeBuyoutSale,

    async buyoutRefunded(trx, rentalId, transactionId, now) {
      await undoBuyoutSale(trx, rentalId, transactionId, false, now);
    },

    async undoBuyout(trx, rentalId, transactionId, actorId, now) {
      await undoBuyoutSale(trx, rentalId, transactionId, { actorId }, now);
    },
  };
}
