/**
 * The drawer reports of sessions, built by the pure `domain/pos/drawer_report.ts` from rows
 * loaded in a fixed number of queries (the sessions' completed transactions, their items and
 * payments, the adjustments, the sessions' register and cashier names, their voids), whatever
 * the number of sessions.
 */
import { parseMoney } from "../../domain/money.ts";
import {
  buildDrawerReport,
  type DrawerReport,
  type ReportTransaction,
} from "../../domain/pos/drawer_report.ts";
import type { Db } from "../db/database.ts";
import { type AdjustmentRecord, findAdjustmentsOfSessions } from "./adjustments_repo.ts";
import { sessionOfVoid } from "../../domain/pos/void_summary.ts";
import { type DrawerSessionRecord, findSessionNames } from "./drawer_sessions_repo.ts";
import type { ItemRecord } from "./items_repo.ts";
import type { PaymentRecord } from "./payments_repo.ts";
import { orderDiscountOf } from "./pricing.ts";
import { type DrawerReportJson, drawerReportToJson } from "./report_json.ts";
import { findSessionReportRows, findVoidsOfSessions, type VoidRecord } from "./reports_repo.ts";
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
    number: tx.number,
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

/** The voids of each session (see `sessionOfVoid`): session id → its voids. */
function voidsBySession(
  sessions: readonly DrawerSessionRecord[],
  voids: readonly VoidRecord[],
  closing?: { sessionId: string; closedAt: Date },
): Map<string, VoidRecord[]> {
  const spans = sessions.map((s) => ({
    id: s.id,
    registerId: s.registerId,
    openedAt: new Date(s.openedAt),
    closedAt: closing?.sessionId === s.id
      ? closing.closedAt
      : s.closedAt === null
      ? null
      : new Date(s.closedAt),
  }));
  // Voids of none of these sessions gather under "", which no session's id is.
  return groupBy(voids, (v) => sessionOfVoid(v, spans) ?? "");
}

/** Builds the reports of several sessions with six queries in all. */
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
  const names = await findSessionNames(db, ids);
  const voids = voidsBySession(sessions, await findVoidsOfSessions(db, sessions), closing);
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
        register: names.get(session.id)?.register ?? null,
        cashier: names.get(session.id)?.cashier ?? null,
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
      voids: (voids.get(session.id) ?? []).map((v) => ({
        transactionId: v.transactionId,
        totalCents: parseMoney(v.total),
        voidedBy: v.voidedBy,
      })),
      generatedAt,
    });
  });
}

/**
 * A Z report as frozen at close: one frozen before the reports named the register and cashier,
 * counted voids and numbered discounts lacks those.
 */
type FrozenZ = Omit<DrawerReportJson, "register" | "cashier" | "voids" | "discounts"> & {
  register?: DrawerReportJson["register"];
  cashier?: DrawerReportJson["cashier"];
  voids?: DrawerReportJson["voids"];
  discounts: Array<
    Omit<DrawerReportJson["discounts"][number], "receiptNumber"> & { receiptNumber?: string | null }
  >;
};

/**
 * The Z report frozen on a closed session, as the API returns it. A Z frozen before the
 * reports named the register and cashier and counted voids lacks those sections; they are
 * filled from the session as it stands (its voids cannot change once it is closed: only a
 * transaction of an open session can be voided), and every frozen figure is left as it was.
 */
export async function frozenZReport(
  db: Db,
  session: DrawerSessionRecord & { zReport: Record<string, unknown> },
  now: Date,
): Promise<DrawerReportJson> {
  const frozen = session.zReport as unknown as FrozenZ;
  const { register, cashier, voids, discounts } = frozen;
  if (
    register !== undefined && cashier !== undefined && voids !== undefined &&
    discounts.every((d) => d.receiptNumber !== undefined)
  ) {
    return { ...frozen, register, cashier, voids, discounts } as DrawerReportJson;
  }
  const [report] = await buildSessionReports(db, [session], now);
  const live = drawerReportToJson(report!);
  const receiptNumbers = new Map(live.discounts.map((d) => [d.transactionId, d.receiptNumber]));
  return {
    ...frozen,
    register: register ?? live.register,
    cashier: cashier === undefined ? live.cashier : cashier,
    discounts: discounts.map((d) => ({
      ...d,
      receiptNumber: d.receiptNumber !== undefined
        ? d.receiptNumber
        : receiptNumbers.get(d.transactionId) ?? null,
    })),
    voids: voids ?? live.voids,
  };
}
