/**
 * SQL of rentals: the rows, their lists and searches, and the reads a unit's life story needs.
 * Lock: a rental row is locked FOR UPDATE ({@link lockRental}) by everything that changes its
 * status (return, cancel, buyout start and completion, the undo of a buyout), so the moves of
 * one rental run one after the other. The unit a rental holds is taken from stock by inventory
 * (one guarded statement), and `rentals_active_unit_key` backs "one active rental per unit".
 */
import { type RawBuilder, sql, type Transaction } from "kysely";
import { formatRentalNumber } from "../../domain/rentals/rental_status.ts";
import type { RentalStatus } from "../../domain/rentals/rental_status.ts";
import type { BillingInterval } from "../../domain/rentals/periods.ts";
import { selectLowerFullNameOfMember } from "../accounts/members_repo.ts";
import { isAnyOf } from "../db/any_of.ts";
import type { Database, Db } from "../db/database.ts";
import { listShape, newShapeMemo, type Page, paginateByIds } from "../db/pagination.ts";
import { isoString, isoStringOrNull, touchedAny } from "../db/rows.ts";
import { containsText, containsTextBinding, LOWERED } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";

export interface RentalRecord {
  id: string;
  rentalNumber: string;
  accountId: string;
  memberId: string | null;
  productId: string;
  unitId: string;
  startDate: string;
  dueDate: string | null;
  billingInterval: BillingInterval;
  rate: string;
  deposit: string | null;
  rentToOwnPrice: string | null;
  rentToOwnPercent: string | null;
  status: RentalStatus;
  notes: string | null;
  returnCondition: string | null;
  returnNotes: string | null;
  returnedAt: string | null;
  returnedBy: string | null;
  cancelledAt: string | null;
  cancelledBy: string | null;
  purchasedAt: string | null;
  purchaseTransactionId: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A rental with the names a client shows beside it. */
export type RentalView = RentalRecord & {
  accountName: string;
  productName: string;
  serialNumber: string | null;
};

const RENTAL_COLUMNS = [
  "r.id",
  "r.number",
  "r.account_id",
  "r.member_id",
  "r.product_id",
  "r.unit_id",
  "r.start_date",
  "r.due_date",
  "r.billing_interval",
  "r.rate",
  "r.deposit",
  "r.rent_to_own_price",
  "r.rent_to_own_percent",
  "r.status",
  "r.notes",
  "r.return_condition",
  "r.return_notes",
  "r.returned_at",
  "r.returned_by",
  "r.cancelled_at",
  "r.cancelled_by",
  "r.purchased_at",
  "r.purchase_transaction_id",
  "r.created_by",
  "r.created_at",
  "r.updated_at",
] as const;

interface RentalRow {
  id: string;
  number: number | string;
  account_id: string;
  member_id: string | null;
  product_id: string;
  unit_id: string;
  start_date: string;
  due_date: string | null;
  billing_interval: BillingInterval;
  rate: string;
  deposit: string | null;
  rent_to_own_price: string | null;
  rent_to_own_percent: string | null;
  status: RentalStatus;
  notes: string | null;
  return_condition: string | null;
  return_notes: string | null;
  returned_at: Date | string | null;
  returned_by: string | null;
  cancelled_at: Date | string | null;
  cancelled_by: string | null;
  purchased_at: Date | string | null;
  purchase_transaction_id: string | null;
  created_by: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

function toRental(row: RentalRow): RentalRecord {
  return {
    id: row.id,
    rentalNumber: formatRentalNumber(Number(row.number)),
    accountId: row.account_id,
    memberId: row.member_id,
    productId: row.product_id,
    unitId: row.unit_id,
    startDate: row.start_date,
    dueDate: row.due_date,
    billingInterval: row.billing_interval,
    rate: row.rate,
    deposit: row.deposit,
    rentToOwnPrice: row.rent_to_own_price,
    rentToOwnPercent: row.rent_to_own_percent,
    status: row.status,
    notes: row.notes,
    returnCondition: row.return_condition,
    returnNotes: row.return_notes,
    returnedAt: isoStringOrNull(row.returned_at),
    returnedBy: row.returned_by,
    cancelledAt: isoStringOrNull(row.cancelled_at),
    cancelledBy: row.cancelled_by,
    purchasedAt: isoStringOrNull(row.purchased_at),
    purchaseTransactionId: row.purchase_transaction_id,
    createdBy: row.created_by,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

function toView(
  row: RentalRow & { account_name: string; product_name: string; serial_number: string | null },
): RentalView {
  return {
    ...toRental(row),
    accountName: row.account_name,
    productName: row.product_name,
    serialNumber: row.serial_number,
  };
}

/**
 * Rentals with their account's and product's names and their unit's serial: each a scalar
 * subquery by primary key (the three are NOT NULL foreign keys, so as an inner join would)
 * rather than a join, which PostgreSQL plans in a third of the time (a list's page is planned
 * for its values on every run: 0.36 instead of 1.1 ms, and it runs in 0.7 instead of 1.0 ms).
 */
function rentalViews(db: Db) {
  return db.selectFrom("rentals as r")
    .select((eb) => [
      ...RENTAL_COLUMNS,
      eb.selectFrom("accounts as acc").select("acc.name").whereRef("acc.id", "=", "r.account_id")
        .as("account_name"),
      eb.selectFrom("products as p").select("p.name").whereRef("p.id", "=", "r.product_id")
        .as("product_name"),
      eb.selectFrom("units as u").select("u.serial_number").whereRef("u.id", "=", "r.unit_id")
        .as("serial_number"),
    ]);
}

export interface NewRental {
  id: string;
  accountId: string;
  memberId: string | null;
  productId: string;
  unitId: string;
  startDate: string;
  dueDate: string | null;
  billingInterval: BillingInterval;
  rate: string;
  deposit: string | null;
  rentToOwnPrice: string | null;
  rentToOwnPercent: string | null;
  notes: string | null;
  createdBy: string | null;
  now: Date;
}

/**
 * What `rentals.search` holds for a rental of `accountId` and `memberId` (SQL values or
 * columns): the account's name and the member's full name, lowered, joined by chr(31). The
 * caller has locked the account and member (app/accounts/name_copies.ts).
 */
function rentalSearchText(accountId: unknown, memberId: unknown): RawBuilder<string> {
  return sql<string>`(SELECT lower(a.name) FROM accounts a WHERE a.id = ${accountId}) ||
    chr(31) || coalesce(${selectLowerFullNameOfMember(memberId)}, '')`;
}

/** Writes `rentals.search` again for the rentals whose `column` is one of `ids`. */
export async function refreshRentalSearch(
  db: Db,
  column: "id" | "account_id" | "member_id",
  ids: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable("rentals as r")
    .set({ search: rentalSearchText(sql.ref("r.account_id"), sql.ref("r.member_id")) })
    .where(sql.ref(`r.${column}`), "in", [...ids]).execute();
}

/** `rentals.search` of every rental, after a bulk insert (bench). */
export async function refreshEveryRentalSearch(db: Db): Promise<void> {
  await db.updateTable("rentals as r")
    .set({ search: rentalSearchText(sql.ref("r.account_id"), sql.ref("r.member_id")) })
    .execute();
}

/** Inserts a rental; its number comes from the identity (parallel creates never collide). */
export async function insertRental(db: Db, v: NewRental): Promise<void> {
  await db.insertInto("rentals").values({
    search: rentalSearchText(v.accountId, v.memberId),
    id: v.id,
    account_id: v.accountId,
    member_id: v.memberId,
    product_id: v.productId,
    unit_id: v.unitId,
    start_date: v.startDate,
    due_date: v.dueDate,
    billing_interval: v.billingInterval,
    rate: v.rate,
    deposit: v.deposit,
    rent_to_own_price: v.rentToOwnPrice,
    rent_to_own_percent: v.rentToOwnPercent,
    notes: v.notes,
    created_by: v.createdBy,
    created_at: v.now,
    updated_at: v.now,
  }).execute();
}

/** A live rental with its account, product and serial, or undefined. */
export async function findRental(db: Db, id: string): Promise<RentalView | undefined> {
  const row = await rentalViews(db).where("r.id", "=", id).where("r.deleted_at", "is", null)
    .executeTakeFirst();
  return row && toView(row as never);
}

/**
 * A live rental, its row locked FOR UPDATE until the caller commits (the one lock of rental
 * rows; see the file comment). Undefined when missing or deleted.
 */
export async function lockRental(
  trx: Transaction<Database>,
  id: string,
): Promise<RentalRecord | undefined> {
  const row = await trx.selectFrom("rentals as r").select(RENTAL_COLUMNS)
    .where("r.id", "=", id).where("r.deleted_at", "is", null).forUpdate().executeTakeFirst();
  return row && toRental(row as RentalRow);
}

export interface RentalFilters {
  status?: RentalStatus;
  accountId?: string;
  memberId?: string;
  productId?: string;
  /** Store-local today, with `overdue`: active rentals whose due date is before it. */
  overdueBefore?: string;
  /** With `pastDue`: rentals with an unpaid charge due before this date. */
  pastDueBefore?: string;
}

const RENTAL_SORT_COLUMNS: Record<string, string> = {
  createdAt: "r.created_at",
  updatedAt: "r.updated_at",
  rentalNumber: "r.number",
  startDate: "r.start_date",
  dueDate: "r.due_date",
  status: "r.status",
};

/** Compiled rental-list SQL per shape (see `paginateByIds`; exported for its test). */
export const rentalListSql = newShapeMemo();

/**
 * Rentals list, in one statement: the page of ids is filtered, counted and sorted on
 * `rentals` (overdue through `rentals_overdue_idx`, past due through `rentals_unpaid_since_idx`:
 * the oldest unpaid charge's due date, kept on the rental by charges_repo.ts), and only the
 * page's rows are joined to their names. `q` matches the account's name and the member's name
 * through `rentals.search` (one trigram index), or the unit's serial through the units'.
 */
export async function listRentals(
  db: Db,
  params: ListParams & RentalFilters,
): Promise<Page<RentalView>> {
  // The parameters `rentalIds` binds, in order, and what decides its SQL text.
  const byText = params.q ? containsTextBinding(params.q) : undefined;
  const byLowered = params.q ? containsTextBinding(params.q, LOWERED) : undefined;
  const { shape, values } = listShape([
    [
      `q${byText?.key}${byLowered?.key}`,
      byText && byLowered && [...byLowered.values, ...byText.values],
    ],
    ["s", params.status && [params.status]],
    ["a", params.accountId && [params.accountId]],
    ["m", params.memberId && [params.memberId]],
    ["p", params.productId && [params.productId]],
    ["o", params.overdueBefore && [params.overdueBefore]],
    ["d", params.pastDueBefore && [params.pastDueBefore]],
  ]);
  const byDate = Boolean(params.overdueBefore || params.pastDueBefore);
  return await paginateByIds(
    db,
    { memo: rentalListSql, shape, values, ids: () => rentalIds(db, params) },
    params,
    {
      sortColumns: RENTAL_SORT_COLUMNS,
      nullableSorts: ["dueDate"],
      tieBreaker: "r.id",
      // Overdue and past due: their matches read once from their partial indexes (index-only,
      // each holds `created_at`) and sorted, not walked along the sort order with a filter,
      // whatever their number; planned once, as a search (search_plan_test).
      readMatchesOnce: byDate,
      // A search: ids from the trigram indexes, whatever the other filters (search_plan_test).
      planOnce: Boolean(params.q) || byDate,
    },
    (page, order) =>
      rentalViews(db).innerJoin(page.as("pg"), "pg.id", "r.id").select("pg.__total")
        .orderBy(order),
    (row) => toView(row as never),
  );
}

/** The ids of the rentals `params` filters (the list's page is chosen on them). */
function rentalIds(db: Db, params: ListParams & RentalFilters) {
  let ids = db.selectFrom("rentals as r").select("r.id").where("r.deleted_at", "is", null);
  if (params.q) {
    // The names from the rentals' own trigram index; the units' ids as a condition on the
    // rentals' unit index (app/db/any_of.ts): a semi-join would scan the rentals.
    const q = params.q;
    const units = db.selectFrom("units").select("id").where(containsText("serial_number", q));
    ids = ids.where((eb) =>
      eb.or([containsText("r.search", q, LOWERED), isAnyOf("r.unit_id", units)])
    );
  }
  if (params.status) ids = ids.where("r.status", "=", params.status);
  if (params.accountId) ids = ids.where("r.account_id", "=", params.accountId);
  if (params.memberId) ids = ids.where("r.member_id", "=", params.memberId);
  if (params.productId) ids = ids.where("r.product_id", "=", params.productId);
  if (params.overdueBefore) {
    // `active` in the text, not bound: a plan made once must know it holds for
    // rentals_overdue_idx's predicate.
    ids = ids.where("r.status", "=", sql.lit("active")).where("r.due_date", "is not", null)
      .where("r.due_date", "<", params.overdueBefore);
  }
  if (params.pastDueBefore) {
    ids = ids.where("r.unpaid_since", "is not", null)
      .where("r.unpaid_since", "<", params.pastDueBefore);
  }
  return ids;
}

export interface RentalChanges {
  memberId?: string | null;
  dueDate?: string | null;
  rate?: string;
  deposit?: string | null;
  notes?: string | null;
}

const CHANGE_COLUMNS = {
  memberId: "member_id",
  dueDate: "due_date",
  rate: "rate",
  deposit: "deposit",
  notes: "notes",
} as const;

export async function updateRentalRow(
  db: Db,
  id: string,
  changes: RentalChanges,
  now: Date,
): Promise<void> {
  const set: Record<string, unknown> = { updated_at: now };
  for (const [key, column] of Object.entries(CHANGE_COLUMNS)) {
    const value = changes[key as keyof RentalChanges];
    if (value !== undefined) set[column] = value;
  }
  await db.updateTable("rentals").set(set).where("id", "=", id).execute();
}

/** The end of a rental: returned, cancelled or purchased (and back to active: an undone buyout). */
export type RentalEnd =
  | { status: "returned"; condition: string; notes: string | null; by: string | null }
  | { status: "cancelled"; by: string | null }
  | { status: "purchased"; transactionId: string }
  | { status: "active" };

export async function setRentalStatus(
  db: Db,
  id: string,
  end: RentalEnd,
  now: Date,
): Promise<void> {
  const set: Record<string, unknown> = { status: end.status, updated_at: now };
  if (end.status === "returned") {
    Object.assign(set, {
      returned_at: now,
      returned_by: end.by,
      return_condition: end.condition,
      return_notes: end.notes,
    });
  } else if (end.status === "cancelled") {
    Object.assign(set, { cancelled_at: now, cancelled_by: end.by });
  } else if (end.status === "purchased") {
    Object.assign(set, { purchased_at: now, purchase_transaction_id: end.transactionId });
  } else {
    Object.assign(set, { purchased_at: null, purchase_transaction_id: null });
  }
  await db.updateTable("rentals").set(set).where("id", "=", id).execute();
}

/** Soft-deletes a live rental; whether there was one. */
export async function softDeleteRental(db: Db, id: string, now: Date): Promise<boolean> {
  return touchedAny(
    await db.updateTable("rentals").set({ deleted_at: now, updated_at: now })
      .where("id", "=", id).where("deleted_at", "is", null).executeTakeFirst(),
  );
}

/** Every rental (deleted ones too) of a unit, oldest first: `rentals_unit_idx`. */
export async function findRentalsOfUnit(db: Db, unitId: string): Promise<RentalRecord[]> {
  const rows = await db.selectFrom("rentals as r").select(RENTAL_COLUMNS)
    .where("r.unit_id", "=", unitId).orderBy("r.created_at").orderBy("r.id").execute();
  return rows.map((row) => toRental(row as RentalRow));
}

/** A page of active rentals by id after `afterId` (charge generation walks them in order). */
export async function listActiveRentalsAfter(
  db: Db,
  afterId: string | null,
  limit: number,
): Promise<Array<Pick<RentalRecord, "id" | "startDate" | "billingInterval" | "rate">>> {
  let query = db.selectFrom("rentals").select(["id", "start_date", "billing_interval", "rate"])
    .where("status", "=", "active").where("deleted_at", "is", null);
  if (afterId) query = query.where("id", ">", afterId);
  const rows = await query.orderBy("id").limit(limit).execute();
  return rows.map((r) => ({
    id: r.id,
    startDate: r.start_date,
    billingInterval: r.billing_interval,
    rate: r.rate,
  }));
}

/** How many live rentals are active (`rentals_billing_idx`). */
export async function countActiveRentals(db: Db): Promise<number> {
  const row = await db.selectFrom("rentals").select(sql<number>`count(*)`.as("n"))
    .where("status", "=", "active").where("deleted_at", "is", null).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Rentals by id, deleted ones too (the POS pays charges of any rental it was billed for). */
export async function findRentalsByIds(db: Db, ids: readonly string[]): Promise<RentalRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("rentals as r").select(RENTAL_COLUMNS).where("r.id", "in", ids)
    .execute();
  return rows.map((row) => toRental(row as RentalRow));
}
