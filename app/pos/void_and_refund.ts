/**
 * Voids and partial refunds (API §8). Both lock the original transaction row FOR UPDATE, so
 * concurrent refunds of one sale are counted one after the other (never more than sold:
 * `computeRefund()` checks, and the CHECK `refunded_quantity <= quantity` backs it up), and
 * both need a manager's approval when the runtime config asks for it. The approval is
 * written to the audit log in the same transaction.
 */
import { ConflictError } from "../../domain/errors.ts";
import { formatMoney, parseMoney } from "../../domain/money.ts";
import { formatReceiptNumber } from "../../domain/pos/receipt_number.ts";
import { computeRefund } from "../../domain/pos/refunds.ts";
import { assertCanRefund, assertCanVoid } from "../../domain/pos/transaction_status.ts";
import { actingUserId, type Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { currentConfig } from "../platform/runtime_config.ts";
import { lockDrawerSession } from "./drawer_sessions_repo.ts";
import { chooseOpenSession } from "./drawers.ts";
import { addRefundedAmounts, findItemsWithProductType, insertItems } from "./items_repo.ts";
import { approvalDetails, approveAction } from "./overrides.ts";
import { findPayments, insertPayment, type PaymentRecord } from "./payments_repo.ts";
import { undoRentalSide } from "./rental_payment_lines.ts";
import { applyStock } from "./stock_effects.ts";
import { type TransactionJson, transactionJson } from "./transaction_json.ts";
import { requireLockedTransaction, requireTransaction } from "./transactions.ts";
import { insertTransaction, updateTransaction } from "./transactions_repo.ts";

export async function voidTransaction(
  deps: AppDeps,
  actor: Actor,
  transactionId: string,
  input: { reason: string; override?: { code: string } },
): Promise<TransactionJson> {
  const before = await requireTransaction(deps.db, transactionId);
  if (before.status === "voided" || before.type === "refund") {
    assertCanVoid({ ...before, drawerSessionOpen: false });
  }
  const config = await currentConfig(deps);
  const approver = await approveAction(
    deps,
    actor,
    "void",
    config.managerOverride,
    input.override,
  );
  return await withTransaction(deps.db, async (trx) => {
    const tx = await requireLockedTransaction(trx, transactionId);
    let drawerSessionOpen = false;
    if (tx.status === "complete" && tx.drawerSessionId) {
      const session = await lockDrawerSession(trx, tx.drawerSessionId, "share");
      drawerSessionOpen = session?.status === "open";
    }
    assertCanVoid({ ...tx, drawerSessionOpen });
    const now = deps.clock.now();
    const items = await findItemsWithProductType(trx, tx.id);
    if (tx.status === "complete") {
      if (items.some((i) => i.refundedQuantity > 0)) {
        throw new ConflictError(
          "invalid_transition",
          `Cannot void transaction ${formatReceiptNumber(tx.number)}: part of it was refunded`,
        );
      }
      await applyStock(trx, items, 1, now, { actorId: actingUserId(actor), source: "void" });
      // Its rental charges are unpaid again; a voided buyout leaves the rental active.
      await undoRentalSide(deps, trx, tx, items, actingUserId(actor), now, true);
    }
    const updated = await updateTransaction(trx, tx.id, {
      status: "voided",
      voidedAt: now,
      voidedBy: actingUserId(actor),
      voidApprovedBy: approver?.userId ?? null,
      voidReason: input.reason,
    }, now);
    await audit(deps, trx, actor, {
      action: "pos.transaction_voided",
      entityType: "transaction",
      entityId: tx.id,
      details: {
        previousStatus: tx.status,
        total: tx.total,
        reason: input.reason,
        ...approvalDetails(actor, approver),
      },
    });
    return transactionJson(updated, items, await findPayments(trx, tx.id));
  });
}

export async function refundTransaction(
  deps: AppDeps,
  actor: Actor,
  transactionId: string,
  input: {
    items: { itemId: string; quantity: number }[];
    method: PaymentRecord["method"];
    reason: string;
    registerId?: string;
    override?: { code: string };
  },
): Promise<TransactionJson> {
  const before = await requireTransaction(deps.db, transactionId);
  assertCanRefund(before);
  const config = await currentConfig(deps);
  const approver = await approveAction(
    deps,
    actor,
    "refund",
    config.managerOverride,
    input.override,
  );
  return await withTransaction(deps.db, async (trx) => {
    const original = await requireLockedTransaction(trx, transactionId);
    assertCanRefund(original);
    const session = await chooseOpenSession(
      trx,
      original.locationId,
      input.registerId,
      original.registerId,
    );
    const items = await findItemsWithProductType(trx, original.id);
    const byId = new Map(items.map((i) => [i.id, i]));
    const refund = computeRefund(
      items.filter((i) => !i.isConsumable).map((i) => ({
        itemId: i.id,
        description: i.description,
        quantity: i.quantity,
        netCents: parseMoney(i.net),
        taxCents: parseMoney(i.tax),
        refundedQuantity: i.refundedQuantity,
        refundedNetCents: parseMoney(i.refundedNet),
        refundedTaxCents: parseMoney(i.refundedTax),
      })),
      input.items,
    );
    const now = deps.clock.now();
    const lines = refund.lines.map((line) => {
      const item = byId.get(line.itemId)!;
      const gross = line.quantity * parseMoney(item.unitPrice);
      return { line, item, gross };
    });
    const grossTotal = lines.reduce((sum, l) => sum + l.gross, 0);
    const refundTx = await insertTransaction(trx, {
      id: deps.ids.uuid(),
      type: "refund",
      status: "complete",
      locationId: original.locationId,
      registerId: session.registerId,
      accountId: original.accountId,
      drawerSessionId: session.id,
      repairTicketId: null,
      originalTransactionId: original.id,
      taxExempt: original.taxExempt,
      taxExemptCertificate: original.taxExemptCertificate,
      reason: input.reason,
      createdBy: actingUserId(actor),
      approvedBy: approver?.userId ?? null,
      completedBy: actor.userId,
      completedAt: now,
      totals: {
        subtotal: formatMoney(-grossTotal),
        discountTotal: formatMoney(-(grossTotal - refund.netCents)),
        taxTotal: formatMoney(-refund.taxCents),
        total: formatMoney(-refund.totalCents),
      },
      amountPaid: formatMoney(-refund.totalCents),
      now,
    });
    const refundItems = await insertItems(
      trx,
      lines.map(({ line, item, gross }, i) => ({
        id: deps.ids.uuid(),
        transactionId: refundTx.id,
        kind: item.kind,
        productId: item.productId,
        unitId: item.unitId,
        originalItemId: item.id,
        description: item.description,
        quantity: line.quantity,
        unitPrice: item.unitPrice,
        taxCategory: item.taxCategory,
        isConsumable: false,
        gross: formatMoney(-gross),
        discount: formatMoney(-(gross - line.netCents)),
        net: formatMoney(-line.netCents),
        tax: formatMoney(-line.taxCents),
        createdAt: new Date(now.getTime() + i),
      })),
    );
    const payments: PaymentRecord[] = [];
    if (refund.totalCents > 0) {
      payments.push(
        await insertPayment(trx, {
          id: deps.ids.uuid(),
          transactionId: refundTx.id,
          method: input.method,
          amount: formatMoney(-refund.totalCents),
          tendered: formatMoney(-refund.totalCents),
          change: "0.00",
          reference: null,
          isRefund: true,
          createdBy: actingUserId(actor),
          now,
        }),
      );
    }
    await addRefundedAmounts(
      trx,
      refund.lines.map((l) => ({
        id: l.itemId,
        quantity: l.quantity,
        net: formatMoney(l.netCents),
        tax: formatMoney(l.taxCents),
      })),
    );
    await applyStock(
      trx,
      lines.map(({ line, item }) => ({
        productId: item.productId,
        unitId: item.unitId,
        quantity: line.quantity,
        productType: item.productType,
      })),
      1,
      now,
      { actorId: actingUserId(actor), source: "refund" },
    );
    // Refunded rental_payment lines reopen the charges they paid.
    await undoRentalSide(
      deps,
      trx,
      original,
      lines.map(({ item }) => item),
      actingUserId(actor),
      now,
      false,
    );
    await audit(deps, trx, actor, {
      action: "pos.refund_created",
      entityType: "transaction",
      entityId: refundTx.id,
      details: {
        originalTransactionId: original.id,
        total: refundTx.total,
        method: input.method,
        reason: input.reason,
        drawerSessionId: session.id,
        ...approvalDetails(actor, approver),
      },
    });
    return transactionJson(refundTx, refundItems, payments);
  });
}
