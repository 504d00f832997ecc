/**
 * POS report fixtures for the domain/pos tests, tests/pos/report_json_test.ts and
 * bench/pos_bench.ts: a hand-made session with its transactions (sale, repair payment, voided
 * sale, refund), one-cash-sale drawer reports, and realistic drawer sessions built with the real
 * totals, payment and refund rules, plus the raw figures a report must reconcile with.
 */
import fc from "fast-check";
import {
  buildDrawerReport,
  type DrawerReport,
  type ReportAdjustment,
  type ReportSession,
  type ReportTransaction,
  type TransactionStatus,
} from "../../domain/pos/drawer_report.ts";
import { computeRefund } from "../../domain/pos/refunds.ts";
import {
  computeTotals,
  type OrderDiscount,
  PAYMENT_METHODS,
  type PaymentMethod,
  preparePayment,
  type TaxRates,
  type TotalsLineInput,
} from "../../domain/pos/transaction_totals.ts";

// ---------------------------------------------------------------- hand-made figures

export const OPENED = new Date("2026-11-21T14:00:00.000Z");
export const NOW = new Date("2026-11-21T18:00:00.000Z");

/** An open session "s1" opened at `OPENED` with 100.00 in the drawer. */
export function session(overrides: Partial<ReportSession> = {}): ReportSession {
  return {
    id: "s1",
    registerId: "r1",
    locationId: "l1",
    status: "open",
    openingBalanceCents: 10_000,
    openedAt: OPENED,
    ...overrides,
  };
}

export const SALE: ReportTransaction = {
  id: "t1",
  type: "sale",
  status: "complete",
  number: 1234,
  discount: { kind: "percent", value: 1000 },
  lines: [
    { grossCents: 2000, discountCents: 200, netCents: 1800, taxCents: 144 },
    { grossCents: 500, discountCents: 0, netCents: 500, taxCents: 0, isConsumable: true },
  ],
  // Cash 20.00 tendered for 19.44 → amount 19.44 (change 0.56 already netted out).
  payments: [{ method: "cash", amountCents: 1944 }],
};

export const REPAIR: ReportTransaction = {
  id: "t2",
  type: "repair_payment",
  status: "complete",
  lines: [{ grossCents: 5000, discountCents: 0, netCents: 5000, taxCents: 0 }],
  payments: [{ method: "card", amountCents: 3000 }, { method: "cash", amountCents: 2000 }],
};

export const VOIDED: ReportTransaction = {
  id: "t3",
  type: "sale",
  status: "voided",
  lines: [{ grossCents: 9999, discountCents: 0, netCents: 9999, taxCents: 800 }],
  payments: [{ method: "cash", amountCents: 10_799 }],
};

export const REFUND: ReportTransaction = {
  id: "t4",
  type: "refund",
  status: "complete",
  lines: [{ grossCents: 0, discountCents: 0, netCents: -900, taxCents: -72 }],
  payments: [{ method: "cash", amountCents: -972 }],
};

/**
 * A builder of drawer reports generated (and, for closed sessions, closed) at `at`: each one a
 * session `id` with one cash sale of `cashSale` cents, closed with `closing` or open.
 */
export function cashSessionReports(at: Date) {
  return (
    id: string,
    status: "open" | "closed",
    opening: number,
    cashSale: number,
    closing?: number,
  ): DrawerReport =>
    buildDrawerReport({
      session: session({
        id,
        registerId: `${id}-r`,
        status,
        openingBalanceCents: opening,
        closingBalanceCents: closing ?? null,
        openedAt: new Date(`2026-11-21T1${id.length}:00:00.000Z`),
        closedAt: status === "closed" ? at : null,
      }),
      transactions: [{
        id: `${id}-t`,
        type: "sale",
        status: "complete",
        lines: [{ grossCents: cashSale, discountCents: 0, netCents: cashSale, taxCents: 0 }],
        payments: [{ method: "cash", amountCents: cashSale }],
      }],
      adjustments: [],
      generatedAt: at,
    });
}

// ---------------------------------------------------------------- generated sessions

export interface SaleSpec {
  type: "sale" | "repair_payment";
  status: TransactionStatus;
  lines: TotalsLineInput[];
  discount: OrderDiscount | null;
  taxExempt: boolean;
  /** Tender split: each entry a method, a share (1–100) and extra cash handed over. */
  tenders: { method: PaymentMethod; share: number; extra: number }[];
  /** Per line, how many units to refund later (0 = none); refunded only if complete. */
  refundUnits: number[];
  refundMethod: PaymentMethod;
  /** Refunds stored as negative amounts (as the refund transaction does) or positive. */
  negativeRefund: boolean;
  refundVoided: boolean;
}

export interface SessionSpec {
  id: string;
  status: "open" | "closed";
  openingBalanceCents: number;
  closingDelta: number;
  taxRates: TaxRates;
  sales: SaleSpec[];
  adjustments: { direction: "in" | "out"; amountCents: number }[];
}

/** What the report must equal, worked out straight from the raw data. */
export interface ExpectedFigures {
  transactionCount: number;
  grossSales: number;
  discounts: number;
  refunds: number;
  taxCollected: number;
  taxRefunded: number;
  cashTendered: number;
  cashChange: number;
  cashRefunds: number;
  adjustmentsIn: number;
  adjustmentsOut: number;
}

export interface BuiltSession {
  session: ReportSession;
  transactions: ReportTransaction[];
  adjustments: ReportAdjustment[];
  expected: ExpectedFigures;
}

const BASE_TIME = Date.UTC(2026, 10, 21, 14, 0, 0);

/** Turns a spec into report inputs, running the real rules for totals, payments and refunds. */
export function buildSession(spec: SessionSpec): BuiltSession {
  const transactions: ReportTransaction[] = [];
  const expected: ExpectedFigures = {
    transactionCount: 0,
    grossSales: 0,
    discounts: 0,
    refunds: 0,
    taxCollected: 0,
    taxRefunded: 0,
    cashTendered: 0,
    cashChange: 0,
    cashRefunds: 0,
    adjustmentsIn: 0,
    adjustmentsOut: 0,
  };
  spec.sales.forEach((sale, s) => {
    const totals = computeTotals({
      lines: sale.lines,
      discount: sale.discount,
      taxRates: spec.taxRates,
      taxExempt: sale.taxExempt,
    });
    const payments: { method: PaymentMethod; amountCents: number }[] = [];
    let balance = totals.totalCents;
    const counted = sale.status === "complete";
    sale.tenders.forEach((tender, i) => {
      if (balance === 0) return;
      const last = i === sale.tenders.length - 1;
      const amount = last ? balance : Math.max(1, Math.floor((balance * tender.share) / 100));
      const payment = preparePayment(
        { method: tender.method, amountCents: amount, tenderedCents: amount + tender.extra },
        balance,
      );
      balance -= payment.amountCents;
      payments.push({ method: payment.method, amountCents: payment.amountCents });
      if (counted && payment.method === "cash") {
        expected.cashTendered += payment.tenderedCents;
        expected.cashChange += payment.changeCents;
      }
    });
    // A complete transaction always has balanceDue 0; make sure even without tenders.
    if (balance !== 0) {
      payments.push({ method: "card", amountCents: balance });
      balance = 0;
    }
    const id = `${spec.id}-tx-${s}`;
    transactions.push({
      id,
      type: sale.type,
      status: sale.status,
      discount: sale.discount,
      lines: totals.lines.map((l, i) => ({
        grossCents: l.grossCents,
        discountCents: l.discountCents,
        netCents: l.netCents,
        taxCents: l.taxCents,
        isConsumable: sale.lines[i]?.isConsumable ?? false,
      })),
      payments,
    });
    if (counted) {
      expected.transactionCount += 1;
      expected.grossSales += totals.subtotalCents;
      expected.discounts += totals.discountTotalCents;
      expected.taxCollected += totals.taxTotalCents;
    }
    // A refund of some units of a complete sale.
    const request = sale.refundUnits.flatMap((units, i) => {
      const line = sale.lines[i];
      if (!line || line.isConsumable || units <= 0) return [];
      return [{ itemId: `${id}-item-${i}`, quantity: Math.min(units, line.quantity) }];
    });
    if (counted && request.length > 0) {
      const refund = computeRefund(
        totals.lines.map((l, i) => ({
          itemId: `${id}-item-${i}`,
          quantity: sale.lines[i]?.quantity ?? 1,
          netCents: l.netCents,
          taxCents: l.taxCents,
        })),
        request,
      );
      const sign = sale.negativeRefund ? -1 : 1;
      transactions.push({
        id: `${id}-refund`,
        type: "refund",
        status: sale.refundVoided ? "voided" : "complete",
        lines: refund.lines.map((l) => ({
          grossCents: 0,
          discountCents: 0,
          netCents: (sign * l.netCents) + 0,
          taxCents: (sign * l.taxCents) + 0,
        })),
        payments: refund.totalCents === 0
          ? []
          : [{ method: sale.refundMethod, amountCents: sign * refund.totalCents }],
      });
      if (!sale.refundVoided) {
        expected.refunds += refund.netCents;
        expected.taxRefunded += refund.taxCents;
        if (sale.refundMethod === "cash") expected.cashRefunds += refund.totalCents;
      }
    }
  });
  const adjustments: ReportAdjustment[] = spec.adjustments.map((a, i) => ({
    id: `${spec.id}-adj-${i}`,
    direction: a.direction,
    amountCents: a.amountCents,
    reason: `reason ${i}`,
    createdAt: new Date(BASE_TIME + (spec.adjustments.length - i) * 60_000),
  }));
  for (const a of spec.adjustments) {
    if (a.direction === "in") expected.adjustmentsIn += a.amountCents;
    else expected.adjustmentsOut += a.amountCents;
  }
  const expectedBalance = spec.openingBalanceCents + expected.cashTendered - expected.cashChange -
    expected.cashRefunds + expected.adjustmentsIn - expected.adjustmentsOut;
  return {
    session: {
      id: spec.id,
      registerId: `${spec.id}-register`,
      locationId: "location-1",
      status: spec.status,
      openingBalanceCents: spec.openingBalanceCents,
      closingBalanceCents: spec.status === "closed" ? expectedBalance + spec.closingDelta : null,
      openedAt: new Date(BASE_TIME),
      closedAt: spec.status === "closed" ? new Date(BASE_TIME + 8 * 3_600_000) : null,
    },
    transactions,
    adjustments,
    expected,
  };
}

const lineArb: fc.Arbitrary<TotalsLineInput> = fc.record({
  kind: fc.constantFrom("sale" as const, "labor" as const, "part" as const),
  quantity: fc.integer({ min: 1, max: 6 }),
  unitPriceCents: fc.integer({ min: 0, max: 200_000 }),
  taxCategory: fc.constantFrom("goods" as const, "service" as const),
  isConsumable: fc.integer({ min: 0, max: 6 }).map((n) => n === 0),
});

export const saleSpecArb: fc.Arbitrary<SaleSpec> = fc.record({
  type: fc.constantFrom("sale" as const, "repair_payment" as const),
  status: fc.constantFrom(
    "complete" as const,
    "complete" as const,
    "complete" as const,
    "voided" as const,
    "pending" as const,
  ),
  lines: fc.array(lineArb, { minLength: 1, maxLength: 5 }),
  discount: fc.oneof(
    fc.constant(null),
    fc.record({
      kind: fc.constant("percent" as const),
      value: fc.integer({ min: 0, max: 10_000 }),
    }),
    fc.record({
      kind: fc.constant("amount" as const),
      value: fc.integer({ min: 0, max: 100_000 }),
    }),
  ),
  taxExempt: fc.boolean(),
  tenders: fc.array(
    fc.record({
      method: fc.constantFrom(...PAYMENT_METHODS),
      share: fc.integer({ min: 1, max: 100 }),
      extra: fc.integer({ min: 0, max: 5_000 }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  refundUnits: fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 5 }),
  refundMethod: fc.constantFrom(...PAYMENT_METHODS),
  negativeRefund: fc.boolean(),
  refundVoided: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
});

export function sessionSpecArb(id: string, maxSales = 12): fc.Arbitrary<SessionSpec> {
  return fc.record({
    id: fc.constant(id),
    status: fc.constantFrom("open" as const, "closed" as const),
    openingBalanceCents: fc.integer({ min: 0, max: 50_000 }),
    closingDelta: fc.integer({ min: -2_000, max: 2_000 }),
    taxRates: fc.record({
      goods: fc.integer({ min: 0, max: 1_500 }),
      service: fc.integer({ min: 0, max: 1_500 }),
    }),
    sales: fc.array(saleSpecArb, { maxLength: maxSales }),
    adjustments: fc.array(
      fc.record({
        direction: fc.constantFrom("in" as const, "out" as const),
        amountCents: fc.integer({ min: 1, max: 20_000 }),
      }),
      { maxLength: 4 },
    ),
  });
}
