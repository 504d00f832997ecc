/**
 * SQL of repair tickets: the rows, their number sequence, their search and lists. Lock: a
 * ticket row is locked FOR UPDATE ({@link lockTicket}) by everything that changes the ticket
 * or what hangs from it (status, fields, line items and their totals, estimate approval, a
 * payment completing at the POS), so changes of one ticket run one after the other.
 */
import { type Selectable, sql, type SqlBool, type Transaction } from "kysely";
import type { RepairStatus } from "../../domain/repairs/status_machine.ts";
import { isAnyOf } from "../db/any_of.ts";
import { containsText, containsTextBinding, LOWERED } from "../db/contains_text.ts";
import type { Database, Db } from "../db/database.ts";
import { listShape, newShapeMemo, type Page, paginateByIds } from "../db/pagination.ts";
import { isoString, isoStringOrNull, touchedAny } from "../db/rows.ts";
import { selectRepairAmountPaid } from "../pos/repair_payments_repo.ts";
import type { ListParams } from "../schemas.ts";
import type { ApprovalMethod, RepairTicketTable } from "./repairs_tables.ts";

export interface EstimateApprovalRecord {
  amount: string;
  approvedByName: string;
  method: ApprovalMethod;
  note: string | null;
  recordedBy: string | null;
  at: string;
}

export interface TicketRecord {
  id: string;
  ticketNumber: string;
  accountId: string;
  memberId: string | null;
  status: RepairStatus;
  statusBeforeCancel: RepairStatus | null;
  statusVersion: number;
  statusChangedAt: string;
  itemDescription: string;
  itemCount: number;
  serialNumber: string | null;
  batchId: string | null;
  serviceTemplateId: string | null;
  estimate: string | null;
  dueDate: string | null;
  locationId: string | null;
  customerTotal: string;
  internalCost: string;
  estimateApproval: EstimateApprovalRecord | null;
  intakeAt: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * A ticket as read for the API: its row, its account's name and the amount paid on it (from
 * the POS, `selectRepairAmountPaid`), all in the statement that reads the ticket.
 */
export type TicketView = TicketRecord & { accountName: string; amountPaid: string };

type TicketRow = Omit<Selectable<RepairTicketTable>, "search" | "deleted_at">;

const TICKET_COLUMNS = [
  "rt.id",
  "rt.ticket_number",
  "rt.account_id",
  "rt.member_id",
  "rt.status",
  "rt.status_before_cancel",
  "rt.status_version",
  "rt.status_changed_at",
  "rt.item_description",
  "rt.item_count",
  "rt.serial_number",
  "rt.batch_id",
  "rt.service_template_id",
  "rt.estimate",
  "rt.due_date",
  "rt.location_id",
  "rt.customer_total",
  "rt.internal_cost",
  "rt.estimate_approved_amount",
  "rt.estimate_approved_by_name",
  "rt.estimate_approval_method",
  "rt.estimate_approval_note",
  "rt.estimate_approval_recorded_by",
  "rt.estimate_approved_at",
  "rt.intake_at",
  "rt.created_by",
  "rt.created_at",
  "rt.updated_at",
] as const;

function toTicket(row: TicketRow): TicketRecord {
  return {
    id: row.id,
    ticketNumber: row.ticket_number,
    accountId: row.account_id,
    memberId: row.member_id,
    status: row.status,
    statusBeforeCancel: row.status_before_cancel,
    statusVersion: Number(row.status_version),
    statusChangedAt: isoString(row.status_changed_at),
    itemDescription: row.item_description,
    itemCount: Number(row.item_count),
    serialNumber: row.serial_number,
    batchId: row.batch_id,
    serviceTemplateId: row.service_template_id,
    estimate: row.estimate,
    dueDate: row.due_date,
    locationId: row.location_id,
    customerTotal: row.customer_total,
    internalCost: row.internal_cost,
    estimateApproval: row.estimate_approved_amount === null || row.estimate_approved_at === null
      ? null
      : {
        amount: row.estimate_approved_amount,
        approvedByName: row.estimate_approved_by_name ?? "",
        method: row.estimate_approval_method ?? "in_person",
        note: row.estimate_approval_note,
        recordedBy: row.estimate_approval_recorded_by,
        at: isoString(row.estimate_approved_at),
      },
    intakeAt: isoStringOrNull(row.intake_at),
    createdBy: row.created_by,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

type TicketViewRow = TicketRow & { account_name: string; amount_paid: string };

function toView(row: TicketViewRow): TicketView {
  return { ...toTicket(row), accountName: row.account_name, amountPaid: row.amount_paid };
}

/** The columns of a ticket view, over `rt` joined to its account `acc`. */
const VIEW_COLUMNS = [
  ...TICKET_COLUMNS,
  "acc.name as account_name",
  selectRepairAmountPaid(sql.ref("rt.id")).as("amount_paid"),
] as const;

/** Live tickets with their account's name. */
function ticketViews(db: Db) {
  return db.selectFrom("repair_tickets as rt")
    .innerJoin("accounts as acc", "acc.id", "rt.account_id")
    .select(VIEW_COLUMNS)
    .where("rt.deleted_at", "is", null);
}

export async function nextTicketNumberValue(db: Db): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`
    SELECT nextval('repair_ticket_number_seq') AS n`.execute(db);
  return Number(rows[0]!.n);
}

export interface NewTicket {
  id: string;
  ticketNumber: string;
  accountId: string;
  memberId: string | null;
  itemDescription: string;
  itemCount: number;
  serialNumber: string | null;
  batchId: string | null;
  serviceTemplateId: string | null;
  estimate: string | null;
  dueDate: string | null;
  locationId: string | null;
  createdBy: string | null;
  now: Date;
}

export async function insertTicket(db: Db, v: NewTicket): Promise<void> {
  await db.insertInto("repair_tickets").values({
    id: v.id,
    ticket_number: v.ticketNumber,
    account_id: v.accountId,
    member_id: v.memberId,
    item_description: v.itemDescription,
    item_count: v.itemCount,
    serial_number: v.serialNumber,
    batch_id: v.batchId,
    service_template_id: v.serviceTemplateId,
    estimate: v.estimate,
    due_date: v.dueDate,
    location_id: v.locationId,
    created_by: v.createdBy,
    status_changed_at: v.now,
    created_at: v.now,
    updated_at: v.now,
  }).execute();
}

/** A live ticket with its account's name, or undefined. */
export async function findTicket(db: Db, id: string): Promise<TicketView | undefined> {
  const row = await ticketViews(db).where("rt.id", "=", id).executeTakeFirst();
  return row && toView(row);
}

/** The status of a live ticket (undefined when missing or deleted). */
export async function findTicketStatus(db: Db, id: string): Promise<RepairStatus | undefined> {
  const row = await db.selectFrom("repair_tickets").select("status").where("id", "=", id)
    .where("deleted_at", "is", null).executeTakeFirst();
  return row?.status;
}

/**
 * A live ticket, its row locked FOR UPDATE until the caller commits (the one lock of ticket
 * rows; see the file comment). Undefined when missing or deleted.
 */
export async function lockTicket(
  trx: Transaction<Database>,
  id: string,
): Promise<TicketRecord | undefined> {
  const row = await trx.selectFrom("repair_tickets as rt").select(TICKET_COLUMNS)
    .where("rt.id", "=", id).where("rt.deleted_at", "is", null).forUpdate().executeTakeFirst();
  return row && toTicket(row);
}

export interface TicketFilters {
  status?: RepairStatus;
  accountId?: string;
  batchId?: string;
  serialNumber?: string;
  locationId?: string;
}

const TICKET_SORT_COLUMNS: Record<string, string> = {
  createdAt: "rt.created_at",
  updatedAt: "rt.updated_at",
  ticketNumber: "rt.ticket_number",
  status: "rt.status",
  dueDate: "rt.due_date",
  itemDescription: "rt.item_description",
  readyAt: "rt.status_changed_at",
};

/** Compiled ticket-list SQL per shape (see `paginateByIds`; exported for its test). */
export const ticketListSql = newShapeMemo();

/**
 * Tickets list, in one statement: the page of ids is counted and sorted on `repair_tickets`
 * alone (which the indexes answer without reading rows: the ready-for-pickup shelf is an
 * index-only scan of `repair_tickets_status_idx`), and only the page's rows are read and joined
 * to their accounts. `q` matches the ticket's search text (number, item, serial) or its
 * account's name, each through its own index (see below), never a scan of the tickets.
 */
export async function listTickets(
  db: Db,
  params: ListParams & TicketFilters,
): Promise<Page<TicketView>> {
  // The parameters `ticketIds` binds, in order, and what decides its SQL text.
  const byName = params.q ? containsTextBinding(params.q) : undefined;
  const bySearch = params.q ? containsTextBinding(params.q, LOWERED) : undefined;
  const onShelf = searchesOneByOne(params);
  const { shape, values } = listShape([
    [
      `q${onShelf ? "1" : ""}${byName?.key}${bySearch?.key}`,
      byName && bySearch &&
      (onShelf ? [...bySearch.values, ...byName.values] : [...byName.values, ...bySearch.values]),
    ],
    // The shelf's status is written into the text, so its kept plan is the shelf's.
    ["s", params.status && (onShelf ? [] : [params.status])],
    ["a", params.accountId && [params.accountId]],
    ["b", params.batchId && [params.batchId]],
    ["l", params.locationId && [params.locationId]],
    ["n", params.serialNumber && [params.serialNumber.toLowerCase()]],
  ]);
  type Row = TicketViewRow & { __total: number | null };
  return await paginateByIds<Row, TicketView>(
    db,
    { memo: ticketListSql, shape, values, ids: () => ticketIds(db, params) },
    params,
    {
      sortColumns: TICKET_SORT_COLUMNS,
      nullableSorts: ["dueDate"],
      tieBreaker: "rt.id",
      // A search: ids from the trigram indexes, whatever the other filters (search_plan_test),
      // or the shelf's from the status index.
      planOnce: Boolean(params.q),
    },
    (page, order) =>
      db.selectFrom(page.as("p"))
        .innerJoin("repair_tickets as rt", "rt.id", "p.id")
        .innerJoin("accounts as acc", "acc.id", "rt.account_id")
        .select([...VIEW_COLUMNS, "p.__total"])
        .orderBy(order),
    toView,
  );
}

/**
 * Whether `q` is matched ticket by ticket: on the ready-for-pickup shelf, which holds what the
 * shop has finished and not handed back (60 tickets at shop10y's ten years, 2,000 in the bench
 * scenario), however long the history. The shelf's tickets come from the status index and
 * each is matched with its account's name by primary key, instead of collecting every account
 * whose name matches first (5,000 for "smith" among shop10y's 100,000 accounts).
 */
function searchesOneByOne(params: ListParams & TicketFilters): boolean {
  return Boolean(params.q) && params.status === "ready_for_pickup";
}

/** The ids of the tickets `params` filters (the list's page is chosen on them). */
function ticketIds(db: Db, params: ListParams & TicketFilters) {
  let ids = db.selectFrom("repair_tickets as rt").select("rt.id")
    .where("rt.deleted_at", "is", null);
  if (params.q && searchesOneByOne(params)) {
    const q = params.q;
    // A scalar subquery, which PostgreSQL runs per ticket: an EXISTS it may instead hash over
    // every account whose name matches, read by a scan of the accounts.
    const accountMatches = db.selectFrom("accounts as a2")
      .select(containsText("a2.name", q).as("hit"))
      .where("a2.id", "=", sql.ref<string>("rt.account_id"));
    ids = ids.where((eb) =>
      eb.or([
        containsText("rt.search", q, LOWERED),
        sql<SqlBool>`coalesce((${accountMatches}), false)`,
      ])
    );
  } else if (params.q) {
    // The accounts' ids first, as a condition on the tickets' account index (app/db/any_of.ts).
    const q = params.q;
    const accountIds = db.selectFrom("accounts as a2").select("a2.id")
      .where(containsText("a2.name", q));
    ids = ids.where((eb) =>
      eb.or([containsText("rt.search", q, LOWERED), isAnyOf("rt.account_id", accountIds)])
    );
  }
  if (searchesOneByOne(params)) ids = ids.where("rt.status", "=", sql.lit("ready_for_pickup"));
  else if (params.status) ids = ids.where("rt.status", "=", params.status);
  if (params.accountId) ids = ids.where("rt.account_id", "=", params.accountId);
  if (params.batchId) ids = ids.where("rt.batch_id", "=", params.batchId);
  if (params.locationId) ids = ids.where("rt.location_id", "=", params.locationId);
  if (params.serialNumber) {
    ids = ids.where(sql`lower(rt.serial_number)`, "=", params.serialNumber.toLowerCase());
  }
  return ids;
}

export interface TicketChanges {
  accountId?: string;
  memberId?: string | null;
  itemDescription?: string;
  itemCount?: number;
  serialNumber?: string | null;
  batchId?: string | null;
  estimate?: string | null;
  dueDate?: string | null;
  locationId?: string | null;
}

const CHANGE_COLUMNS = {
  accountId: "account_id",
  memberId: "member_id",
  itemDescription: "item_description",
  itemCount: "item_count",
  serialNumber: "serial_number",
  batchId: "batch_id",
  estimate: "estimate",
  dueDate: "due_date",
  locationId: "location_id",
} as const;

export async function updateTicketRow(
  db: Db,
  id: string,
  changes: TicketChanges,
  now: Date,
): Promise<void> {
  const set: Record<string, unknown> = { updated_at: now };
  for (const [key, column] of Object.entries(CHANGE_COLUMNS)) {
    const value = changes[key as keyof TicketChanges];
    if (value !== undefined) set[column] = value;
  }
  await db.updateTable("repair_tickets").set(set).where("id", "=", id).execute();
}

export async function saveTicketTotals(
  db: Db,
  id: string,
  totals: { customerTotal: string; internalCost: string },
  now: Date,
): Promise<void> {
  await db.updateTable("repair_tickets").set({
    customer_total: totals.customerTotal,
    internal_cost: totals.internalCost,
    updated_at: now,
  }).where("id", "=", id).execute();
}

export async function saveEstimateApproval(
  db: Db,
  id: string,
  approval: Omit<EstimateApprovalRecord, "at">,
  now: Date,
): Promise<void> {
  await db.updateTable("repair_tickets").set({
    estimate_approved_amount: approval.amount,
    estimate_approved_by_name: approval.approvedByName,
    estimate_approval_method: approval.method,
    estimate_approval_note: approval.note,
    estimate_approval_recorded_by: approval.recordedBy,
    estimate_approved_at: now,
    updated_at: now,
  }).where("id", "=", id).execute();
}

/** Soft-deletes a live ticket; whether there was one. */
export async function softDeleteTicket(db: Db, id: string, now: Date): Promise<boolean> {
  return touchedAny(
    await db.updateTable("repair_tickets").set({ deleted_at: now, updated_at: now })
      .where("id", "=", id).where("deleted_at", "is", null).executeTakeFirst(),
  );
}

/** Whether any live ticket belongs to the batch. */
export async function hasTicketsInBatch(db: Db, batchId: string): Promise<boolean> {
  const row = await db.selectFrom("repair_tickets").select("id").where("batch_id", "=", batchId)
    .where("deleted_at", "is", null).limit(1).executeTakeFirst();
  return row !== undefined;
}
