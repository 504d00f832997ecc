/**
 * The repairs feature's side of payment at the POS: the port the POS owns
 * (app/pos/repair_ticket_port.ts), filled in by `createDeps`. Completing a repair_payment
 * costs three queries here, whatever the ticket's history: the ticket's row lock, its
 * payments so far (read after the lock is held, so a payment another terminal committed
 * meanwhile is counted), and the status change with its history row.
 */
import { InvalidReferenceError } from "../../domain/errors.ts";
import { parseMoney } from "../../domain/money.ts";
import {
  assertNotOverpaid,
  balanceDueCents,
  repairPaymentLines,
} from "../../domain/repairs/ticket_money.ts";
import type { AppDeps } from "../deps.ts";
import type { RepairTicketPort } from "../pos/repair_ticket_port.ts";
import { listAllLineItems } from "./line_items_repo.ts";
import { amountPaidCents } from "./ticket_json.ts";
import { moveTicket } from "./ticket_status.ts";
import { findTicket, findTicketStatus, lockTicket } from "./tickets_repo.ts";

type PortDeps = Pick<AppDeps, "clock" | "ids" | "config" | "logger" | "outboxCipher" | "modules">;

function missing(ticketId: string): InvalidReferenceError {
  return new InvalidReferenceError("repairTicketId", `Repair ticket "${ticketId}" does not exist`);
}

export function repairTicketPort(deps: PortDeps): RepairTicketPort {
  return {
    findTicketStatus: (trx, ticketId) => findTicketStatus(trx, ticketId),

    findTicketAccountId: async (trx, ticketId) => (await findTicket(trx, ticketId))?.accountId,

    async findTicketForReceipt(db, ticketId) {
      const ticket = await findTicket(db, ticketId);
      return ticket && {
        ticketNumber: ticket.ticketNumber,
        itemDescription: ticket.itemDescription,
        serialNumber: ticket.serialNumber,
      };
    },

    async paymentLines(trx, ticketId) {
      // The view carries the amount paid so far, read in the same statement as the ticket.
      const ticket = await findTicket(trx, ticketId);
      if (!ticket) throw missing(ticketId);
      const lines = await listAllLineItems(trx, ticketId);
      return repairPaymentLines(
        ticket.ticketNumber,
        lines.map((l) => ({ ...l, unitPriceCents: parseMoney(l.unitPrice) })),
        parseMoney(ticket.amountPaid),
      );
    },

    async markPickedUp(trx, ticketId, actorId, payment) {
      const ticket = await lockTicket(trx, ticketId);
      if (!ticket) throw missing(ticketId);
      if (ticket.status !== "cancelled") {
        const paid = await amountPaidCents(trx, ticketId);
        const due = balanceDueCents(parseMoney(ticket.customerTotal), paid);
        assertNotOverpaid(ticket.ticketNumber, payment.amountCents, due);
      }
      // A cancelled ticket is refused here (409 invalid_transition) by the state machine.
      await moveTicket(deps, trx, ticket, { type: "paid" }, actorId, null);
    },
  };
}
