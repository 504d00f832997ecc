/**
 * Receipts (API §8 `GET /transactions/:id/receipt`): `buildReceipt()` gives the receipt's
 * content (store header, lines, totals, payments, change) with consumable lines removed
 * (its wire shape is built by `app/pos/receipt_json.ts`), and `renderReceiptText()` the
 * printable plain-text form (`Accept: text/plain`), at most 40 columns per line by default.
 *
 * Text layout rules: the header is centred; a line of quantity 1 prints its description with
 * the amount on the right of its first row, other quantities print the description and then
 * `  qty x price` with the amount on the right; descriptions wrap at word boundaries (words longer than a row are cut)
 * to at most 3 rows, the last one ending in "..." if anything was left over; control
 * characters and runs of whitespace become one space. Amounts are right-aligned.
 */
import type { Cents } from "../money.ts";
import { formatMoney, sumCents } from "../money.ts";
import type { TransactionStatus, TransactionType } from "./transaction_status.ts";
import type { PaymentMethod } from "./transaction_totals.ts";
import { storeLocalDateTime } from "../calendar.ts";
import type { PostalAddress } from "../address.ts";

export const RECEIPT_WIDTH = 40;
const MAX_DESCRIPTION_ROWS = 3;

export type ReceiptAddress = PostalAddress;

export interface ReceiptStore {
  name: string;
  address?: ReceiptAddress | null;
  phone?: string | null;
  email?: string | null;
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
    type: TransactionType;
    status: TransactionStatus;
    /** completedAt, or createdAt while pending. */
    at: Date;
    originalTransactionId?: string | null;
  };
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
  type: TransactionType;
  status: TransactionStatus;
  at: Date;
  /** Store-local "YYYY-MM-DD HH:MM". */
  localTime: string;
  originalTransactionId: string | null;
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
  return {
    store: input.store,
    locationName: input.locationName ?? null,
    transactionId: input.transaction.id,
    type: input.transaction.type,
    status: input.transaction.status,
    at: input.transaction.at,
    localTime: storeLocalDateTime(input.transaction.at, input.timeZone),
    originalTransactionId: input.transaction.originalTransactionId ?? null,
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

// ---------------------------------------------------------------------------------------
// Text rendering

/** Control characters and whitespace runs → one space; trimmed. */
function clean(text: string | null | undefined): string {
  // deno-lint-ignore no-control-regex
  return (text ?? "").replace(/[\u0000-\u001f\u007f-\u009f\s]+/gu, " ").trim();
}

function chars(text: string): string[] {
  return Array.from(text);
}

function width(text: string): number {
  return chars(text).length;
}

function cut(text: string, max: number): string {
  const c = chars(text);
  return c.length <= max ? text : c.slice(0, Math.max(0, max)).join("");
}

function center(text: string, w: number): string {
  const t = cut(clean(text), w);
  const pad = Math.floor((w - width(t)) / 2);
  return " ".repeat(pad) + t;
}

/** `left` and `right` on one row of width `w`; `left` is cut to make room. */
function row(left: string, right: string, w: number): string {
  const r = cut(right, w);
  const room = w - width(r) - 1;
  if (room <= 0) return r.padStart(w);
  const l = cut(left, room);
  return l + " ".repeat(w - width(l) - width(r)) + r;
}

/** Word-wraps `text` into rows of at most `w` characters, at most `maxRows` rows. */
export function wrapText(text: string, w: number, maxRows = Infinity): string[] {
  if (!Number.isInteger(w) || w < 4) throw new RangeError("Wrap width must be at least 4");
  const words = clean(text).split(" ").filter((word) => word.length > 0);
  const rows: string[] = [];
  let current = "";
  for (let word of words) {
    while (width(word) > w) {
      // A word longer than a row: fill the current row, then cut the word.
      const room = current ? w - width(current) - 1 : w;
      if (room > 0) {
        const head = chars(word).slice(0, room).join("");
        rows.push(current ? `${current} ${head}` : head);
        word = chars(word).slice(room).join("");
      } else {
        rows.push(current);
      }
      current = "";
    }
    if (!current) current = word;
    else if (width(current) + 1 + width(word) <= w) current += ` ${word}`;
    else {
      rows.push(current);
      current = word;
    }
  }
  if (current) rows.push(current);
  if (rows.length > maxRows) {
    const kept = rows.slice(0, maxRows);
    const last = kept[maxRows - 1] as string;
    kept[maxRows - 1] = `${cut(last, w - 3)}...`;
    return kept;
  }
  return rows;
}

const METHOD_LABELS: Record<PaymentMethod, string> = {
  cash: "Cash",
  card: "Card",
  check: "Check",
  store_credit: "Store credit",
  other: "Other",
};

const TYPE_TITLES: Record<TransactionType, string> = {
  sale: "SALE",
  repair_payment: "REPAIR PAYMENT",
  rental_payment: "RENTAL PAYMENT",
  refund: "REFUND",
};

/**
 * Renders the receipt as plain text, every line at most `w` (default 40) characters,
 * lines separated by "\n" and ending with one.
 */
export function renderReceiptText(receipt: Receipt, w = RECEIPT_WIDTH): string {
  if (!Number.isInteger(w) || w < 20) throw new RangeError("Receipt width must be at least 20");
  const out: string[] = [];
  const rule = "-".repeat(w);
  const store = receipt.store;

  for (const text of wrapText(store.name, w, 2)) out.push(center(text, w));
  const address = store.address;
  if (address) {
    out.push(center(address.line1, w));
    if (clean(address.line2)) out.push(center(address.line2 ?? "", w));
    out.push(
      center(`${clean(address.city)}, ${clean(address.state)} ${clean(address.postalCode)}`, w),
    );
  }
  if (clean(store.phone)) out.push(center(store.phone ?? "", w));
  if (clean(store.email)) out.push(center(store.email ?? "", w));
  if (receipt.locationName) out.push(center(receipt.locationName, w));
  out.push("");
  out.push(center(TYPE_TITLES[receipt.type], w));
  if (receipt.status === "voided") out.push(center("*** VOIDED ***", w));
  if (receipt.status === "pending") out.push(center("*** NOT COMPLETED ***", w));
  out.push(cut(receipt.localTime, w));
  out.push(cut(`No. ${receipt.transactionId}`, w));
  if (receipt.originalTransactionId) {
    out.push(cut(`Refund of ${receipt.originalTransactionId}`, w));
  }
  if (clean(receipt.cashierName)) out.push(cut(`Cashier: ${clean(receipt.cashierName)}`, w));
  if (clean(receipt.customerName)) out.push(cut(`Customer: ${clean(receipt.customerName)}`, w));
  out.push(rule);

  for (const line of receipt.lines) {
    const amount = formatMoney(line.amount);
    if (line.quantity === 1) {
      // Description and amount side by side; the description wraps in the left column.
      const rows = wrapText(line.description, w - width(amount) - 1, MAX_DESCRIPTION_ROWS);
      rows.forEach((text, i) => out.push(i === 0 ? row(text, amount, w) : text));
      if (rows.length === 0) out.push(row("", amount, w));
    } else {
      for (const text of wrapText(line.description, w, MAX_DESCRIPTION_ROWS)) out.push(text);
      out.push(row(`  ${line.quantity} x ${formatMoney(line.unitPrice)}`, amount, w));
    }
  }
  out.push(rule);
  out.push(row("Subtotal", formatMoney(receipt.subtotal), w));
  if (receipt.discount !== 0) out.push(row("Discount", formatMoney(0 - receipt.discount), w));
  out.push(row("Tax", formatMoney(receipt.tax), w));
  out.push(row("TOTAL", formatMoney(receipt.total), w));
  out.push(rule);
  for (const payment of receipt.payments) {
    out.push(row(METHOD_LABELS[payment.method] ?? payment.method, formatMoney(payment.amount), w));
    if (payment.method === "cash" && payment.tendered !== payment.amount) {
      out.push(row("  Tendered", formatMoney(payment.tendered), w));
    }
    if (clean(payment.reference)) out.push(cut(`  Ref ${clean(payment.reference)}`, w));
  }
  if (receipt.payments.some((p) => p.method === "cash") || receipt.change !== 0) {
    out.push(row("Change", formatMoney(receipt.change), w));
  }
  if (receipt.balanceDue !== 0) out.push(row("Balance due", formatMoney(receipt.balanceDue), w));
  out.push("");
  out.push(center("Thank you!", w));
  return out.map((text) => text.replace(/\s+$/u, "")).join("\n") + "\n";
}
