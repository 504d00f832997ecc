/** Payments of a pending transaction (API §8): split tenders, cash change, no overpayment. */
import { formatMoney, parseMoney } from "../../domain/money.ts";
import { assertEditable } from "../../domain/pos/transaction_status.ts";
import { preparePayment } from "../../domain/pos/transaction_totals.ts";
import { actingUserId, type Actor } from "../actor.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { findItems } from "./items_repo.ts";
import { findPayments, insertPayment } from "./payments_repo.ts";
import {
  type PaymentJson,
  paymentJson,
  type TransactionJson,
  transactionJson,
} from "./transaction_json.ts";
import { requireLockedTransaction } from "./transactions.ts";
import { updateTransaction } from "./transactions_repo.ts";

export async function addPayment(
  deps: AppDeps,
  actor: Actor,
  transactionId: string,
  input: {
    method: "cash" | "card" | "check" | "store_credit" | "other";
    amount: string;
    reference?: string;
    tendered?: string;
  },
): Promise<{ payment: PaymentJson; transaction: TransactionJson }> {
  return await withTransaction(deps.db, async (trx) => {
    const tx = await requireLockedTransaction(trx, transactionId);
    assertEditable(tx);
    const paid = parseMoney(tx.amountPaid);
    const prepared = preparePayment({
      method: input.method,
      amountCents: parseMoney(input.amount),
      tenderedCents: input.tendered === undefined ? null : parseMoney(input.tendered),
    }, parseMoney(tx.total) - paid);
    const now = deps.clock.now();
    const payment = await insertPayment(trx, {
      id: deps.ids.uuid(),
      transactionId: tx.id,
      method: prepared.method,
      amount: formatMoney(prepared.amountCents),
      tendered: formatMoney(prepared.tenderedCents),
      change: formatMoney(prepared.changeCents),
      reference: input.reference ?? null,
      isRefund: false,
      createdBy: actingUserId(actor),
      now,
    });
    const updated = await updateTransaction(trx, tx.id, {
      amountPaid: formatMoney(paid + prepared.amountCents),
    }, now);
    return {
      payment: paymentJson(payment),
      transaction: transactionJson(
        updated,
        await findItems(trx, tx.id),
        await findPayments(trx, tx.id),
      ),
    };
  });
}
