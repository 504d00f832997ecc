/**
 * The point of sale's window onto repair tickets, owned by the POS and filled in by the
 * repairs feature when `createDeps` builds the app (`AppDeps.repairTickets`, from
 * app/repairs/repair_payments.ts). Without it, repair_payment transactions are refused (400
 * invalid_reference: repair tickets are not available). Every call runs inside the caller's
 * transaction.
 */
import type { Transaction } from "kysely";
import type { ReceiptRepair } from "../../domain/pos/receipt_text.ts";
import type { Database, Db } from "../db/database.ts";

/**
 * A line of a repair_payment taken from its ticket (labor taxed as service, parts as goods).
 * It names no product on purpose: a ticket's parts left stock when they were added to the
 * ticket (API §22 "Repair parts"), so completing the payment must not take them again.
 */
export interface RepairPaymentLine {
  kind: "labor" | "part";
  description: string;
  quantity: number;
  /** Decimal text, "12.50". */
  unitPrice: string;
  taxCategory: "goods" | "service";
}

/** The repair_payment being completed: its pre-tax amount (Σ net of its lines), in cents. */
export interface CompletingRepairPayment {
  transactionId: string;
  amountCents: number;
}

export interface RepairTicketPort {
  /** The ticket's status, or undefined when it does not exist (or is deleted). */
  findTicketStatus(trx: Db, ticketId: string): Promise<string | undefined>;
  /** The ticket's account: a repair_payment started without `accountId` is billed to it. */
  findTicketAccountId(trx: Db, ticketId: string): Promise<string | undefined>;
  /** What a repair_payment's receipt names: the ticket's number and instrument (if live). */
  findTicketForReceipt(db: Db, ticketId: string): Promise<ReceiptRepair | undefined>;
  /**
   * The lines of a repair_payment started without lines (API §8): the ticket's
   * customer-facing line items while nothing has been paid on it, else one "Balance due"
   * line of its balance due (none when nothing is due).
   */
  paymentLines(trx: Db, ticketId: string): Promise<RepairPaymentLine[]>;
  /**
   * Settles a repair_payment as it completes: under a lock on the ticket, refuses a missing
   * ticket (400 invalid_reference), a cancelled one (409 invalid_transition) and a payment
   * whose pre-tax amount exceeds the ticket's balance due (409 overpayment); then moves the
   * ticket to picked_up from any non-terminal state (picked_up and delivered stay), recording
   * `actorId` in its history.
   */
  markPickedUp(
    trx: Transaction<Database>,
    ticketId: string,
    actorId: string,
    payment: CompletingRepairPayment,
  ): Promise<void>;
}
