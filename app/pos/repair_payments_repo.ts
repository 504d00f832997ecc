/**
 * What the point of sale knows of repair tickets' payments, for the repairs feature (API §9
 * "Ticket money"): per ticket, the pre-tax (net) line amounts of its COMPLETE repair_payment
 * transactions less what was refunded of them (`refunded_net`). Pending and voided
 * transactions count nothing.
 *
 * The one definition is `selectRepairAmountPaid`, an expression the repairs feature selects
 * beside its ticket columns, so a ticket read (one ticket or a page of them) stays one
 * statement: it reads the `transactions_repair_ticket_idx` index, then each transaction's
 * lines, for each ticket of the result (a page's rows, never the rows the list filtered).
 */
import { type Expression, type RawBuilder, sql } from "kysely";
import type { Db } from "../db/database.ts";

/** The amount paid on the ticket whose id `ticketId` gives, as numeric text ("0" for none). */
export function selectRepairAmountPaid(ticketId: Expression<string>): RawBuilder<string> {
  return sql<string>`(
    SELECT coalesce(sum(ti.net - ti.refunded_net), 0)::text
    FROM transactions t JOIN transaction_items ti ON ti.transaction_id = t.id
    WHERE t.repair_ticket_id = ${ticketId}
      AND t.type = 'repair_payment' AND t.status = 'complete')`;
}

/** The amount paid on one ticket ("12.34"; "0" without a completed payment). */
export async function findRepairAmountPaid(db: Db, ticketId: string): Promise<string> {
  const { rows } = await sql<{ paid: string }>`
    SELECT ${selectRepairAmountPaid(sql.val(ticketId))} AS paid`.execute(db);
  return rows[0]?.paid ?? "0";
}
