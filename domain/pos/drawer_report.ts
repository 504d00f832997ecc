/**
 * The drawer report of API §8 (`GET /drawers/:id/report`, and the Z report frozen at close),
 * built from plain inputs. All amounts are integer cents; the wire shape (money strings, ISO
 * timestamps) is built by `app/pos/report_json.ts`.
 *
 * Definitions (API §8):
 * - Counted transactions = `complete` transactions of type `sale`, `repair_payment` or
 *   `rental_payment`.
 *   Refund transactions (type `refund`, status `complete`) are refunds. Voided (and pending)
 *   transactions count nowhere: not in counts, sums, payments or cash.
 * - `transactionCount` = number of counted transactions.
 * - `grossSales` = Σ gross (quantity × unit price, before discount, before tax) of their
 *   customer-facing lines (consumable lines never count).
 * - `discounts` = Σ their line discounts; `refunds` = Σ net (pre-tax, after discount)
 *   refunded by refund transactions; both positive magnitudes.
 * - `netSales` = grossSales − discounts − refunds.
 * - `tax` = tax collected on counted transactions − tax refunded.
 * - `total` = netSales + tax.
 * - `paymentBreakdown`: one row per payment method used (in `PAYMENT_METHODS` order):
 *   `count` = payments taken on counted transactions + refund payouts with that method;
 *   `amount` = Σ amounts taken − Σ amounts paid out. The amount of a payment is what it
 *   applied to the balance (for cash: tendered − change), so Σ amount = `total` whenever every
 *   counted transaction was fully paid and every refund fully paid out.
 * - `cashAccountability`: `cashSales` = Σ cash payment amounts on counted transactions (cash
 *   taken net of change given), `cashRefunds` = Σ cash refund payouts (positive),
 *   `adjustmentsIn`/`adjustmentsOut` = Σ drawer adjustments by direction,
 *   `expectedBalance` = opening + cashSales − cashRefunds + adjustmentsIn − adjustmentsOut,
 *   `closingBalance` and `overShort` = closing − expected on a closed session (Z), else null.
 * - `kind` = "X" while the session is open, "Z" once closed.
 * - `register` and `cashier` (who opened the session) name the session for people; `voids`
 *   counts the transactions voided in it (`void_summary.ts`), which count nowhere else.
 * - A discount entry carries the transaction's receipt number (`S-0001234`) when known.
 *
 * Amounts of refund transactions (lines and payouts) may be passed with either sign: their
 * magnitudes are used.
 */
import type { Cents } from "../money.ts";
import { sumCents } from "../money.ts";
import { formatReceiptNumber } from "./receipt_number.ts";
import { type OrderDiscount, PAYMENT_METHODS, type PaymentMethod } from "./transaction_totals.ts";
import type { TransactionStatus, TransactionType } from "./transaction_status.ts";
import {
  type NamedRef,
  type ReportVoid,
  summarizeVoids,
  type VoidsSummary,
} from "./void_summary.ts";

export type { TransactionStatus, TransactionType } from "./transaction_status.ts";
export type { NamedRef, ReportVoid, VoidsByCashier, VoidsSummary } from "./void_summary.ts";
export type DrawerSessionStatus = "open" | "closed";
export type AdjustmentDirection = "in" | "out";

export interface ReportSession {
  id: string;
  registerId?: string | null;
  locationId?: string | null;
  status: DrawerSessionStatus;
  openingBalanceCents: Cents;
  /** Required once closed. */
  closingBalanceCents?: Cents | null;
  openedAt: Date;
  closedAt?: Date | null;
  /** The register and its name. */
  register?: NamedRef | null;
  /** Who opened the session. */
  cashier?: NamedRef | null;
}

export interface ReportLine {
  grossCents: Cents;
  discountCents: Cents;
  netCents: Cents;
  taxCents: Cents;
  /** Consumable lines never count. */
  isConsumable?: boolean;
}

export interface ReportPayment {
  method: PaymentMethod;
  /** Applied to the balance (for cash: tendered − change); for a refund: the payout. */
  amountCents: Cents;
}

export interface ReportTransaction {
  id: string;
  type: TransactionType;
  status: TransactionStatus;
  lines: readonly ReportLine[];
  payments: readonly ReportPayment[];
  /** The order discount as entered, for the discounts section. */
  discount?: OrderDiscount | null;
  /** Its sequence number (`transactions.number`): the receipt number of a discount entry. */
  number?: number | null;
}

export interface ReportAdjustment {
  id: string;
  direction: AdjustmentDirection;
  amountCents: Cents;
  reason: string;
  createdAt: Date;
  createdBy?: string | null;
  /** The manager who approved it (override), if any. */
  approvedBy?: string | null;
}

export interface SalesSummary {
  transactionCount: number;
  grossSales: Cents;
  discounts: Cents;
  refunds: Cents;
  netSales: Cents;
  tax: Cents;
  total: Cents;
}

export interface PaymentBreakdownRow {
  method: PaymentMethod;
  count: number;
  amount: Cents;
}

export interface DiscountEntry {
  transactionId: string;
  /** `S-0001234`; null when the transaction's number was not passed. */
  receiptNumber: string | null;
  /** null when the lines carry a discount but the order discount was not passed. */
  kind: OrderDiscount["kind"] | null;
  /** Basis points for percent, cents for amount; null with `kind` null. */
  value: number | null;
  /** Discount actually taken, in cents. */
  amount: Cents;
}

export interface CashAccountability {
  openingBalance: Cents;
  cashSales: Cents;
  cashRefunds: Cents;
  adjustmentsIn: Cents;
  adjustmentsOut: Cents;
  expectedBalance: Cents;
  closingBalance: Cents | null;
  overShort: Cents | null;
}

export interface AdjustmentEntry {
  id: string;
  direction: AdjustmentDirection;
  amount: Cents;
  reason: string;
  createdAt: Date;
  createdBy: string | null;
  approvedBy: string | null;
}

/** The figures a drawer report and a daily report both hold. */
export interface ReportFigures {
  salesSummary: SalesSummary;
  paymentBreakdown: PaymentBreakdownRow[];
  discounts: DiscountEntry[];
  cashAccountability: CashAccountability;
  adjustments: AdjustmentEntry[];
  voids: VoidsSummary;
}

export interface DrawerReport extends ReportFigures {
  kind: "X" | "Z";
  sessionId: string;
  registerId: string | null;
  register: NamedRef | null;
  cashier: NamedRef | null;
  locationId: string | null;
  status: DrawerSessionStatus;
  openedAt: Date;
  closedAt: Date | null;
  generatedAt: Date;
}

export interface DrawerReportInput {
  session: ReportSession;
  /** The session's transactions (any status; voided and pending ones are ignored). */
  transactions: readonly ReportTransaction[];
  adjustments: readonly ReportAdjustment[];
  /** The transactions voided in the session (see `void_summary.ts`). */
  voids?: readonly ReportVoid[];
  generatedAt: Date;
}

/** Whether a transaction counts as a sale in reports (complete sale, repair or rental payment). */
export function isCountedSale(tx: Pick<ReportTransaction, "type" | "status">): boolean {
  return tx.status === "complete" &&
    (tx.type === "sale" || tx.type === "repair_payment" || tx.type === "rental_payment");
}

/** Whether a transaction is a refund that counts in reports (complete refund). */
export function isCountedRefund(tx: Pick<ReportTransaction, "type" | "status">): boolean {
  return tx.status === "complete" && tx.type === "refund";
}

/** Sorts payment rows by the canonical method order. */
function breakdownRows(
  byMethod: Map<PaymentMethod, { count: number; amount: Cents }>,
): PaymentBreakdownRow[] {
  const known = PAYMENT_METHODS.filter((m) => byMethod.has(m));
  const others = [...byMethod.keys()].filter((m) => !PAYMENT_METHODS.includes(m)).sort();
  return [...known, ...others].map((method) => {
    const row = byMethod.get(method) as { count: number; amount: Cents };
    return { method, count: row.count, amount: row.amount };
  });
}

/** Builds the X (open session) or Z (closed session) report. */
export function buildDrawerReport(input: DrawerReportInput): DrawerReport {
  const { session, transactions, adjustments, generatedAt } = input;
  let transactionCount = 0;
  let grossSales = 0;
  let discounts = 0;
  let taxCollected = 0;
  let refunds = 0;
  let taxRefunded = 0;
  let cashSales = 0;
  let cashRefunds = 0;
  const byMethod = new Map<PaymentMethod, { count: number; amount: Cents }>();
  const discountEntries: DiscountEntry[] = [];

  function addPayment(method: PaymentMethod, amount: Cents): void {
    const row = byMethod.get(method) ?? { count: 0, amount: 0 };
    row.count += 1;
    row.amount += amount;
    byMethod.set(method, row);
  }

  for (const tx of transactions) {
    const lines = tx.lines.filter((line) => !line.isConsumable);
    if (isCountedSale(tx)) {
      transactionCount += 1;
      grossSales += sumCents(lines.map((l) => l.grossCents));
      const discount = sumCents(lines.map((l) => l.discountCents));
      discounts += discount;
      taxCollected += sumCents(lines.map((l) => l.taxCents));
      for (const payment of tx.payments) {
        addPayment(payment.method, payment.amountCents);
        if (payment.method === "cash") cashSales += payment.amountCents;
      }
      if (discount !== 0) {
        discountEntries.push({
          transactionId: tx.id,
          receiptNumber: tx.number == null ? null : formatReceiptNumber(tx.number),
          kind: tx.discount?.kind ?? null,
          value: tx.discount?.value ?? null,
          amount: discount,
        });
      }
    } else if (isCountedRefund(tx)) {
      refunds += sumCents(lines.map((l) => Math.abs(l.netCents)));
      taxRefunded += sumCents(lines.map((l) => Math.abs(l.taxCents)));
      for (const payment of tx.payments) {
        const payout = Math.abs(payment.amountCents);
        addPayment(payment.method, 0 - payout);
        if (payment.method === "cash") cashRefunds += payout;
      }
    }
  }

  const netSales = grossSales - discounts - refunds;
  const tax = taxCollected - taxRefunded;
  const sortedAdjustments = [...adjustments].sort((a, b) =>
    a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
  const adjustmentsIn = sumCents(
    sortedAdjustments.filter((a) => a.direction === "in").map((a) => Math.abs(a.amountCents)),
  );
  const adjustmentsOut = sumCents(
    sortedAdjustments.filter((a) => a.direction === "out").map((a) => Math.abs(a.amountCents)),
  );
  const opening = session.openingBalanceCents;
  const expectedBalance = opening + cashSales - cashRefunds + adjustmentsIn - adjustmentsOut;
  const closed = session.status === "closed";
  let closingBalance: Cents | null = null;
  if (closed) {
    if (session.closingBalanceCents === undefined || session.closingBalanceCents === null) {
      throw new RangeError(`Closed drawer session "${session.id}" has no closing balance`);
    }
    closingBalance = session.closingBalanceCents;
  }

  return {
    kind: closed ? "Z" : "X",
    sessionId: session.id,
    registerId: session.registerId ?? null,
    register: session.register ?? null,
    cashier: session.cashier ?? null,
    locationId: session.locationId ?? null,
    status: session.status,
    openedAt: session.openedAt,
    closedAt: session.closedAt ?? null,
    generatedAt,
    salesSummary: {
      transactionCount,
      grossSales,
      discounts,
      refunds,
      netSales,
      tax,
      total: netSales + tax,
    },
    paymentBreakdown: breakdownRows(byMethod),
    discounts: discountEntries,
    cashAccountability: {
      openingBalance: opening,
      cashSales,
      cashRefunds,
      adjustmentsIn,
      adjustmentsOut,
      expectedBalance,
      closingBalance,
      overShort: closingBalance === null ? null : closingBalance - expectedBalance,
    },
    adjustments: sortedAdjustments.map((a) => ({
      id: a.id,
      direction: a.direction,
      amount: Math.abs(a.amountCents),
      reason: a.reason,
      createdAt: a.createdAt,
      createdBy: a.createdBy ?? null,
      approvedBy: a.approvedBy ?? null,
    })),
    voids: summarizeVoids(input.voids ?? []),
  };
}
