/** The wire shape of a receipt (`GET /transactions/:id/receipt` as JSON). */
import { formatMoney } from "../../domain/money.ts";
import type { Receipt, ReceiptRepair, ReceiptStore } from "../../domain/pos/receipt_text.ts";
import type { TransactionStatus, TransactionType } from "../../domain/pos/transaction_status.ts";
import type { PaymentMethod } from "../../domain/pos/transaction_totals.ts";

export interface ReceiptJson {
  store: ReceiptStore;
  locationName: string | null;
  transactionId: string;
  receiptNumber: string;
  type: TransactionType;
  status: TransactionStatus;
  at: string;
  localTime: string;
  originalTransactionId: string | null;
  originalReceiptNumber: string | null;
  refundReason: string | null;
  repair: ReceiptRepair | null;
  taxExempt: boolean;
  taxExemptCertificate: string | null;
  cashierName: string | null;
  customerName: string | null;
  lines: { description: string; quantity: number; unitPrice: string; amount: string }[];
  subtotal: string;
  discount: string;
  tax: string;
  total: string;
  payments: {
    method: PaymentMethod;
    amount: string;
    tendered: string;
    change: string;
    reference: string | null;
  }[];
  amountPaid: string;
  balanceDue: string;
  change: string;
}

/** The receipt JSON of `GET /transactions/:id/receipt` (money as strings, `at` in ISO). */
export function receiptToJson(receipt: Receipt): ReceiptJson {
  return {
    ...receipt,
    at: receipt.at.toISOString(),
    lines: receipt.lines.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      unitPrice: formatMoney(l.unitPrice),
      amount: formatMoney(l.amount),
    })),
    subtotal: formatMoney(receipt.subtotal),
    discount: formatMoney(receipt.discount),
    tax: formatMoney(receipt.tax),
    total: formatMoney(receipt.total),
    payments: receipt.payments.map((p) => ({
      method: p.method,
      amount: formatMoney(p.amount),
      tendered: formatMoney(p.tendered),
      change: formatMoney(p.change),
      reference: p.reference,
    })),
    amountPaid: formatMoney(receipt.amountPaid),
    balanceDue: formatMoney(receipt.balanceDue),
    change: formatMoney(receipt.change),
  };
}
