/**
 * Drawer reports (X while open, Z frozen at close) and the daily rollup (API §8), built by
 * the pure `domain/pos/drawer_report.ts` and `daily_report.ts` from rows loaded in a fixed
 * number of queries (sessions' transactions, items, payments, adjustments).
 */
import { InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import {
  buildDrawerReport,
  type DrawerReport,
  type DrawerReportJson,
  drawerReportToJson,
  type ReportTransaction,
} from "../../domain/pos/drawer_report.ts";
import {
  buildDailyReport,
  type DailyReportJson,
  dailyReportToJson,
  sessionCountsOnDate,
} from "../../domain/pos/daily_report.ts";
import { parseMoney, parsePercent } from "../../domain/pos/money.ts";
import { storeDayRange, storeLocalDate } from "../../domain/pos/store_time.ts";
import type { Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import { findLocation, findStoreTimezone } from "../platform/platform_repo.ts";
import {
  type AdjustmentRecord,
  type DrawerSessionRecord,
  findAdjustmentsOfSessions,
  findDrawerSession,
  findSessionReportRows,
  findSessionsForDay,
  type ItemRecord,
  type PaymentRecord,
  type TransactionRecord,
} from "./pos_repo.ts";

/** The order discount as entered (basis points for percent, cents for amount). */
export function orderDiscountOf(tx: Pick<TransactionRecord, "discountKind" | "discountValue">) {
  if (!tx.discountKind || tx.discountValue === null) return null;
  return tx.discountKind === "percent"
    ? { kind: "percent" as const, value: parsePercent(tx.discountValue) }
    : { kind: "amount" as const, value: parseMoney(tx.discountValue) };
}

function toReportTransaction(
  tx: TransactionRecord,
  items: readonly ItemRecord[],
  payments: readonly PaymentRecord[],
): ReportTransaction {
  return {
    id: tx.id,
    type: tx.type,
    status: tx.status,
    discount: orderDiscountOf(tx),
    lines: items.map((item) => ({
      grossCents: parseMoney(item.gross),
      discountCents: parseMoney(item.discount),
      netCents: parseMoney(item.net),
      taxCents: parseMoney(item.tax),
      isConsumable: item.isConsumable,
    })),
    payments: payments.map((p) => ({ method: p.method, amountCents: parseMoney(p.amount) })),
  };
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

/** Builds the reports of several sessions with four queries in all. */
export async function buildSessionReports(
  db: Db,
  sessions: readonly DrawerSessionRecord[],
  generatedAt: Date,
  /** Treat these sessions as closed with this closing balance (the Z being frozen). */
  closing?: { sessionId: string; closingBalanceCents: number; closedAt: Date },
): Promise<DrawerReport[]> {
  const ids = sessions.map((s) => s.id);
  const rows = await findSessionReportRows(db, ids);
  const adjustments = await findAdjustmentsOfSessions(db, ids);
  const itemsByTx = groupBy(rows.items, (i) => i.transactionId);
  const paymentsByTx = groupBy(rows.payments, (p) => p.transactionId);
  const txBySession = groupBy(rows.transactions, (t) => t.drawerSessionId ?? "");
  const adjBySession = groupBy(adjustments, (a: AdjustmentRecord) => a.drawerSessionId);
  return sessions.map((session) => {
    const closingNow = closing?.sessionId === session.id ? closing : undefined;
    const closed = closingNow !== undefined || session.status === "closed";
    return buildDrawerReport({
      session: {
        id: session.id,
        registerId: session.registerId,
        locationId: session.locationId,
        status: closed ? "closed" : "open",
        openingBalanceCents: parseMoney(session.openingBalance),
        closingBalanceCents: closingNow
          ? closingNow.closingBalanceCents
          : session.closingBalance === null
          ? null
          : parseMoney(session.closingBalance),
        openedAt: new Date(session.openedAt),
        closedAt: closingNow
          ? closingNow.closedAt
          : session.closedAt
          ? new Date(session.closedAt)
          : null,
      },
      transactions: (txBySession.get(session.id) ?? []).map((tx) =>
        toReportTransaction(tx, itemsByTx.get(tx.id) ?? [], paymentsByTx.get(tx.id) ?? [])
      ),
      adjustments: (adjBySession.get(session.id) ?? []).map((a) => ({
        id: a.id,
        direction: a.direction,
        amountCents: parseMoney(a.amount),
        reason: a.reason,
        createdAt: new Date(a.createdAt),
        createdBy: a.createdBy,
        approvedBy: a.approvedBy,
      })),
      generatedAt,
    });
  });
}

/** `GET /drawers/:id/report`: the X report while open, the frozen Z report once closed. */
export async function getDrawerReport(
  deps: Pick<AppDeps, "db" | "clock">,
  sessionId: string,
): Promise<DrawerReportJson> {
  const session = await findDrawerSession(deps.db, sessionId);
  if (!session) throw new NotFoundError(`Drawer session "${sessionId}" does not exist`);
  if (session.status === "closed" && session.zReport) {
    return session.zReport as unknown as DrawerReportJson;
  }
  const [report] = await buildSessionReports(deps.db, [session], deps.clock.now());
  return drawerReportToJson(report!);
}

/** `GET /reports/daily`: the sessions of a location closed on (or, if open, as of) a date. */
export async function getDailyReport(
  deps: Pick<AppDeps, "db" | "clock">,
  locationId: string,
  date?: string,
): Promise<DailyReportJson> {
  if (!(await findLocation(deps.db, locationId))) {
    throw new InvalidReferenceError("locationId", `Location "${locationId}" does not exist`);
  }
  const timeZone = await findStoreTimezone(deps.db);
  const now = deps.clock.now();
  const day = date ?? storeLocalDate(now, timeZone);
  const includeOpen = storeLocalDate(now, timeZone) === day;
  const candidates = await findSessionsForDay(
    deps.db,
    locationId,
    storeDayRange(day, timeZone),
    includeOpen,
  );
  const sessions = candidates.filter((s) =>
    sessionCountsOnDate(
      { status: s.status, closedAt: s.closedAt ? new Date(s.closedAt) : null },
      day,
      timeZone,
      now,
    )
  );
  const reports = await buildSessionReports(deps.db, sessions, now);
  return dailyReportToJson(
    buildDailyReport({ locationId, date: day, generatedAt: now, sessions: reports }),
  );
}
