/**
 * The drawer (X/Z) and daily reports for people and spreadsheets: in a table, one small
 * aligned table per section (counts and money right-aligned, times in the store's time zone);
 * in CSV, one `section,item,count,amount` row per figure; JSON is the API's own shape.
 *
 * Names, not ids: sessions by register and cashier, discounts by receipt number, voids by
 * cashier. One sign convention, the API's (§8): money that moves one way prints as a positive
 * magnitude under a label that says which way (Refunds, Cash refunds, Cash out, Voided); only
 * nets and differences carry a sign (net sales, tax and total, a payment method's net, over/short).
 */
import type {
  DailyReportJson,
  DrawerReportJson,
  ReportFiguresJson,
} from "../../app/pos/report_json.ts";
import {
  colorEnabled,
  type Column,
  formatTable,
  type OutputFormat,
  printJson,
  printRows,
  printTables,
  printText,
  storeTime,
} from "../_output.ts";

export interface ReportLine {
  section: string;
  item: string;
  count?: number | null;
  amount?: string | null;
}

/** A name for people; `fallback` (an id) when the server sent none. */
function nameOr(ref: { name: string } | null | undefined, fallback: string): string {
  return ref?.name || fallback;
}

function voidLines(voids: ReportFiguresJson["voids"] | undefined): ReportLine[] {
  if (!voids) return [];
  return [
    { section: "voids", item: "Voided", count: voids.count, amount: voids.amount },
    ...voids.byCashier.map((row) => ({
      section: "voids",
      item: `by ${nameOr(row.cashier, "(unknown)")}`,
      count: row.count,
      amount: row.amount,
    })),
  ];
}

function figureLines(report: ReportFiguresJson): ReportLine[] {
  const s = report.salesSummary;
  const c = report.cashAccountability;
  return [
    { section: "sales", item: "Transactions", count: s.transactionCount },
    { section: "sales", item: "Gross sales", amount: s.grossSales },
    { section: "sales", item: "Discounts", amount: s.discounts },
    { section: "sales", item: "Refunds", amount: s.refunds },
    { section: "sales", item: "Net sales", amount: s.netSales },
    { section: "sales", item: "Tax", amount: s.tax },
    { section: "sales", item: "Total", amount: s.total },
    ...report.paymentBreakdown.map((p) => ({
      section: "payments",
      item: p.method,
      count: p.count,
      amount: p.amount,
    })),
    ...report.discounts.map((d) => {
      const receipt = d.receiptNumber ?? d.transactionId;
      return {
        section: "discounts",
        item: d.kind === "percent" ? `${receipt} (${d.value}%)` : receipt,
        amount: d.amount,
      };
    }),
    { section: "cash", item: "Opening balance", amount: c.openingBalance },
    { section: "cash", item: "Cash sales", amount: c.cashSales },
    { section: "cash", item: "Cash refunds", amount: c.cashRefunds },
    { section: "cash", item: "Cash in", amount: c.adjustmentsIn },
    { section: "cash", item: "Cash out", amount: c.adjustmentsOut },
    { section: "cash", item: "Expected balance", amount: c.expectedBalance },
    { section: "cash", item: "Closing balance", amount: c.closingBalance },
    { section: "cash", item: "Over/short", amount: c.overShort },
    ...report.adjustments.map((a) => ({
      section: "adjustments",
      item: `${a.direction === "in" ? "Cash in" : "Cash out"}: ${a.reason}`,
      amount: a.amount,
    })),
    ...voidLines(report.voids),
  ];
}

type Session = DailyReportJson["sessions"][number];

/** A session for people: its register and cashier (the id when the server named neither). */
function sessionLabel(s: Session): string {
  const register = nameOr(s.register, s.sessionId);
  return s.cashier ? `${register} (${s.cashier.name})` : register;
}

/** Every figure of a daily report as lines (sessions last: count = transactions, amount = total). */
export function dailyReportLines(report: DailyReportJson): ReportLine[] {
  return [
    ...figureLines(report),
    ...report.sessions.map((s) => ({
      section: "sessions",
      item: sessionLabel(s),
      count: s.transactionCount,
      amount: s.total,
    })),
  ];
}

export function drawerReportLines(report: DrawerReportJson): ReportLine[] {
  return figureLines(report);
}

const CSV_COLUMNS: Column<ReportLine>[] = [
  { header: "section", value: (l) => l.section },
  { header: "item", value: (l) => l.item },
  { header: "count", value: (l) => l.count },
  { header: "amount", value: (l) => l.amount },
];

const TITLES: Record<string, string> = {
  sales: "SALES",
  payments: "PAYMENTS",
  discounts: "DISCOUNTS",
  cash: "CASH DRAWER",
  adjustments: "CASH IN/OUT",
  voids: "VOIDS",
};

/** The money column's header: a payment method's amount is a net (taken − paid out). */
const AMOUNT_HEADERS: Record<string, string> = { payments: "NET" };

function sectionTable(
  section: string,
  title: string,
  lines: ReportLine[],
  color: boolean,
): string {
  const hasCount = lines.some((l) => l.count !== undefined && l.count !== null);
  const columns: Column<ReportLine>[] = [
    { header: title, value: (l) => l.item },
    ...(hasCount
      ? [{ header: "COUNT", value: (l: ReportLine) => l.count, align: "right" as const }]
      : []),
    { header: AMOUNT_HEADERS[section] ?? "AMOUNT", value: (l) => l.amount, align: "right" },
  ];
  return formatTable(lines, columns, { color });
}

function sessionsTable(sessions: Session[], timeZone: string, color: boolean): string {
  const time = (iso: string | null) => iso ? storeTime(iso, timeZone).replace(/ \(.*\)$/, "") : "";
  return formatTable(sessions, [
    { header: "REGISTER", value: (s) => nameOr(s.register, "") },
    { header: "CASHIER", value: (s) => nameOr(s.cashier, "") },
    { header: "KIND", value: (s) => s.kind },
    { header: "OPENED", value: (s) => time(s.openedAt) },
    { header: "CLOSED", value: (s) => time(s.closedAt) },
    { header: "TX", value: (s) => s.transactionCount, align: "right" },
    { header: "TOTAL", value: (s) => s.total, align: "right" },
    { header: "EXPECTED", value: (s) => s.expectedBalance, align: "right" },
    { header: "CLOSING", value: (s) => s.closingBalance, align: "right" },
    { header: "OVER/SHORT", value: (s) => s.overShort, align: "right" },
    { header: "SESSION", value: (s) => s.sessionId },
  ], { color });
}

/** The sections of `lines` as tables, one after the other (an empty section says so). */
function tables(lines: ReportLine[], color: boolean): string[] {
  return Object.entries(TITLES).map(([section, title]) => {
    const rows = lines.filter((l) => l.section === section);
    return rows.length === 0 ? `${title}: none` : sectionTable(section, title, rows, color);
  });
}

export interface ReportView {
  format: OutputFormat;
  /** The line above the tables, e.g. `Daily report: Main Street, 2026-11-21`. */
  heading: string;
  timeZone: string;
}

export function printDailyReport(report: DailyReportJson, view: ReportView): void {
  if (view.format === "json") return printJson(report);
  const lines = dailyReportLines(report);
  if (view.format === "csv") {
    return printRows(lines, CSV_COLUMNS, "csv");
  }
  const color = colorEnabled("stdout");
  const sessions = report.sessions.length === 0
    ? "SESSIONS: none"
    : sessionsTable(report.sessions, view.timeZone, color);
  printText(`${view.heading} (generated ${storeTime(report.generatedAt, view.timeZone)})\n`);
  printTables([...tables(lines, color), sessions]);
}

export function printDrawerReport(report: DrawerReportJson, view: ReportView): void {
  if (view.format === "json") return printJson(report);
  const lines = drawerReportLines(report);
  if (view.format === "csv") {
    return printRows(lines, CSV_COLUMNS, "csv");
  }
  const opened = storeTime(report.openedAt, view.timeZone);
  const closed = report.closedAt
    ? `, closed ${storeTime(report.closedAt, view.timeZone)}`
    : " (still open)";
  printText(`${view.heading}: opened ${opened}${closed}\n`);
  printTables(tables(lines, colorEnabled("stdout")));
}
