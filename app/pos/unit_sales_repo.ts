/**
 * Sales and refunds of one unit, for its life story (API §13): completed transactions whose
 * lines name the unit, oldest first, through `transaction_items_unit_idx`.
 */
import type { Db } from "../db/database.ts";
import { isoString } from "../db/rows.ts";

export interface UnitSaleRecord {
  transactionId: string;
  type: "sale" | "refund";
  /** The transaction's sequence number (printed as its receipt number). */
  number: number;
  accountId: string | null;
  actorId: string | null;
  at: string;
  /** The line's net amount ("-499.00" on a refund). */
  amount: string;
}

export async function findUnitSales(db: Db, unitId: string): Promise<UnitSaleRecord[]> {
  const rows = await db.selectFrom("transaction_items as ti")
    .innerJoin("transactions as t", "t.id", "ti.transaction_id")
    .select([
      "t.id",
      "t.type",
      "t.number",
      "t.account_id",
      "t.created_by",
      "t.completed_at",
      "ti.net",
    ])
    .where("ti.unit_id", "=", unitId)
    .where("t.status", "=", "complete")
    .where("t.type", "in", ["sale", "refund"])
    .orderBy("t.completed_at").orderBy("t.id").execute();
  return rows.map((r) => ({
    transactionId: r.id,
    type: r.type as "sale" | "refund",
    number: Number(r.number),
    accountId: r.account_id,
    actorId: r.created_by,
    at: isoString(r.completed_at!), // complete ⇒ completed_at is set
    amount: r.net,
  }));
}
