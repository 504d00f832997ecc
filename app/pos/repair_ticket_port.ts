/**
 * The point of sale's window onto repair tickets, owned by the POS and filled in by the
 * repairs feature when `createDeps` builds the app (`AppDeps.repairTickets`). Without it,
 * repair_payment transactions are refused (400 invalid_reference: repair tickets are not
 * available). Both calls run inside the caller's transaction.
 */
import type { Db } from "../db/database.ts";

export interface RepairTicketPort {
  /** The ticket's status, or undefined when it does not exist (or is deleted). */
  findTicketStatus(trx: Db, ticketId: string): Promise<string | undefined>;
  /**
   * Moves the ticket to picked_up from any non-terminal state (picked_up and delivered stay),
   * recording `actorId` in its history.
   */
  markPickedUp(trx: Db, ticketId: string, actorId: string): Promise<void>;
}
