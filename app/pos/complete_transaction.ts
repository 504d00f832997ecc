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
 *
 * The sale's discount share is judged once more on the locked read (issue 42; the lines'
 * product prices come with it): beyond `discountApprovalThresholdPercent` and beyond the
 * share a manager approved for the sale (the threshold or a catalogue price changed since),
 * completing needs the manager override; the approval is stored with the completion and
 * audited as `pos.discount_override`. The code is checked outside the transaction: the
 * locked look asks for it (`withApproval`, overrides.ts), before anything is written.
 */
import { parseMoney, sumCents } from "../../domain/money.ts";
import { pickOpenSession } from "../../domain/pos/drawer_choice.ts";
import { stockDeltas } from "../../domain/pos/stock_effects.ts";
import { assertCanComplete } from "../../domain/pos/transaction_status.ts";
import { actingUserId, type Actor } from "../actor.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { currentConfig } from "../platform/runtime_config.ts";
import {
  completeTransactionRow,
  lockTransactionForCompletion,
} from "./complete_transaction_repo.ts";
import { withApproval } from "./overrides.ts";
import {
  approvalColumns,
  auditShareApproval,
  cataloguedLine,
  grantedShare,
  reviewShare,
  saleDiscountsOf,
} from "./price_approval.ts";
import { settleRentalSide } from "./rental_payment_lines.ts";
import { applyUnitStatuses } from "./stock_effects.ts";
import { type TransactionJson, transactionJson } from "./transaction_json.ts";
import { repairTicketPort, transactionNotFound } from "./transactions.ts";
import { lockTransactionRow } from "./transactions_repo.ts";

export async function completeTransaction(
  deps: AppDeps,
  actor: Actor,
  transactionId: string,
  input: { registerId?: string; override?: { code: string } } | undefined,
): Promise<TransactionJson> {
  const config = await currentConfig(deps);
  return await withApproval(
    deps,
    actor,
    "discount",
    config.managerOverride,
    input?.override,
    () => Promise.resolve(false),
    (approval) =>
      withTransaction(deps.db, async (trx) => {
        if (!(await lockTransactionRow(trx, transactionId))) {
          throw transactionNotFound(transactionId);
        }
        const locked = await lockTransactionForCompletion(trx, transactionId, input?.registerId);
        if (!locked) throw transactionNotFound(transactionId);
        const { tx, items, payments, sessions } = locked;
        const balanceDueCents = parseMoney(tx.total) - parseMoney(tx.amountPaid);
        // State first (a second complete → invalid_transition), then the drawer, the balance
        // and the discount share.
        assertCanComplete({ ...tx, balanceDueCents: 0 });
        const session = pickOpenSession(sessions, tx.locationId, input?.registerId, tx.registerId);
        assertCanComplete({ ...tx, balanceDueCents });
        const review = reviewShare(
          config,
          saleDiscountsOf(tx),
          items.map((item) =>
            cataloguedLine(
              item,
              item.cataloguePrice === null ? null : parseMoney(item.cataloguePrice),
            )
          ),
        );
        const granted = grantedShare(review, approval(review.needed));
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
        await applyUnitStatuses(trx, items, -1, now, {
          actorId: actingUserId(actor),
          source: "sale",
        });
        const updated = await completeTransactionRow(
          trx,
          tx.id,
          {
            drawerSessionId: session.id,
            registerId: session.registerId,
            completedBy: actingUserId(actor),
            discountApproval: granted && approvalColumns(granted.share, granted.approver),
          },
          stockDeltas(items, -1),
          now,
        );
        if (granted) {
          await auditShareApproval(deps, trx, actor, updated, { change: "completed", ...granted });
        }
        return transactionJson(updated, items, payments);
      }),
  );
}
