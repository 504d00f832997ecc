/** SQL of the drawer reports' data: the completed transactions of sessions, with lines and payments. */
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
