/**
 * The drawer reports of sessions, built by the pure `domain/pos/drawer_report.ts` from rows
 * loaded in a fixed number of queries (the sessions' completed transactions, their items and
 * payments, the adjustments), whatever the number of sessions.
 */
import { parseMoney } from "../../domain/money.ts";
import {
  buildDrawerReport,
  type DrawerReport,
  type ReportTransaction,
} from "../../domain/pos/drawer_report.ts";
import type { Db } from "../db/database.ts";
import { type AdjustmentRecord, findAdjustmentsOfSessions } from "./adjustments_repo.ts";
import type { DrawerSessionRecord } from "./drawer_sessions_repo.ts";
import type { ItemRecord } from "./items_repo.ts";
import type { PaymentRecord } from "./payments_repo.ts";
import { orderDiscountOf } from "./pricing.ts";
import { findSessionReportRows } from "./reports_repo.ts";
import type { TransactionRecord } from "./transactions_repo.ts";

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
