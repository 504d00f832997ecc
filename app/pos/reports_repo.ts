/**
 * SQL of the drawer reports' data: the completed transactions of sessions, with lines and
 * payments, and the voided transactions that may belong to them.
 */
import type { NamedRef } from "../../domain/pos/void_summary.ts";
import { selectUserName } from "../auth/users_repo.ts";
import type { Db } from "../db/database.ts";
import { type ItemRecord, type ItemRow, toItem } from "./items_repo.ts";
import { type PaymentRecord, type PaymentRow, toPayment } from "./payments_repo.ts";
import { toTransaction, type TransactionRecord } from "./transactions_repo.ts";

export interface SessionReportRows {
  transactions: TransactionRecord[];
  items: ItemRecord[];
  payments: PaymentRecord[];
}

/**
 * Everything the drawer reports of `sessionIds` need, in three queries (transactions, their
 * items, their payments), whatever the number of sessions.
 */
export async function findSessionReportRows(
  db: Db,
  sessionIds: readonly string[],
): Promise<SessionReportRows> {
  if (sessionIds.length === 0) return { transactions: [], items: [], payments: [] };
  const txRows = await db.selectFrom("transactions").selectAll()
    .where("drawer_session_id", "in", sessionIds)
    .where("status", "=", "complete")
    .orderBy("created_at").orderBy("id").execute();
  if (txRows.length === 0) return { transactions: [], items: [], payments: [] };
  const itemRows = await db.selectFrom("transaction_items as ti")
    .innerJoin("transactions as t", "t.id", "ti.transaction_id")
    .selectAll("ti")
    .where("t.drawer_session_id", "in", sessionIds).where("t.status", "=", "complete")
    .execute();
  const paymentRows = await db.selectFrom("payments as p")
    .innerJoin("transactions as t", "t.id", "p.transaction_id")
    .selectAll("p")
    .where("t.drawer_session_id", "in", sessionIds).where("t.status", "=", "complete")
    .execute();
  return {
    transactions: txRows.map(toTransaction),
    items: itemRows.map((r) => toItem(r as ItemRow)),
    payments: paymentRows.map((r) => toPayment(r as PaymentRow)),
  };
}

/** A voided transaction as the reports count it (domain/pos/void_summary.ts). */
export interface VoidRecord {
  transactionId: string;
  total: string;
  drawerSessionId: string | null;
  registerId: string | null;
  voidedAt: Date | null;
  voidedBy: NamedRef | null;
}

/**
 * The voided transactions that may belong to `sessions` (`sessionOfVoid` picks which one), with
 * who voided them: those completed into one of the sessions, and the pending ones voided at
 * one of their registers since the earliest opened. Two index reads in one statement.
 */
export async function findVoidsOfSessions(
  db: Db,
  sessions: readonly { id: string; registerId: string; openedAt: string }[],
): Promise<VoidRecord[]> {
  if (sessions.length === 0) return [];
  const since = new Date(Math.min(...sessions.map((s) => new Date(s.openedAt).getTime())));
  const voided = () =>
    db.selectFrom("transactions as t")
      .leftJoin("users as u", "u.id", "t.voided_by")
      .select([
        "t.id",
        "t.total",
        "t.drawer_session_id",
        "t.register_id",
        "t.voided_at",
        "u.id as voided_by",
        selectUserName("u").as("voided_by_name"),
      ])
      .where("t.status", "=", "voided");
  const rows = await voided().where("t.drawer_session_id", "in", sessions.map((s) => s.id))
    .unionAll(
      voided().where("t.drawer_session_id", "is", null)
        .where("t.register_id", "in", [...new Set(sessions.map((s) => s.registerId))])
        .where("t.voided_at", ">=", since),
    ).execute();
  return rows.map((row) => ({
    transactionId: row.id,
    total: row.total,
    drawerSessionId: row.drawer_session_id,
    registerId: row.register_id,
    voidedAt: row.voided_at === null ? null : new Date(row.voided_at),
    voidedBy: row.voided_by === null ? null : { id: row.voided_by, name: row.voided_by_name ?? "" },
  }));
}
