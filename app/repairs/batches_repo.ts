/**
 * SQL of repair batches. Lock: a batch row is locked FOR UPDATE ({@link lockBatch}) by its
 * status moves and by every ticket joining or leaving it, so a ticket cannot slip into a
 * batch while it is being submitted.
 */
import { type Selectable, sql, type Transaction } from "kysely";
import type { BatchStatus } from "../../domain/repairs/batch_status.ts";
import type { Database, Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { isoString, isoStringOrNull, touchedAny } from "../db/rows.ts";
import { containsText } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { RepairBatchTable } from "./repairs_tables.ts";

export interface BatchRecord {
  id: string;
  name: string;
  accountId: string;
  notes: string | null;
  status: BatchStatus;
  submittedAt: string | null;
  submittedBy: string | null;
  decidedAt: string | null;
  decidedBy: string | null;
  decisionNote: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

export type BatchView = BatchRecord & { accountName: string; ticketCount: number };

type BatchRow = Omit<Selectable<RepairBatchTable>, "deleted_at">;

const BATCH_COLUMNS = [
  "rb.id",
  "rb.name",
  "rb.account_id",
  "rb.notes",
  "rb.status",
  "rb.submitted_at",
  "rb.submitted_by",
  "rb.decided_at",
  "rb.decided_by",
  "rb.decision_note",
  "rb.created_by",
  "rb.created_at",
  "rb.updated_at",
] as const;

function toBatch(row: BatchRow): BatchRecord {
  return {
    id: row.id,
    name: row.name,
    accountId: row.account_id,
    notes: row.notes,
    status: row.status,
    submittedAt: isoStringOrNull(row.submitted_at),
    submittedBy: row.submitted_by,
    decidedAt: isoStringOrNull(row.decided_at),
    decidedBy: row.decided_by,
    decisionNote: row.decision_note,
    createdBy: row.created_by,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

function batchViews(db: Db) {
  return db.selectFrom("repair_batches as rb")
    .innerJoin("accounts as acc", "acc.id", "rb.account_id")
    .select([
      ...BATCH_COLUMNS,
      "acc.name as account_name",
      sql<number>`(SELECT count(*) FROM repair_tickets t
        WHERE t.batch_id = rb.id AND t.deleted_at IS NULL)::int`.as("ticket_count"),
    ])
    .where("rb.deleted_at", "is", null);
}

function toView(row: BatchRow & { account_name: string; ticket_count: number }): BatchView {
  return { ...toBatch(row), accountName: row.account_name, ticketCount: Number(row.ticket_count) };
}

export async function findBatch(db: Db, id: string): Promise<BatchView | undefined> {
  const row = await batchViews(db).where("rb.id", "=", id).executeTakeFirst();
  return row && toView(row);
}

/** A live batch, its row locked FOR UPDATE until the caller commits; undefined when none. */
export async function lockBatch(
  trx: Transaction<Database>,
  id: string,
): Promise<BatchRecord | undefined> {
  const row = await trx.selectFrom("repair_batches as rb").select(BATCH_COLUMNS)
    .where("rb.id", "=", id).where("rb.deleted_at", "is", null).forUpdate().executeTakeFirst();
  return row && toBatch(row);
}

export function listBatches(
  db: Db,
  params: ListParams & { status?: BatchStatus; accountId?: string },
) {
  let query = batchViews(db);
  if (params.q) {
    const q = params.q;
    query = query.where((eb) => eb.or([containsText("rb.name", q), containsText("acc.name", q)]));
  }
  if (params.status) query = query.where("rb.status", "=", params.status);
  if (params.accountId) query = query.where("rb.account_id", "=", params.accountId);
  return paginate(query, params, {
    sortColumns: { createdAt: "rb.created_at", name: "rb.name", status: "rb.status" },
    tieBreaker: "rb.id",
    map: toView,
  });
}

export interface BatchValues {
  name: string;
  accountId: string;
  notes: string | null;
}

export async function insertBatch(
  db: Db,
  v: BatchValues & { id: string; createdBy: string | null; now: Date },
): Promise<void> {
  await db.insertInto("repair_batches").values({
    id: v.id,
    name: v.name,
    account_id: v.accountId,
    notes: v.notes,
    created_by: v.createdBy,
    created_at: v.now,
    updated_at: v.now,
  }).execute();
}

export async function updateBatchRow(
  db: Db,
  id: string,
  changes: Partial<BatchValues>,
  now: Date,
): Promise<boolean> {
  return touchedAny(
    await db.updateTable("repair_batches").set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.accountId !== undefined ? { account_id: changes.accountId } : {}),
      ...(changes.notes !== undefined ? { notes: changes.notes } : {}),
      updated_at: now,
    }).where("id", "=", id).where("deleted_at", "is", null).executeTakeFirst(),
  );
}

/** Records a status move: submitted (who, when) or decided (who, when, note or reason). */
export async function setBatchStatus(
  db: Db,
  id: string,
  move: { status: BatchStatus; by: string | null; note: string | null },
  now: Date,
): Promise<void> {
  const decided = move.status === "approved" || move.status === "rejected";
  await db.updateTable("repair_batches").set({
    status: move.status,
    ...(decided
      ? { decided_at: now, decided_by: move.by, decision_note: move.note }
      : { submitted_at: now, submitted_by: move.by }),
    updated_at: now,
  }).where("id", "=", id).execute();
}

export async function softDeleteBatch(db: Db, id: string, now: Date): Promise<boolean> {
  return touchedAny(
    await db.updateTable("repair_batches").set({ deleted_at: now, updated_at: now })
      .where("id", "=", id).where("deleted_at", "is", null).executeTakeFirst(),
  );
}
