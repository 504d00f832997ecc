/** The one get-or-404 of repair tickets (a read, and a read under the ticket's lock). */
import type { Transaction } from "kysely";
import { NotFoundError } from "../../domain/errors.ts";
import type { Database, Db } from "../db/database.ts";
import { findTicket, lockTicket, type TicketRecord, type TicketView } from "./tickets_repo.ts";

export function ticketNotFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Repair ticket "${id}" does not exist`);
}

/** The live ticket (with its account's name), or 404. */
export async function requireTicket(db: Db, id: string): Promise<TicketView> {
  const ticket = await findTicket(db, id);
  if (!ticket) throw ticketNotFound(id);
  return ticket;
}

/** The live ticket with its row locked FOR UPDATE until the caller commits, or 404. */
export async function requireLockedTicket(
  trx: Transaction<Database>,
  id: string,
): Promise<TicketRecord> {
  const ticket = await lockTicket(trx, id);
  if (!ticket) throw ticketNotFound(id);
  return ticket;
}
