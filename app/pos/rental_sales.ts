/**
 * A rental buyout as a POS sale (API §13): the rentals feature starts it, inside its own
 * transaction (the rental locked), as a pending `sale` linked to the rental by `rentalId`,
 * with one line of the payoff amount (goods). Completing it tells the rentals feature through
 * the port (`completeBuyout`); voiding a pending one changes nothing on the rental.
 */
import type { Transaction } from "kysely";
import { InvalidReferenceError } from "../../domain/errors.ts";
import { actingUserId, type Actor } from "../actor.ts";
import type { Database } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import { findLocation } from "../platform/locations_repo.ts";
import { insertItems } from "./items_repo.ts";
import { pricingContext, totalsColumns, totalsOf } from "./pricing.ts";
import { newItemRows, resolveLines } from "./sale_lines.ts";
import { type TransactionJson, transactionJson } from "./transaction_json.ts";
import { insertTransaction } from "./transactions_repo.ts";

export interface BuyoutSaleInput {
  locationId: string;
  accountId: string;
  rentalId: string;
  description: string;
  /** The payoff amount, pre-tax ("412.50"). */
  amount: string;
}

/** Starts the pending buyout sale (unknown location → 400 invalid_reference). */
export async function startBuyoutSale(
  deps: Pick<AppDeps, "clock" | "ids">,
  trx: Transaction<Database>,
  actor: Actor,
  input: BuyoutSaleInput,
): Promise<TransactionJson> {
  if (!(await findLocation(trx, input.locationId))) {
    throw new InvalidReferenceError("locationId", `Location "${input.locationId}" does not exist`);
  }
  const now = deps.clock.now();
  const lines = await resolveLines(trx, [{
    kind: "sale",
    description: input.description,
    quantity: 1,
    unitPrice: input.amount,
    taxCategory: "goods",
  }], (i, f) => `items[${i}].${f}`);
  const context = await pricingContext(trx, input.accountId, now);
  const totals = totalsOf(lines, null, context);
  const tx = await insertTransaction(trx, {
    id: deps.ids.uuid(),
    type: "sale",
    status: "pending",
    locationId: input.locationId,
    registerId: null,
    accountId: input.accountId,
    repairTicketId: null,
    rentalId: input.rentalId,
    taxExempt: context.taxExempt,
    taxExemptCertificate: context.taxExemptCertificate,
    createdBy: actingUserId(actor),
    totals: totalsColumns(totals),
    now,
  });
  const items = await insertItems(trx, newItemRows(deps, tx.id, lines, totals, 0, now));
  return transactionJson(tx, items, []);
}
