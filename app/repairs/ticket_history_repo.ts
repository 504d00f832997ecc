/**
 * SQL of a ticket's status changes: the change and its history row are ONE statement (the
 * ticket's `status_version` goes up by one and becomes the history row's `seq`, unique per
 * ticket), run while the caller holds the ticket's row lock (`lockTicket`).
 */
import { sql, type Transaction } from "kysely";
import type { RepairStatus } from "../../domain/repairs/status_machine.ts";
import type { Database, Db } from "../db/database.ts";
import { isoString } from "../db/rows.ts";
import type { HistoryEntry } from "./ticket_schemas.ts";

export interface StatusChange {
  historyId: string;
  ticketId: string;
  from: RepairStatus;
  to: RepairStatus;
  /** The ticket's `status_version` as locked: the change applies only to that version. */
  version: number;
  /** The status a reopen returns to (kept as it was unless the ticket is being cancelled). */
  statusBeforeCancel: RepairStatus | null;
  /** When the ticket enters intake: `now` (the first intake time is kept). */
  intakeAt: Date | null;
  note: string | null;
  changedBy: string | null;
  now: Date;
}

/**
 * Moves the ticket and appends its history row; throws if the ticket is not at
 * `change.version` (it cannot be: the caller holds the row lock).
 */
export async function changeTicketStatus(
  trx: Transaction<Database>,
  change: StatusChange,
): Promise<void> {
  const result = await sql<{ seq: number }>`
    WITH moved AS (
      UPDATE repair_tickets SET status = ${change.to}::text,
        status_version = status_version + 1,
        status_before_cancel = ${change.statusBeforeCancel}::text,
        intake_at = COALESCE(intake_at, ${change.intakeAt}::timestamptz),
        status_changed_at = ${change.now}::timestamptz, updated_at = ${change.now}::timestamptz
      WHERE id = ${change.ticketId}::uuid AND status = ${change.from}::text
        AND status_version = ${change.version}::int
      RETURNING id, status_version
    )
    INSERT INTO repair_ticket_history
      (id, ticket_id, seq, from_status, to_status, note, changed_by, changed_at)
    SELECT ${change.historyId}::uuid, moved.id, moved.status_version, ${change.from}::text,
      ${change.to}::text, ${change.note}::text, ${change.changedBy}::uuid,
      ${change.now}::timestamptz
    FROM moved
    RETURNING seq`.execute(trx);
  if (result.rows.length !== 1) {
    throw new Error(`Repair ticket "${change.ticketId}" changed while it was locked`);
  }
}

/** The ticket's status history, oldest first, with the names of who changed it. */
export async function listTicketHistory(db: Db, ticketId: string): Promise<HistoryEntry[]> {
  const rows = await db.selectFrom("repair_ticket_history as h")
    .leftJoin("users as u", "u.id", "h.changed_by")
    .select([
      "h.from_status",
      "h.to_status",
      "h.changed_by",
      "h.changed_at",
      "h.note",
      sql<string | null>`u.first_name || ' ' || u.last_name`.as("changed_by_name"),
    ])
    .where("h.ticket_id", "=", ticketId).orderBy("h.seq").execute();
  return rows.map((row) => ({
    fromStatus: row.from_status,
    toStatus: row.to_status,
    changedBy: row.changed_by,
    changedByName: row.changed_by_name,
    changedAt: isoString(row.changed_at),
    note: row.note,
  }));
}
