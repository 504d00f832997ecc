/**
 * The POS side of a rental_payment (API §13): its lines come from the rentals feature's port
 * (`deps.rentals`, app/pos/rental_port.ts), one per charge, taxed as a service, each line
 * remembering the charge it pays (`rental_charge_id`).
 */
import type { Transaction } from "kysely";
import { InvalidReferenceError } from "../../domain/errors.ts";
import { formatMoney, parseMoney, sumCents } from "../../domain/money.ts";
import type { SaleLineInput } from "../../domain/pos/sale_rules.ts";
import type { Database, Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import type { RentalPort } from "./rental_port.ts";

/** The rentals feature's port, or 400 invalid_reference when no rentals feature provides it. */
export function rentalPort(deps: Pick<AppDeps, "rentals">): RentalPort {
  if (!deps.rentals) {
    throw new InvalidReferenceError("rentalChargeIds", "Rentals are not available");
  }
  return deps.rentals;
}

export interface RentalPaymentInputs {
  accountId: string;
  inputs: SaleLineInput[];
  /** The charge of each line, by index. */
  chargeIds: string[];
}

/** The lines of a rental_payment of `chargeIds` (unknown → 400, paid → 409 invalid_transition). */
export async function rentalPaymentInputs(
  deps: Pick<AppDeps, "rentals">,
  trx: Db,
  chargeIds: readonly string[],
): Promise<RentalPaymentInputs> {
  const { accountId, lines } = await rentalPort(deps).paymentLines(trx, chargeIds);
  return {
    accountId,
    inputs: lines.map((line) => ({
      kind: "sale",
      description: line.description,
      quantity: 1,
      unitPrice: line.amount,
      taxCategory: "service",
    })),
    chargeIds: lines.map((line) => line.chargeId),
  };
}

/** What the rental side needs of a transaction being completed or voided. */
interface RentalSideOf {
  id: string;
  type: string;
  rentalId: string | null;
}

function chargeIdsOf(items: ReadonlyArray<{ rentalChargeId: string | null }>): string[] {
  return items.flatMap((item) => (item.rentalChargeId ? [item.rentalChargeId] : []));
}

/**
 * Completing: a rental_payment marks its charges paid (409 invalid_transition when one was
 * paid meanwhile), a buyout sale buys its rental out at the payoff it was priced at (Σ gross
 * of its fixed lines; 409 payoff_changed when the payoff moved). No query for other
 * transactions.
 */
export async function settleRentalSide(
  deps: Pick<AppDeps, "rentals">,
  trx: Transaction<Database>,
  tx: RentalSideOf,
  items: ReadonlyArray<{ rentalChargeId: string | null; gross: string }>,
  actorId: string,
  now: Date,
): Promise<void> {
  if (tx.type === "rental_payment") {
    await rentalPort(deps).markChargesPaid(trx, chargeIdsOf(items), tx.id, now);
  }
  if (tx.rentalId) {
    const payoff = formatMoney(sumCents(items.map((item) => parseMoney(item.gross))));
    await rentalPort(deps).completeBuyout(trx, tx.rentalId, tx.id, payoff, actorId, now);
  }
}

/**
 * Voiding a completed transaction, or refunding lines of it: the charges those lines paid
 * are unpaid again (409 equity_consumed while a completed buyout counts their equity); a
 * voided buyout gives the rental back its active status, a refunded one (its only line) frees
 * the rent it counted.
 */
export async function undoRentalSide(
  deps: Pick<AppDeps, "rentals">,
  trx: Transaction<Database>,
  tx: RentalSideOf,
  items: ReadonlyArray<{ rentalChargeId: string | null }>,
  actorId: string,
  now: Date,
  whole: boolean,
): Promise<void> {
  const chargeIds = chargeIdsOf(items);
  if (chargeIds.length > 0) await rentalPort(deps).reopenCharges(trx, chargeIds, tx.id, now);
  if (tx.rentalId) {
    if (whole) await rentalPort(deps).undoBuyout(trx, tx.rentalId, tx.id, actorId, now);
    else await rentalPort(deps).buyoutRefunded(trx, tx.rentalId, tx.id, now);
  }
}
