/**
 * What the point of sale knows of repair tickets' payments, for the repairs feature (API §9
 * "Ticket money"): per ticket, the pre-tax (net) line amounts of its COMPLETE repair_payment
 * transactions less what was refunded of them (`refunded_net`). Pending and voided
 * transactions count nothing. One query for any number of tickets (the
 * `transactions_repair_ticket_idx` index, then each transaction's lines).
 */
import { sql } from "kysely";
import type { Db } from "../db/database.ts";

/** Ticket id → amount paid ("12.34"); tickets without a completed payment are left out. */
export async function findRepairPaymentTotals(
  db: Db,
  ticketIds: readonly string[],
): Promise<Map<string, string>> {
  if (ticketIds.length === 0) return new Map();
  const { rows } = await sql<{ ticket_id: string; paid: string }>`
    SELECT t.repair_ticket_id AS ticket_id, sum(ti.net - ti.refunded_net)::text AS paid
    FROM transactions t JOIN transaction_items ti ON ti.transaction_id = t.id
    WHERE t.repair_ticket_id IN (${sql.join([...new Set(ticketIds)])})
      AND t.type = 'repair_payment' AND t.status = 'complete'
    GROUP BY t.repair_ticket_id`.execute(db);
  return new Map(rows.map((r) => [r.ticket_id, r.paid]));
}
