/** SQL of payments (tenders of a transaction; refunds pay out with `is_refund`). */
import type { Selectable } from "kysely";
import type { Db } from "../db/database.ts";
import { isoString } from "../db/rows.ts";
import type { PaymentTable } from "./pos_tables.ts";

export interface PaymentRecord {
  id: string;
  transactionId: string;
  method: "cash" | "card" | "check" | "store_credit" | "other";
  amount: string;
  tendered: string;
  change: string;
  reference: string | null;
  isRefund: boolean;
  createdBy: string | null;
  createdAt: string;
}

export type PaymentRow = Selectable<PaymentTable>;

export function toPayment(row: PaymentRow): PaymentRecord {
  return {
    id: row.id,
    transactionId: row.transaction_id,
    method: row.method,
    amount: row.amount,
    tendered: row.tendered,
    change: row.change,
    reference: row.reference,
    isRefund: row.is_refund,
    createdBy: row.created_by,
    createdAt: isoString(row.created_at),
  };
}

export async function insertPayment(
  db: Db,
  values: {
    id: string;
    transactionId: string;
    method: PaymentRecord["method"];
    amount: string;
    tendered: string;
    change: string;
    reference: string | null;
    isRefund: boolean;
    createdBy: string;
    now: Date;
  },
): Promise<PaymentRecord> {
  const row = await db.insertInto("payments").values({
    id: values.id,
    transaction_id: values.transactionId,
    method: values.method,
    amount: values.amount,
    tendered: values.tendered,
    change: values.change,
    reference: values.reference,
    is_refund: values.isRefund,
    created_by: values.createdBy,
    created_at: values.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toPayment(row);
}

export async function findPayments(db: Db, transactionId: string): Promise<PaymentRecord[]> {
  const rows = await db.selectFrom("payments").selectAll()
    .where("transaction_id", "=", transactionId).orderBy("created_at").orderBy("id").execute();
  return rows.map(toPayment);
}
