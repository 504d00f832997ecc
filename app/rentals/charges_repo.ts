/**
 * SQL of rental charges (one per rental and billing period). Lock: a charge row is locked FOR
 * UPDATE, in id order ({@link lockCharges}), by the POS completing or undoing the payment of
 * it, so a charge is paid once whatever the number of terminals. Charge generation inserts
 * with ON CONFLICT DO NOTHING on `rental_charges_period_key`: concurrent runs never duplicate.
 *
 * Every write of a charge here also sets its rental's `unpaid_since` (the oldest unpaid due
 * date, which the past-due list reads; {@link refreshUnpaidSince}) in the same transaction.
 *
 * A completed buyout marks the paid charges whose equity its payoff counted
 * (`buyout_transaction_id`, under the rental's lock); undoing a payment locks the rentals of
 * its charges before the charges ({@link lockRentalsOfCharges}), the order a buyout completing
 * takes them in, so the two run one after the other.
 */
import { sql, type Transaction } from "kysely";
import { arrayLiteral } from "../db/array_literal.ts";
import { compiledOnce } from "../db/compiled.ts";
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

/**
 * Locks the rentals of these charges (FOR NO KEY UPDATE in id order, as {@link refreshUnpaidSince}
 * does; a buyout completing holds its rental FOR UPDATE): taken before the charges' locks.
 */
export async function lockRentalsOfCharges(
  trx: Transaction<Database>,
  ids: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  const rows = await trx.selectFrom("rental_charges").select("rental_id").where("id", "in", ids)
    .execute();
  await lockRentalRows(trx, rows.map((r) => r.rental_id));
}

/** Among `ids`, the charges paid by `transactionId` whose equity a completed buyout counted. */
export async function findChargesInBuyout(
  db: Db,
  ids: readonly string[],
  transactionId: string,
): Promise<Array<{ id: string; buyoutTransactionId: string }>> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("rental_charges").select(["id", "buyout_transaction_id"])
    .where("id", "in", ids).where("paid_transaction_id", "=", transactionId)
    .where("buyout_transaction_id", "is not", null).orderBy("id").execute();
  return rows.map((r) => ({ id: r.id, buyoutTransactionId: r.buyout_transaction_id! }));
}

/**
 * The buyout `transactionId` completing (its rental locked): the rental's paid charges with
 * equity are counted in its payoff.
 */
export async function markChargesInBuyout(
  trx: Transaction<Database>,
  rentalId: string,
  transactionId: string,
  now: Date,
): Promise<void> {
  await trx.updateTable("rental_charges").set({
    buyout_transaction_id: transactionId,
    updated_at: now,
  }).where("rental_id", "=", rentalId).where("status", "=", "paid").where("equity", ">", "0")
    .where("buyout_transaction_id", "is", null).execute();
}

/** The buyout `transactionId` voided or refunded (its rental locked): its charges are free. */
export async function releaseChargesOfBuyout(
  trx: Transaction<Database>,
  rentalId: string,
  transactionId: string,
  now: Date,
): Promise<void> {
  await trx.updateTable("rental_charges").set({ buyout_transaction_id: null, updated_at: now })
    .where("rental_id", "=", rentalId).where("buyout_transaction_id", "=", transactionId)
    .execute();
}

export interface ChargePayment {
  charge: ChargeRecord;
  /** The rent-to-own equity the charge accrues. */
  equity: string;
}

/** Marks the (locked) charges paid by `transactionId`, each with the equity it accrued. */
export async function markChargesPaid(
  trx: Transaction<Database>,
  payments: readonly ChargePayment[],
  transactionId: string,
  now: Date,
): Promise<void> {
  for (const { charge, equity } of payments) {
    await trx.updateTable("rental_charges").set({
      status: "paid",
      paid_transaction_id: transactionId,
      paid_at: now,
      equity,
      updated_at: now,
    }).where("id", "=", charge.id).execute();
  }
  await refreshUnpaidSince(trx, payments.map((p) => p.charge.rentalId));
}

/** The charges paid by `transactionId` among `ids` are unpaid again (their equity taken back). */
export async function reopenChargesPaidBy(
  trx: Transaction<Database>,
  ids: readonly string[],
  transactionId: string,
  now: Date,
): Promise<number> {
  if (ids.length === 0) return 0;
  const reopened = await trx.updateTable("rental_charges").set({
    status: "unpaid",
    paid_transaction_id: null,
    paid_at: null,
    equity: "0",
    updated_at: now,
  }).where("id", "in", ids).where("paid_transaction_id", "=", transactionId)
    .returning("rental_id").execute();
  await refreshUnpaidSince(trx, reopened.map((r) => r.rental_id));
  return reopened.length;
}

export interface ChargeTotals {
  /** Σ amount of the unpaid charges. */
  unpaid: string;
  /** Σ equity of the paid charges. */
  equity: string;
}

/**
 * The grouped totals of the rentals in `ids` (an {@link arrayLiteral}): one statement text for
 * any number of rentals, compiled once (every rentals list and rental read runs it).
 */
const chargeTotalRows = compiledOnce((db: Db, ids: string) =>
  db.selectFrom("rental_charges").select([
    "rental_id",
    sql<string>`coalesce(sum(amount) FILTER (WHERE status = 'unpaid'), 0)::text`.as("unpaid"),
    sql<string>`coalesce(sum(equity) FILTER (WHERE status = 'paid'), 0)::text`.as("equity"),
  ]).where(sql<boolean>`rental_id = ANY (${ids}::uuid[])`).groupBy("rental_id")
);

/** Per rental id: unpaid total and equity (one grouped query through the period key). */
export async function findChargeTotals(
  db: Db,
  rentalIds: readonly string[],
): Promise<Map<string, ChargeTotals>> {
  if (rentalIds.length === 0) return new Map();
  const rows = await chargeTotalRows(db, arrayLiteral(rentalIds));
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
export async function insertCharges(
  trx: Transaction<Database>,
  charges: readonly NewCharge[],
  now: Date,
) {
  if (charges.length === 0) return 0;
  const rows = await trx.insertInto("rental_charges").values(charges.map((c) => ({
    id: c.id,
    rental_id: c.rentalId,
    period_start: c.periodStart,
    period_end: c.periodEnd,
    due_date: c.dueDate,
    amount: c.amount,
    created_at: now,
    updated_at: now,
  }))).onConflict((oc) => oc.columns(["rental_id", "period_start"]).doNothing())
    .returning(["rental_id", "due_date"]).execute();
  await lowerUnpaidSince(trx, rows);
  return rows.length;
}

/**
 * After new unpaid charges: each rental's `unpaid_since` becomes the older of itself and its
 * new charges' due dates. No charge is read and no lock taken first: new unpaid charges can
 * only move it earlier, and an UPDATE that waited for a concurrent writer's row lock compares
 * against that writer's committed value (READ COMMITTED re-checks the row). The rows are
 * reached through the primary key in id order, the order every writer here locks them in.
 * Rentals whose value stays are not written (a write changes an indexed column, so every index
 * of the rentals gets an entry: most of what this adds to billing a month).
 */
async function lowerUnpaidSince(
  trx: Transaction<Database>,
  charges: ReadonlyArray<{ rental_id: string; due_date: string }>,
): Promise<void> {
  const oldest = new Map<string, string>();
  for (const { rental_id, due_date } of charges) {
    const known = oldest.get(rental_id);
    if (known === undefined || due_date < known) oldest.set(rental_id, due_date);
  }
  if (oldest.size === 0) return;
  const ids = [...oldest.keys()].sort();
  const dues = sql.join(ids.map((id) => sql`(${id}::uuid, ${oldest.get(id)}::date)`));
  // `r.id IN (...)` as well: the rentals are then read by key, not scanned to join the list.
  await sql`
    UPDATE rentals r SET unpaid_since = v.due
      FROM (VALUES ${dues}) AS v(id, due)
     WHERE r.id IN (${sql.join(ids)}) AND r.id = v.id
       AND (r.unpaid_since IS NULL OR r.unpaid_since > v.due)`.execute(trx);
}

/** Locks the rentals' rows in id order (FOR NO KEY UPDATE); their ids, sorted. */
async function lockRentalRows(
  trx: Transaction<Database>,
  rentalIds: readonly string[],
): Promise<string[]> {
  const ids = [...new Set(rentalIds)].sort();
  if (ids.length > 0) {
    await trx.selectFrom("rentals").select("id").where("id", "in", ids).orderBy("id")
      .forNoKeyUpdate().execute();
  }
  return ids;
}

/**
 * Sets `unpaid_since` of these rentals from their unpaid charges. The rows are locked first
 * (in id order; FOR NO KEY UPDATE, which lets charges referencing them be inserted) and only
 * then read, by a statement of its own: under READ COMMITTED it sees every charge write
 * committed before it got the lock, and every such write ends here too, so two transactions
 * changing one rental's charges at once cannot leave either's stale view behind.
 */
async function refreshUnpaidSince(
  trx: Transaction<Database>,
  rentalIds: readonly string[],
): Promise<void> {
  const ids = await lockRentalRows(trx, rentalIds);
  if (ids.length === 0) return;
  await trx.updateTable("rentals").set({
    unpaid_since: (eb) =>
      eb.selectFrom("rental_charges as c").select((c) => c.fn.min("c.due_date").as("oldest"))
        .whereRef("c.rental_id", "=", "rentals.id").where("c.status", "=", "unpaid"),
  }).where("id", "in", ids).execute();
}

/**
 * Sets `unpaid_since` of every rental from its charges, in one statement: for charges written
 * in bulk by SQL rather than through this module (the bench's and tests' seeds).
 */
export const REFRESH_EVERY_UNPAID_SINCE = `
  UPDATE rentals r SET unpaid_since = c.oldest
    FROM rentals r2
    LEFT JOIN (SELECT rental_id, min(due_date) AS oldest FROM rental_charges
                WHERE status = 'unpaid' GROUP BY rental_id) c ON c.rental_id = r2.id
   WHERE r2.id = r.id AND r.unpaid_since IS DISTINCT FROM c.oldest`;

export async function refreshEveryUnpaidSince(db: Db): Promise<void> {
  await sql.raw(REFRESH_EVERY_UNPAID_SINCE).execute(db);
}
