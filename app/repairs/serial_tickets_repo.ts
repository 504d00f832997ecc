/**
 * Repair tickets carrying a serial number, for a unit's life story (API §13): each ticket's
 * opening and the history rows that closed it (picked_up, delivered, cancelled). One query,
 * through `repair_tickets_serial_idx` (lower(serial_number)) and the history's
 * (ticket_id, seq) key; deleted tickets are left out.
 */
import { sql } from "kysely";
import type { Db } from "../db/database.ts";
import { isoString } from "../db/rows.ts";

export interface SerialTicketRecord {
  ticketId: string;
  ticketNumber: string;
  accountId: string;
  createdAt: string;
  createdBy: string | null;
  closes: Array<{ toStatus: string; at: string; actorId: string | null }>;
}

/** Tickets whose serial number equals `serial` (case-insensitive; the caller trims). */
export async function findTicketsBySerial(db: Db, serial: string): Promise<SerialTicketRecord[]> {
  const rows = await db.selectFrom("repair_tickets as rt")
    .leftJoin(
      "repair_ticket_history as h",
      (join) =>
        join.onRef("h.ticket_id", "=", "rt.id")
          .on("h.to_status", "in", ["picked_up", "delivered", "cancelled"]),
    )
    .select([
      "rt.id",
      "rt.ticket_number",
      "rt.account_id",
      "rt.created_at",
      "rt.created_by",
      "h.to_status",
      "h.changed_at",
      "h.changed_by",
    ])
    .where(sql`lower(rt.serial_number)`, "=", serial.toLowerCase())
    .where("rt.deleted_at", "is", null)
    .orderBy("rt.created_at").orderBy("rt.id").orderBy("h.seq").execute();
  const tickets = new Map<string, SerialTicketRecord>();
  for (const row of rows) {
    let ticket = tickets.get(row.id);
    if (!ticket) {
      ticket = {
        ticketId: row.id,
        ticketNumber: row.ticket_number,
        accountId: row.account_id,
        createdAt: isoString(row.created_at),
        createdBy: row.created_by,
        closes: [],
      };
      tickets.set(row.id, ticket);
    }
    if (row.to_status && row.changed_at) {
      ticket.closes.push({
        toStatus: row.to_status,
        at: isoString(row.changed_at),
        actorId: row.changed_by,
      });
    }
  }
  return [...tickets.values()];
}
