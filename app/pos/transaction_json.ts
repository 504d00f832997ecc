/** The API shapes of a transaction, its items and its payments (API §8). */
import { formatMoney, parseMoney } from "../../domain/money.ts";
import { formatReceiptNumber } from "../../domain/pos/receipt_number.ts";
import type { ItemRecord } from "./items_repo.ts";
import type { PaymentRecord } from "./payments_repo.ts";
import type { TransactionRecord } from "./transactions_repo.ts";

export function itemJson(item: ItemRecord) {
  return {
    id: item.id,
    kind: item.kind,
    productId: item.productId,
    unitId: item.unitId,
    originalItemId: item.originalItemId,
    rentalChargeId: item.rentalChargeId,
    description: item.description,
    quantity: item.quantity,
    unitPrice: item.unitPrice,
    taxCategory: item.taxCategory,
    isConsumable: item.isConsumable,
    gross: item.gross,
    discount: item.discount,
    net: item.net,
    tax: item.tax,
    total: formatMoney(parseMoney(item.net) + parseMoney(item.tax)),
    refundedQuantity: item.refundedQuantity,
  };
}

export type ItemJson = ReturnType<typeof itemJson>;

export function paymentJson(payment: PaymentRecord) {
  return {
    id: payment.id,
    method: payment.method,
    amount: payment.amount,
    tendered: payment.tendered,
    change: payment.change,
    reference: payment.reference,
    isRefund: payment.isRefund,
    createdAt: payment.createdAt,
  };
}

export type PaymentJson = ReturnType<typeof paymentJson>;

/** A transaction without its items and payments (the list shape). */
export function transactionSummaryJson(tx: TransactionRecord) {
  return {
    id: tx.id,
    number: tx.number,
    receiptNumber: formatReceiptNumber(tx.number),
    type: tx.type,
    status: tx.status,
    locationId: tx.locationId,
    registerId: tx.registerId,
    accountId: tx.accountId,
    drawerSessionId: tx.drawerSessionId,
    repairTicketId: tx.repairTicketId,
    rentalId: tx.rentalId,
    originalTransactionId: tx.originalTransactionId,
    discount: tx.discountKind && tx.discountValue !== null
      ? { kind: tx.discountKind, value: tx.discountValue }
      : null,
    subtotal: tx.subtotal,
    discountTotal: tx.discountTotal,
    taxTotal: tx.taxTotal,
    total: tx.total,
    amountPaid: tx.amountPaid,
    balanceDue: formatMoney(parseMoney(tx.total) - parseMoney(tx.amountPaid)),
    taxExempt: tx.taxExempt,
    reason: tx.reason,
    voidReason: tx.voidReason,
    createdBy: tx.createdBy,
    approvedBy: tx.approvedBy ?? tx.voidApprovedBy,
    completedBy: tx.completedBy,
    voidedBy: tx.voidedBy,
    completedAt: tx.completedAt,
    voidedAt: tx.voidedAt,
    createdAt: tx.createdAt,
    updatedAt: tx.updatedAt,
  };
}

export type TransactionJson =
  & ReturnType<typeof transactionSummaryJson>
  & { items: ItemJson[]; payments: PaymentJson[] };

export function transactionJson(
  tx: TransactionRecord,
  items: readonly ItemRecord[],
  payments: readonly PaymentRecord[],
): TransactionJson {
  return {
    ...transactionSummaryJson(tx),
    items: items.map(itemJson),
    payments: payments.map(paymentJson),
  };
}
