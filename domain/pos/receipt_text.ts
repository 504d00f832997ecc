/**
 * Receipts (API §8 `GET /transactions/:id/receipt`, §17): `buildReceipt()` gives the
 * receipt's content (store header, receipt number, lines, totals, payments, change; a refund
 * names the original's receipt number and its reason, and prints no "Change 0.00"; a repair
 * payment names its ticket and the instrument; a tax-exempt one says so with the exemption's
 * certificate) with consumable lines removed (its wire
 * shape is built by `app/pos/receipt_json.ts`, its page by `receipt_html.ts`), and
 * `renderReceiptText()` the printable plain-text form (`Accept: text/plain`), at most 40
 * columns per line by default.
 *
 * Text layout rules (domain/printing/text_layout.ts): the header is centred; the receipt is
 * numbered with its human number ("No. S-0001234", never the UUID); a line of quantity 1
 * prints its description with the amount on the right of its first row, other quantities
 * print the description and then `  qty x price` with the amount on the right; descriptions
 * wrap at word boundaries (words longer than a row are cut) to at most 3 rows, the last one
 * ending in "..." if anything was left over; control characters and runs of whitespace
 * become one space. Amounts are right-aligned.
 *
 * Signs (the reports' convention, API §8): every printed amount is a positive magnitude and its
 * label says which way the money goes. A refund's receipt prints what is returned and paid back
 * as positive amounts under "TOTAL REFUNDED" and "Cash refund" (its JSON keeps the refund
 * transaction's negative figures); the discount is "Discount 7.10", taken off the subtotal.
 * Only the balance due, a difference, keeps its sign.
 */
import type { Cents } from "../money.ts";
import { formatMoney, sumCents } from "../money.ts";
import type { TransactionStatus, TransactionType } from "./transaction_status.ts";
import type { PaymentMethod } from "./transaction_totals.ts";
import { storeLocalDateTime } from "../calendar.ts";
import type { PostalAddress } from "../address.ts";
import { formatReceiptNumber } from "./receipt_number.ts";
import {
  assertPrintWidth,
  centerText,
  cleanText,
  cutText,
  finishText,
  leftRight,
  PRINT_WIDTH,
  type PrintStore,
  storeHeaderRows,
  textWidth,
  wrapText,
} from "../printing/text_layout.ts";

export const RECEIPT_WIDTH = PRINT_WIDTH;
const MAX_DESCRIPTION_ROWS = 3;
const MAX_REASON_ROWS = 3;
const MAX_ITEM_ROWS = 2;
const MAX_EXEMPTION_ROWS = 2;

export type ReceiptAddress = PostalAddress;

export type ReceiptStore = PrintStore;

/** The repair ticket a repair payment pays, as its receipt names it. */
export interface ReceiptRepair {
  ticketNumber: string;
  /** The instrument as the ticket describes it ("Violin 4/4"). */
  itemDescription: string;
  serialNumber: string | null;
}

export interface ReceiptLineInput {
  description: string;
  quantity: number;
  unitPriceCents: Cents;
  /** Consumable lines are never printed nor sent. */
  isConsumable: boolean;
  /** What the line shows on the right; default quantity × unit price (refunds: −net). */
  amountCents?: Cents;
}

export interface ReceiptPaymentInput {
  method: PaymentMethod;
  amountCents: Cents;
  tenderedCents?: Cents | null;
  changeCents?: Cents | null;
  reference?: string | null;
}

export interface ReceiptInput {
  store: ReceiptStore;
  locationName?: string | null;
  transaction: {
    id: string;
    /** The transaction's sequence number (`transactions.number`): its receipt number. */
    number: number;
    type: TransactionType;
    status: TransactionStatus;
    /** completedAt, or createdAt while pending. */
    at: Date;
    originalTransactionId?: string | null;
    /** A refund's original: its sequence number. */
    originalNumber?: number | null;
    /** A refund's reason (as given to `POST /transactions/:id/refunds`). */
    reason?: string | null;
    taxExempt?: boolean;
    /** The certificate of the exemption that made it tax-exempt, when kept. */
    taxExemptCertificate?: string | null;
  };
  /** A repair payment's ticket (null otherwise, or when it is gone). */
  repair?: ReceiptRepair | null;
  /** The store's IANA time zone, for the printed date and time. */
  timeZone: string;
  cashierName?: string | null;
  customerName?: string | null;
  lines: readonly ReceiptLineInput[];
  totals: {
    subtotalCents: Cents;
    discountTotalCents: Cents;
    taxTotalCents: Cents;
    totalCents: Cents;
  };
  payments: readonly ReceiptPaymentInput[];
}

export interface ReceiptLine {
  description: string;
  quantity: number;
  unitPrice: Cents;
  amount: Cents;
}

export interface ReceiptPayment {
  method: PaymentMethod;
  amount: Cents;
  tendered: Cents;
  change: Cents;
  reference: string | null;
}

export interface Receipt {
  store: ReceiptStore;
  locationName: string | null;
  transactionId: string;
  /** `S-0001234`: what the receipt is numbered with (never the UUID). */
  receiptNumber: string;
  type: TransactionType;
  status: TransactionStatus;
  at: Date;
  /** Store-local "YYYY-MM-DD HH:MM". */
  localTime: string;
  originalTransactionId: string | null;
  /** A refund's original, `S-…`; null otherwise. */
  originalReceiptNumber: string | null;
  /** A refund's reason; null otherwise. */
  refundReason: string | null;
  /** A repair payment's ticket and instrument; null otherwise. */
  repair: ReceiptRepair | null;
  taxExempt: boolean;
  /** A tax-exempt transaction's certificate (null when exempt from before it was kept). */
  taxExemptCertificate: string | null;
  cashierName: string | null;
  customerName: string | null;
  lines: ReceiptLine[];
  subtotal: Cents;
  discount: Cents;
  tax: Cents;
  total: Cents;
  payments: ReceiptPayment[];
  amountPaid: Cents;
  balanceDue: Cents;
  /** Σ change given (cash). */
  change: Cents;
}

/** The receipt's content: consumables removed, payments normalised. */
export function buildReceipt(input: ReceiptInput): Receipt {
  const lines = input.lines.filter((line) => !line.isConsumable).map((line) => ({
    description: line.description,
    quantity: line.quantity,
    unitPrice: line.unitPriceCents,
    amount: line.amountCents ?? line.quantity * line.unitPriceCents,
  }));
  const payments = input.payments.map((p) => ({
    method: p.method,
    amount: p.amountCents,
    tendered: p.tenderedCents ?? p.amountCents,
    change: p.changeCents ?? 0,
    reference: p.reference ?? null,
  }));
  const amountPaid = sumCents(payments.map((p) => p.amount));
  const tx = input.transaction;
  return {
    store: input.store,
    locationName: input.locationName ?? null,
    transactionId: tx.id,
    receiptNumber: formatReceiptNumber(tx.number),
    type: tx.type,
    status: tx.status,
    at: tx.at,
    localTime: storeLocalDateTime(tx.at, input.timeZone),
    originalTransactionId: tx.originalTransactionId ?? null,
    originalReceiptNumber: tx.originalNumber == null
      ? null
      : formatReceiptNumber(tx.originalNumber),
    refundReason: tx.type === "refund" ? tx.reason ?? null : null,
    repair: input.repair ?? null,
    taxExempt: tx.taxExempt ?? false,
    taxExemptCertificate: tx.taxExempt ? tx.taxExemptCertificate ?? null : null,
    cashierName: input.cashierName ?? null,
    customerName: input.customerName ?? null,
    lines,
    subtotal: input.totals.subtotalCents,
    discount: input.totals.discountTotalCents,
    tax: input.totals.taxTotalCents,
    total: input.totals.totalCents,
    payments,
    amountPaid,
    balanceDue: input.totals.totalCents - amountPaid,
    change: sumCents(payments.map((p) => p.change)),
  };
}

/** How each payment method is printed. */
export const METHOD_LABELS: Record<PaymentMethod, string> = {
  cash: "Cash",
  card: "Card",
  check: "Check",
  store_credit: "Store credit",
  other: "Other",
};

/** The receipt's title by transaction type. */
export const TYPE_TITLES: Record<TransactionType, string> = {
  sale: "SALE",
  repair_payment: "REPAIR PAYMENT",
  rental_payment: "RENTAL PAYMENT",
  refund: "REFUND",
};

/** An amount as printed: its magnitude (the label says which way it goes; see the top). */
export function printedMoney(cents: Cents): string {
  return formatMoney(Math.abs(cents));
}

/** The label of the receipt's total: a refund's total is paid back. */
export function totalLabel(receipt: Pick<Receipt, "type">): string {
  return receipt.type === "refund" ? "TOTAL REFUNDED" : "TOTAL";
}

/** The label of a payment: on a refund's receipt, the money paid back that way. */
export function paymentLabel(receipt: Pick<Receipt, "type">, method: PaymentMethod): string {
  const label = METHOD_LABELS[method] ?? method;
  return receipt.type === "refund" ? `${label} refund` : label;
}

/** The status mark printed under the title (none for a complete transaction). */
export function statusMark(status: TransactionStatus): string | null {
  if (status === "voided") return "*** VOIDED ***";
  if (status === "pending") return "*** NOT COMPLETED ***";
  return null;
}

/**
 * Renders the receipt as plain text, every line at most `w` (default 40) characters,
 * lines separated by "\n" and ending with one.
 */
export function renderReceiptText(receipt: Receipt, w = RECEIPT_WIDTH): string {
  assertPrintWidth(w, "Receipt");
  const out: string[] = storeHeaderRows(receipt.store, w);
  const rule = "-".repeat(w);
  if (receipt.locationName) out.push(centerText(receipt.locationName, w));
  out.push("");
  out.push(centerText(TYPE_TITLES[receipt.type], w));
  const mark = statusMark(receipt.status);
  if (mark) out.push(centerText(mark, w));
  out.push(cutText(receipt.localTime, w));
  out.push(cutText(`No. ${receipt.receiptNumber}`, w));
  if (receipt.originalReceiptNumber) {
    out.push(cutText(`Refund of ${receipt.originalReceiptNumber}`, w));
  }
  if (cleanText(receipt.refundReason)) {
    out.push(...wrapText(`Reason: ${receipt.refundReason}`, w, MAX_REASON_ROWS));
  }
  if (cleanText(receipt.cashierName)) {
    out.push(cutText(`Cashier: ${cleanText(receipt.cashierName)}`, w));
  }
  if (cleanText(receipt.customerName)) {
    out.push(cutText(`Customer: ${cleanText(receipt.customerName)}`, w));
  }
  if (receipt.repair) {
    out.push(cutText(`Repair ${receipt.repair.ticketNumber}`, w));
    out.push(...wrapText(`Item: ${receipt.repair.itemDescription}`, w, MAX_ITEM_ROWS));
    if (cleanText(receipt.repair.serialNumber)) {
      out.push(cutText(`Serial: ${cleanText(receipt.repair.serialNumber)}`, w));
    }
  }
  out.push(rule);

  for (const line of receipt.lines) {
    const amount = printedMoney(line.amount);
    if (line.quantity === 1) {
      // Description and amount side by side; the description wraps in the left column.
      const rows = wrapText(line.description, w - textWidth(amount) - 1, MAX_DESCRIPTION_ROWS);
      rows.forEach((text, i) => out.push(i === 0 ? leftRight(text, amount, w) : text));
      if (rows.length === 0) out.push(leftRight("", amount, w));
    } else {
      for (const text of wrapText(line.description, w, MAX_DESCRIPTION_ROWS)) out.push(text);
      out.push(leftRight(`  ${line.quantity} x ${printedMoney(line.unitPrice)}`, amount, w));
    }
  }
  out.push(rule);
  out.push(leftRight("Subtotal", printedMoney(receipt.subtotal), w));
  if (receipt.discount !== 0) {
    out.push(leftRight("Discount", printedMoney(receipt.discount), w));
  }
  out.push(leftRight("Tax", printedMoney(receipt.tax), w));
  const exemption = taxExemptionNote(receipt);
  if (exemption) out.push(...wrapText(exemption, w, MAX_EXEMPTION_ROWS));
  out.push(leftRight(totalLabel(receipt), printedMoney(receipt.total), w));
  out.push(rule);
  for (const payment of receipt.payments) {
    out.push(leftRight(paymentLabel(receipt, payment.method), printedMoney(payment.amount), w));
    if (payment.method === "cash" && payment.tendered !== payment.amount) {
      out.push(leftRight("  Tendered", printedMoney(payment.tendered), w));
    }
    if (cleanText(payment.reference)) out.push(cutText(`  Ref ${cleanText(payment.reference)}`, w));
  }
  if (showsChange(receipt)) out.push(leftRight("Change", printedMoney(receipt.change), w));
  if (receipt.balanceDue !== 0) {
    out.push(leftRight("Balance due", formatMoney(receipt.balanceDue), w));
  }
  out.push("");
  out.push(centerText(RECEIPT_FOOTER, w));
  return finishText(out);
}

export const RECEIPT_FOOTER = "Thank you!";

/**
 * Change is printed when change was given, or when cash was taken (a sale's "Change 0.00");
 * a refund pays out, so it shows none unless some was given.
 */
export function showsChange(receipt: Receipt): boolean {
  if (receipt.change !== 0) return true;
  return receipt.type !== "refund" && receipt.payments.some((p) => p.method === "cash");
}

/** "Tax exempt, certificate EX-123" under the tax of a tax-exempt receipt; null otherwise. */
export function taxExemptionNote(receipt: Receipt): string | null {
  if (!receipt.taxExempt) return null;
  const certificate = cleanText(receipt.taxExemptCertificate);
  return certificate ? `Tax exempt, certificate ${certificate}` : "Tax exempt";
}
