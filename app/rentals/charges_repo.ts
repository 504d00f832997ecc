/**
 * SQL of rental charges (one per rental and billing period). Lock: a charge row is locked FOR
 * UPDATE, in id order ({@link lockCharges}), by the POS completing or undoing the payment of
 * it, so a charge is paid once whatever the number of terminals. Charge generation inserts
 * with ON CONFLICT DO NOTHING on `rental_charges_period_key`: concurrent runs never duplicate.
 */
import { sql, type Transaction } from "kysely";
import type { Database, Db } from "../db/database.ts";
import { isoStringOrNull } from "../db/rows.ts";
import type { ChargeStatus } from "./rentals_tables.ts";

export interface ChargeRecord {
  id: string;
  rentalId: string;
  periodStart: string;
  periodEnd: string;
  dueDate: string;
  amount: string;
  status: ChargeStatus;
  paidTransactionId: string | null;
  paidAt: string | null;
  equity: string;
}

const CHARGE_COLUMNS = [
  "c.id",
  "c.rental_id",
  "c.period_start",
  "c.period_end",
  "c.due_date",
  "c.amount",
  "c.status",
  "c.paid_transaction_id",
  "c.paid_at",
  "c.equity",
] as const;

interface ChargeRow {
  id: string;
  rental_id: string;
  period_start: string;
  period_end: string;
  due_date: string;
  amount: string;
  status: ChargeStatus;
  paid_transaction_id: string | null;
  paid_at: Date | string | null;
  equity: string;
}

function toCharge(row: ChargeRow): ChargeRecord {
  return {
    id: row.id,
    rentalId: row.rental_id,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    dueDate: row.due_date,
    amount: row.amount,
    status: row.status,
    paidTransactionId: row.paid_transaction_id,
    paidAt: isoStringOrNull(row.paid_at),
    equity: row.equity,
  };
}

/** A rental's charges, oldest period first. */
export async function listChargesOfRental(db: Db, rentalId: string): Promise<ChargeRecord[]> {
  const rows = await db.selectFrom("rental_charges as c").select(CHARGE_COLUMNS)
    .where("c.rental_id", "=", rentalId).orderBy("c.period_start").execute();
  return rows.map((row) => toCharge(row as ChargeRow));
}

/** Charges by id (any order; unknown ids are simply absent). */
export async function findCharges(db: Db, ids: readonly string[]): Promise<ChargeRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("rental_charges as c").select(CHARGE_COLUMNS)
    .where("c.id", "in", ids).execute();
  return rows.map((row) => toCharge(row as ChargeRow));
}

/** The charges locked FOR UPDATE in id order (the one lock of charge rows). */
export async function lockCharges(
  trx: Transaction<Database>,
  ids: readonly string[],
): Promise<ChargeRecord[]> {
  if (ids.length === 0) return [];
  const rows = await trx.selectFrom("rental_charges as c").select(CHARGE_COLUMNS)
    .where("c.id", "in", [...ids].sort()).orderBy("c.id").forUpdate().execute();
  return rows.map((row) => toCharge(row as ChargeRow));
}

/** Marks one charge paid by `transactionId`, with the equity it accrued. */
export async function markChargePaid(
  db: Db,
  id: string,
  transactionId: string,
  equity: string,
  now: Date,
): Promise<void> {
  await db.updateTable("rental_charges").set({
    status: "paid",
    paid_transaction_id: transactionId,
    paid_at: now,
    equity,
    updated_at: now,
  }).where("id", "=", id).execute();
}

/** The charges paid by `transactionId` among `ids` are unpaid again (their equity taken back). */
export async function reopenChargesPaidBy(
  db: Db,
  ids: readonly string[],
  transactionId: string,
  now: Date,
): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.updateTable("rental_charges").set({
    status: "unpaid",
    paid_transaction_id: null,
    paid_at: null,
    equity: "0",
    updated_at: now,
  }).where("id", "in", ids).where("paid_transaction_id", "=", transactionId).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export interface ChargeTotals {
  /** Σ amount of the unpaid charges. */
  unpaid: string;
  /** Σ equity of the paid charges. */
  equity: string;
}

/** Per rental id: unpaid total and equity (one grouped query through the period key). */
export async function findChargeTotals(
  db: Db,
  rentalIds: readonly string[],
): Promise<Map<string, ChargeTotals>> {
  if (rentalIds.length === 0) return new Map();
  const rows = await db.selectFrom("rental_charges").select([
    "rental_id",
    sql<string>`coalesce(sum(amount) FILTER (WHERE status = 'unpaid'), 0)::text`.as("unpaid"),
    sql<string>`coalesce(sum(equity) FILTER (WHERE status = 'paid'), 0)::text`.as("equity"),
  ]).where("rental_id", "in", rentalIds).groupBy("rental_id").execute();
  return new Map(rows.map((r) => [r.rental_id, { unpaid: r.unpaid, equity: r.equity }]));
}

/** Per rental id: the latest period start billed and how many charges start on or before `through`. */
export async function findBillingState(
  db: Db,
  rentalIds: readonly string[],
  through: string,
): Promise<Map<string, { lastPeriodStart: string; billedThrough: number }>> {
  if (rentalIds.length === 0) return new Map();
  const rows = await db.selectFrom("rental_charges").select([
    "rental_id",
    sql<string>`max(period_start)::text`.as("last"),
    sql<number>`count(*) FILTER (WHERE period_start <= ${through})`.as("billed"),
  ]).where("rental_id", "in", rentalIds).groupBy("rental_id").execute();
  return new Map(
    rows.map((r) => [r.rental_id, { lastPeriodStart: r.last, billedThrough: Number(r.billed) }]),
  );
}

export interface NewCharge {
  id: string;
  rentalId: string;
  periodStart: string;
  periodEnd: string;
  dueDate: string;
  amount: string;
}

/** Inserts charges; a period that has its charge already is skipped. How many were created. */
export async function insertCharges(db: Db, charges: readonly NewCharge[], now: Date) {
  if (charges.length === 0) return 0;
  const rows = await db.insertInto("rental_charges").values(charges.map((c) => ({
    id: c.id,
    rental_id: c.rentalId,
    period_start: c.periodStart,
    period_end: c.periodEnd,
    due_date: c.dueDate,
    amount: c.amount,
    created_at: now,
    updated_at: now,
  }))).onConflict((oc) => oc.columns(["rental_id", "period_start"]).doNothing())
    .returning("id").execute();
  return rows.length;
}
