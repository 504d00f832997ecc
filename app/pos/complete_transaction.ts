/**
 * Completing a sale (API §8) in one database transaction with a bounded number of queries
 * (independent of history size): lock the transaction row FOR UPDATE (a second, concurrent
 * complete waits and then gets 409 invalid_transition), pick the open drawer session at the
 * location (locked FOR SHARE so a close waits for us), mark sold units, decrement the stock
 * of non-serialized products (inventory's stock update, composed into our statement), move a
 * paid repair ticket to picked_up. Three queries for a sale without units (plus
 * BEGIN/COMMIT): the row lock; the transaction with its lines, payments and open drawer
 * sessions (read once the lock is held, so nothing committed meanwhile is missed); then
 * stock + status in one statement (data-modifying CTEs). A repair_payment adds the repairs
 * port's three (the ticket's lock, its payments so far, its status change with history).
 */
import { parseMoney, sumCents } from "../../domain/money.ts";
import { pickOpenSession } from "../../domain/pos/drawer_choice.ts";
import { stockDeltas } from "../../domain/pos/stock_effects.ts";
import { assertCanComplete } from "../../domain/pos/transaction_status.ts";
import { actingUserId, type Actor } from "../actor.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import {
  completeTransactionRow,
  lockTransactionForCompletion,
} from "./complete_transaction_repo.ts";
import { settleRentalSide } from "./rental_payment_lines.ts";
import { applyUnitStatuses } from "./stock_effects.ts";
import { type TransactionJson, transactionJson } from "./transaction_json.ts";
import { repairTicketPort, transactionNotFound } from "./transactions.ts";
import { lockTransactionRow } from "./transactions_repo.ts";

export async function completeTransaction(
  deps: AppDeps,
  actor: Actor,
  transactionId: string,
  input: { registerId?: string } | undefined,
): Promise<TransactionJson> {
  return await withTransaction(deps.db, async (trx) => {
    if (!(await lockTransactionRow(trx, transactionId))) throw transactionNotFound(transactionId);
    const locked = await lockTransactionForCompletion(trx, transactionId, input?.registerId);
    if (!locked) throw transactionNotFound(transactionId);
    const { tx, items, payments, sessions } = locked;
    const balanceDueCents = parseMoney(tx.total) - parseMoney(tx.amountPaid);
    // State first (a second complete → invalid_transition), then the drawer, then the balance.
    assertCanComplete({ ...tx, balanceDueCents: 0 });
    const session = pickOpenSession(sessions, tx.locationId, input?.registerId, tx.registerId);
    assertCanComplete({ ...tx, balanceDueCents });
    const now = deps.clock.now();
    if (tx.type === "repair_payment" && tx.repairTicketId) {
      // Under the ticket's lock: exists, not cancelled, not paid twice over; then picked up.
      await repairTicketPort(deps).markPickedUp(trx, tx.repairTicketId, actingUserId(actor), {
        transactionId: tx.id,
        amountCents: sumCents(items.map((item) => parseMoney(item.net))),
      });
    }
    // A rental_payment's charges are paid (locked, never twice); a buyout ends its rental.
    await settleRentalSide(deps, trx, tx, items, actingUserId(actor), now);
    await applyUnitStatuses(trx, items, -1, now, { actorId: actingUserId(actor), source: "sale" });
    const updated = await completeTransactionRow(
      trx,
      tx.id,
      {
        drawerSessionId: session.id,
        registerId: session.registerId,
        completedBy: actingUserId(actor),
      },
      stockDeltas(items, -1),
      now,
    );
    return transactionJson(updated, items, payments);
  });
}
