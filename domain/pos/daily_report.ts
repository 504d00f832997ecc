/**
 * The daily report of API §8 (`GET /reports/daily?locationId=&date=`): the drawer report's
 * sections rolled up over the drawer sessions of one location on one store-local date, plus
 * one summary row per session.
 *
 * Which sessions belong to a date (`sessionCountsOnDate`): a closed session counts on the
 * store-local date it closed; an open session counts "as of now", i.e. on today's store-local
 * date. Every sum is the plain sum of the sessions' figures: sales summary, payment rows
 * (merged by method), cash figures including `expectedBalance`. `closingBalance` and
 * `overShort` are summed over the closed sessions only (null when none is closed), so with an
 * open session among them `overShort` ≠ `closingBalance − expectedBalance` by design. The
 * voids section merges the sessions' voids by cashier; each session row names its register
 * and cashier.
 */
import type { Cents } from "../money.ts";
import { sumCents } from "../money.ts";
import type { DrawerReport, DrawerSessionStatus, ReportFigures } from "./drawer_report.ts";
import { PAYMENT_METHODS, type PaymentMethod } from "./transaction_totals.ts";
import { mergeVoids, type NamedRef } from "./void_summary.ts";
import { storeLocalDate } from "../calendar.ts";

export interface DailySessionRow {
  sessionId: string;
  registerId: string | null;
  register: NamedRef | null;
  cashier: NamedRef | null;
  kind: "X" | "Z";
  status: DrawerSessionStatus;
  openedAt: Date;
  closedAt: Date | null;
  transactionCount: number;
  total: Cents;
  openingBalance: Cents;
  expectedBalance: Cents;
  closingBalance: Cents | null;
  overShort: Cents | null;
}

export interface DailyReport extends ReportFigures {
  locationId: string;
  date: string;
  generatedAt: Date;
  /** One row per session, in the order opened. */
  sessions: DailySessionRow[];
}

export interface DailyReportInput {
  locationId: string;
  /** Store-local `YYYY-MM-DD`. */
  date: string;
  generatedAt: Date;
  /** The drawer reports (X or Z) of the sessions that belong to the date. */
  sessions: readonly DrawerReport[];
}

/**
 * Whether a session belongs to the store-local `date`: closed sessions by the local date of
 * `closedAt`, open ones by the local date of `now`.
 */
export function sessionCountsOnDate(
  session: { status: DrawerSessionStatus; closedAt?: Date | null },
  date: string,
  timeZone: string,
  now: Date,
): boolean {
  if (session.status === "closed") {
    if (!session.closedAt) return false;
    return storeLocalDate(session.closedAt, timeZone) === date;
  }
  return storeLocalDate(now, timeZone) === date;
}

function sumOf<T>(items: readonly T[], pick: (item: T) => Cents): Cents {
  return sumCents(items.map(pick));
}

/** Rolls the sessions' drawer reports up into the daily report. */
export function buildDailyReport(input: DailyReportInput): DailyReport {
  const sessions = [...input.sessions].sort((a, b) =>
    a.openedAt.getTime() - b.openedAt.getTime() ||
    (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0)
  );
  const summaries = sessions.map((s) => s.salesSummary);
  const cash = sessions.map((s) => s.cashAccountability);
  const closed = cash.filter((c) => c.closingBalance !== null);

  const byMethod = new Map<PaymentMethod, { count: number; amount: Cents }>();
  for (const row of sessions.flatMap((s) => s.paymentBreakdown)) {
    const merged = byMethod.get(row.method) ?? { count: 0, amount: 0 };
    merged.count += row.count;
    merged.amount += row.amount;
    byMethod.set(row.method, merged);
  }
  const methods = [
    ...PAYMENT_METHODS.filter((m) => byMethod.has(m)),
    ...[...byMethod.keys()].filter((m) => !PAYMENT_METHODS.includes(m)).sort(),
  ];

  return {
    locationId: input.locationId,
    date: input.date,
    generatedAt: input.generatedAt,
    salesSummary: {
      transactionCount: summaries.reduce((a, s) => a + s.transactionCount, 0),
      grossSales: sumOf(summaries, (s) => s.grossSales),
      discounts: sumOf(summaries, (s) => s.discounts),
      refunds: sumOf(summaries, (s) => s.refunds),
      netSales: sumOf(summaries, (s) => s.netSales),
      tax: sumOf(summaries, (s) => s.tax),
      total: sumOf(summaries, (s) => s.total),
    },
    paymentBreakdown: methods.map((method) => ({
      method,
      ...(byMethod.get(method) as { count: number; amount: Cents }),
    })),
    discounts: sessions.flatMap((s) => s.discounts),
    cashAccountability: {
      openingBalance: sumOf(cash, (c) => c.openingBalance),
      cashSales: sumOf(cash, (c) => c.cashSales),
      cashRefunds: sumOf(cash, (c) => c.cashRefunds),
      adjustmentsIn: sumOf(cash, (c) => c.adjustmentsIn),
      adjustmentsOut: sumOf(cash, (c) => c.adjustmentsOut),
      expectedBalance: sumOf(cash, (c) => c.expectedBalance),
      closingBalance: closed.length === 0 ? null : sumOf(closed, (c) => c.closingBalance ?? 0),
      overShort: closed.length === 0 ? null : sumOf(closed, (c) => c.overShort ?? 0),
    },
    adjustments: sessions.flatMap((s) => s.adjustments).sort((a, b) =>
      a.createdAt.getTime() - b.createdAt.getTime()
    ),
    voids: mergeVoids(sessions.map((s) => s.voids)),
    sessions: sessions.map((s) => ({
      sessionId: s.sessionId,
      registerId: s.registerId,
      register: s.register,
      cashier: s.cashier,
      kind: s.kind,
      status: s.status,
      openedAt: s.openedAt,
      closedAt: s.closedAt,
      transactionCount: s.salesSummary.transactionCount,
      total: s.salesSummary.total,
      openingBalance: s.cashAccountability.openingBalance,
      expectedBalance: s.cashAccountability.expectedBalance,
      closingBalance: s.cashAccountability.closingBalance,
      overShort: s.cashAccountability.overShort,
    })),
  };
}
