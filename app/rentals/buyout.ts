/**
 * Rent-to-own buyouts (API §13): `POST /rentals/:id/buyout` starts a pending POS sale of the
 * payoff amount linked to the rental (under the rental's lock, so the payoff is read after
 * any payment that committed meanwhile); completing that sale at the register (through the
 * POS's port, rental_payments.ts) checks the payoff again under the rental's lock, ends the
 * rental as `purchased` and the unit `sold`, and marks the charges whose equity the payoff
 * counted: their rent stays paid until the buyout is voided (the rental active again) or
 * refunded (the rental stays purchased).
 */
import { type Cents, formatMoney, parseMoney } from "../../domain/money.ts";
import {
  assertPayoffUnchanged,
  payoffOf,
  type RentToOwnTerms,
} from "../../domain/rentals/rental_money.ts";
import { assertCanBuyOut } from "../../domain/rentals/rental_status.ts";
import type { Transaction } from "kysely";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import type { Database, Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { setUnitStatus } from "../inventory/stock.ts";
import { startBuyoutSale } from "../pos/rental_sales.ts";
import type { TransactionJson } from "../pos/transaction_json.ts";
import { findChargeTotals, markChargesInBuyout, releaseChargesOfBuyout } from "./charges_repo.ts";
import { rentToOwnTerms } from "./rental_json.ts";
import { lockRental, type RentalRecord, setRentalStatus } from "./rentals_repo.ts";
import { requireLockedRental, requireRental } from "./rentals.ts";

/**
 * The locked rental, which must be an active rent-to-own rental (409 invalid_transition), its
 * terms and its payoff now (its charges read after the lock, so every payment or refund that
 * committed before counts).
 */
async function lockRentalToBuyOut(
  trx: Transaction<Database>,
  id: string,
): Promise<{ rental: RentalRecord; payoffCents: Cents }> {
  const rental = await requireLockedRental(trx, id);
  const terms = rentToOwnTerms(rental);
  assertCanBuyOut({ ...rental, rentToOwn: terms !== null });
  return { rental, payoffCents: await payoffCentsOf(trx, id, terms!) };
}

async function payoffCentsOf(db: Db, id: string, terms: RentToOwnTerms): Promise<Cents> {
  const totals = (await findChargeTotals(db, [id])).get(id);
  return payoffOf(terms, parseMoney(totals?.equity ?? "0"));
}

export async function startBuyout(
  deps: AppDeps,
  actor: Actor,
  id: string,
  input: { locationId: string },
): Promise<TransactionJson> {
  return await withTransaction(deps.db, async (trx) => {
    const { rental, payoffCents } = await lockRentalToBuyOut(trx, id);
    const payoff = formatMoney(payoffCents);
    const view = await requireRental(trx, id);
    const serial = view.serialNumber ? ` #${view.serialNumber}` : "";
    const sale = await startBuyoutSale(deps, trx, actor, {
      locationId: input.locationId,
      accountId: rental.accountId,
      rentalId: id,
      description: `Buyout ${rental.rentalNumber}: ${view.productName}${serial}`.slice(0, 500),
      amount: payoff,
    });
    await audit(deps, trx, actor, {
      action: "rental.buyout_started",
      entityType: "rental",
      entityId: id,
      details: { rentalNumber: rental.rentalNumber, transactionId: sale.id, payoffAmount: payoff },
    });
    return sale;
  });
}

/**
 * The buyout sale `transactionId`, priced at `payoffAmount`, completes (inside the POS's
 * transaction): under the rental's lock, the payoff must still be that amount (else 409
 * payoff_changed with the current one); the paid charges' equity is counted in it, the rental
 * is purchased and its unit sold.
 */
export async function completeBuyoutSale(
  trx: Transaction<Database>,
  rentalId: string,
  transactionId: string,
  payoffAmount: string,
  actorId: string,
  now: Date,
): Promise<void> {
  const { rental, payoffCents } = await lockRentalToBuyOut(trx, rentalId);
  assertPayoffUnchanged(rental.rentalNumber, parseMoney(payoffAmount), payoffCents);
  await markChargesInBuyout(trx, rentalId, transactionId, now);
  await setRentalStatus(trx, rentalId, { status: "purchased", transactionId }, now);
  await setUnitStatus(trx, rental.unitId, "sold", now, { actorId, source: "buyout" });
}

/**
 * The completed buyout sale `transactionId` undone: voided, the rental is active and its unit
 * rented again; refunded (`voided` false), the rental stays purchased and its unit sold. Either
 * way the rent its payoff counted can be refunded again.
 */
export async function undoBuyoutSale(
  trx: Transaction<Database>,
  rentalId: string,
  transactionId: string,
  voided: { actorId: string } | false,
  now: Date,
): Promise<void> {
  // A refund does not need the rental live (a purchased rental may have been deleted since).
  const rental = voided
    ? await requireLockedRental(trx, rentalId)
    : await lockRental(trx, rentalId);
  await releaseChargesOfBuyout(trx, rentalId, transactionId, now);
  if (!voided || !rental) return;
  if (rental.status !== "purchased" || rental.purchaseTransactionId !== transactionId) return;
  await setRentalStatus(trx, rentalId, { status: "active" }, now);
  await setUnitStatus(trx, rental.unitId, "rented", now, {
    actorId: voided.actorId,
    source: "buyout",
  });
}
