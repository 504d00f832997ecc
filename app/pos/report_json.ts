/**
 * The wire shapes of the drawer report (`GET /drawers/:id/report`, the Z report frozen at
 * close) and the daily report (`GET /reports/daily`), built from the pure reports of
 * `domain/pos/drawer_report.ts` and `daily_report.ts` (API §1.2: money as "12.34" strings,
 * timestamps as ISO 8601 UTC).
 */
import type { DailyReport } from "../../domain/pos/daily_report.ts";
import type {
  AdjustmentDirection,
  AdjustmentEntry,
  CashAccountability,
  DiscountEntry,
  DrawerReport,
  DrawerSessionStatus,
  NamedRef,
  PaymentBreakdownRow,
  ReportFigures,
  SalesSummary,
  VoidsSummary,
} from "../../domain/pos/drawer_report.ts";
import type { OrderDiscount, PaymentMethod } from "../../domain/pos/transaction_totals.ts";
import { type Cents, formatMoney, formatPercent } from "../../domain/money.ts";

export interface SalesSummaryJson {
  transactionCount: number;
  grossSales: string;
  discounts: string;
  refunds: string;
  netSales: string;
  tax: string;
  total: string;
}

export interface CashAccountabilityJson {
  openingBalance: string;
  cashSales: string;
  cashRefunds: string;
  adjustmentsIn: string;
  adjustmentsOut: string;
  expectedBalance: string;
  closingBalance: string | null;
  overShort: string | null;
}

export interface VoidsJson {
  count: number;
  amount: string;
  byCashier: { cashier: NamedRef | null; count: number; amount: string }[];
}

/** The figures both reports hold, as the API returns them. */
export interface ReportFiguresJson {
  salesSummary: SalesSummaryJson;
  paymentBreakdown: { method: PaymentMethod; count: number; amount: string }[];
  discounts: {
    transactionId: string;
    receiptNumber: string | null;
    kind: OrderDiscount["kind"] | null;
    value: string | null;
    amount: string;
  }[];
  cashAccountability: CashAccountabilityJson;
  adjustments: {
    id: string;
    direction: AdjustmentDirection;
    amount: string;
    reason: string;
    createdAt: string;
    createdBy: string | null;
    approvedBy: string | null;
  }[];
  voids: VoidsJson;
}

export interface DrawerReportJson extends ReportFiguresJson {
  kind: "X" | "Z";
  sessionId: string;
  registerId: string | null;
  register: NamedRef | null;
  cashier: NamedRef | null;
  locationId: string | null;
  status: DrawerSessionStatus;
  openedAt: string;
  closedAt: string | null;
  generatedAt: string;
}

function figuresToJson(report: ReportFigures): ReportFiguresJson {
  return {
    salesSummary: salesSummaryToJson(report.salesSummary),
    paymentBreakdown: paymentBreakdownToJson(report.paymentBreakdown),
    discounts: discountEntriesToJson(report.discounts),
    cashAccountability: cashAccountabilityToJson(report.cashAccountability),
    adjustments: adjustmentEntriesToJson(report.adjustments),
    voids: voidsToJson(report.voids),
  };
}

function voidsToJson(voids: VoidsSummary): VoidsJson {
  return {
    count: voids.count,
    amount: formatMoney(voids.amount),
    byCashier: voids.byCashier.map((row) => ({
      cashier: row.cashier,
      count: row.count,
      amount: formatMoney(row.amount),
    })),
  };
}

function nullableMoney(value: Cents | null): string | null {
  return value === null ? null : formatMoney(value);
}

function salesSummaryToJson(summary: SalesSummary): SalesSummaryJson {
  return {
    transactionCount: summary.transactionCount,
    grossSales: formatMoney(summary.grossSales),
    discounts: formatMoney(summary.discounts),
    refunds: formatMoney(summary.refunds),
    netSales: formatMoney(summary.netSales),
    tax: formatMoney(summary.tax),
    total: formatMoney(summary.total),
  };
}

function cashAccountabilityToJson(cash: CashAccountability): CashAccountabilityJson {
  return {
    openingBalance: formatMoney(cash.openingBalance),
    cashSales: formatMoney(cash.cashSales),
    cashRefunds: formatMoney(cash.cashRefunds),
    adjustmentsIn: formatMoney(cash.adjustmentsIn),
    adjustmentsOut: formatMoney(cash.adjustmentsOut),
    expectedBalance: formatMoney(cash.expectedBalance),
    closingBalance: nullableMoney(cash.closingBalance),
    overShort: nullableMoney(cash.overShort),
  };
}

function paymentBreakdownToJson(
  rows: readonly PaymentBreakdownRow[],
): DrawerReportJson["paymentBreakdown"] {
  return rows.map((r) => ({ method: r.method, count: r.count, amount: formatMoney(r.amount) }));
}

function discountEntriesToJson(
  entries: readonly DiscountEntry[],
): DrawerReportJson["discounts"] {
  return entries.map((d) => ({
    transactionId: d.transactionId,
    receiptNumber: d.receiptNumber,
    kind: d.kind,
    value: d.value === null
      ? null
      : d.kind === "percent"
      ? formatPercent(d.value)
      : formatMoney(d.value),
    amount: formatMoney(d.amount),
  }));
}

function adjustmentEntriesToJson(
  entries: readonly AdjustmentEntry[],
): DrawerReportJson["adjustments"] {
  return entries.map((a) => ({
    id: a.id,
    direction: a.direction,
    amount: formatMoney(a.amount),
    reason: a.reason,
    createdAt: a.createdAt.toISOString(),
    createdBy: a.createdBy,
    approvedBy: a.approvedBy,
  }));
}

/** The report as the API returns it. */
export function drawerReportToJson(report: DrawerReport): DrawerReportJson {
  return {
    kind: report.kind,
    sessionId: report.sessionId,
    registerId: report.registerId,
    register: report.register,
    cashier: report.cashier,
    locationId: report.locationId,
    status: report.status,
    openedAt: report.openedAt.toISOString(),
    closedAt: report.closedAt ? report.closedAt.toISOString() : null,
    generatedAt: report.generatedAt.toISOString(),
    ...figuresToJson(report),
  };
}

export interface DailySessionRowJson {
  sessionId: string;
  registerId: string | null;
  register: NamedRef | null;
  cashier: NamedRef | null;
  kind: "X" | "Z";
  status: DrawerSessionStatus;
  openedAt: string;
  closedAt: string | null;
  transactionCount: number;
  total: string;
  openingBalance: string;
  expectedBalance: string;
  closingBalance: string | null;
  overShort: string | null;
}

export interface DailyReportJson extends ReportFiguresJson {
  locationId: string;
  date: string;
  generatedAt: string;
  sessions: DailySessionRowJson[];
}

/** The daily report as the API returns it. */
export function dailyReportToJson(report: DailyReport): DailyReportJson {
  return {
    locationId: report.locationId,
    date: report.date,
    generatedAt: report.generatedAt.toISOString(),
    ...figuresToJson(report),
    sessions: report.sessions.map((s) => ({
      sessionId: s.sessionId,
      registerId: s.registerId,
      register: s.register,
      cashier: s.cashier,
      kind: s.kind,
      status: s.status,
      openedAt: s.openedAt.toISOString(),
      closedAt: s.closedAt ? s.closedAt.toISOString() : null,
      transactionCount: s.transactionCount,
      total: formatMoney(s.total),
      openingBalance: formatMoney(s.openingBalance),
      expectedBalance: formatMoney(s.expectedBalance),
      closingBalance: s.closingBalance === null ? null : formatMoney(s.closingBalance),
      overShort: s.overShort === null ? null : formatMoney(s.overShort),
    })),
  };
}
