/**
 * Rent-to-own buyouts (API §13): `POST /rentals/:id/buyout` starts a pending POS sale of the
 * payoff amount linked to the rental (under the rental's lock, so the payoff is read after
 * any payment that committed meanwhile); completing that sale at the register ends the
 * rental as `purchased` and the unit `sold` (rental_payments.ts, through the POS's port).
 */
import { parseMoney } from "../../domain/money.ts";
import { payoffOf } from "../../domain/rentals/rental_money.ts";
import { assertCanBuyOut } from "../../domain/rentals/rental_status.ts";
import { formatMoney } from "../../domain/money.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { startBuyoutSale } from "../pos/rental_sales.ts";
import type { TransactionJson } from "../pos/transaction_json.ts";
import { findChargeTotals } from "./charges_repo.ts";
import { rentToOwnTerms } from "./rental_json.ts";
import { requireLockedRental, requireRental } from "./rentals.ts";

export async function startBuyout(
  deps: AppDeps,
  actor: Actor,
  id: string,
  input: { locationId: string },
): Promise<TransactionJson> {
  return await withTransaction(deps.db, async (trx) => {
    const rental = await requireLockedRental(trx, id);
    const terms = rentToOwnTerms(rental);
    assertCanBuyOut({ ...rental, rentToOwn: terms !== null });
    const totals = (await findChargeTotals(trx, [id])).get(id);
    const payoff = formatMoney(payoffOf(terms!, parseMoney(totals?.equity ?? "0")));
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
