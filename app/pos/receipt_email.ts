/**
 * Emailing a receipt (API §17 `POST /transactions/:id/receipt/email`): queued through the
 * email outbox (app/email/outbox.ts) with the receipt's text and HTML forms, in the same
 * transaction as its audit entry `pos.receipt_emailed`. Needs the email module; `to` defaults
 * to the email of the transaction's account.
 */
import { ForbiddenError, ValidationError } from "../../domain/errors.ts";
import { receiptEmail } from "../../domain/pos/receipt_email.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { enqueueEmail } from "../email/outbox.ts";
import { loadReceipt } from "./receipts.ts";

export interface ReceiptEmailResult {
  emailId: string;
  to: string;
  receiptNumber: string;
  status: "queued";
}

export async function emailReceipt(
  deps: AppDeps,
  actor: Actor,
  id: string,
  input: { to?: string } | undefined,
): Promise<ReceiptEmailResult> {
  if (!(await deps.modules.isEnabled("email"))) {
    throw new ForbiddenError("module_disabled", "The email module is disabled");
  }
  const { receipt, accountEmail } = await loadReceipt(deps, id);
  const to = input?.to ?? accountEmail;
  if (!to) {
    throw new ValidationError([{
      path: "to",
      message: "The transaction has no account with an email address: give `to`",
    }]);
  }
  const mail = receiptEmail(receipt);
  return await withTransaction(deps.db, async (trx) => {
    const emailId = await enqueueEmail(trx, deps, { to, ...mail });
    await audit(deps, trx, actor, {
      action: "pos.receipt_emailed",
      entityType: "transaction",
      entityId: receipt.transactionId,
      details: {
        receiptNumber: receipt.receiptNumber,
        emailId,
        to,
        recipient: input?.to ? "given" : "account",
      },
    });
    return { emailId, to, receiptNumber: receipt.receiptNumber, status: "queued" as const };
  });
}
