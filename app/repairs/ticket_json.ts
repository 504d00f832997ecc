/**
 * Tickets as the API shows them (API §9): the view (row, account name, amount paid from the
 * POS) with the figures derived from it (`balanceDue`) and from the runtime config
 * (`estimateExceeded`). No query beyond the config, read only when a ticket has an estimate.
 */
import { formatMoney, parseMoney, parsePercent } from "../../domain/money.ts";
import { balanceDueCents, estimateExceeded } from "../../domain/repairs/ticket_money.ts";
import type { Db } from "../db/database.ts";
import { getRuntimeConfig } from "../platform/runtime_config.ts";
import { findRepairAmountPaid } from "../pos/repair_payments_repo.ts";
import type { TicketJson } from "./ticket_schemas.ts";
import type { TicketView } from "./tickets_repo.ts";

/** The API form of one ticket, given the estimate tolerance. */
export function ticketJsonOf(ticket: TicketView, toleranceBp: number): TicketJson {
  const customerTotalCents = parseMoney(ticket.customerTotal);
  const paidCents = parseMoney(ticket.amountPaid);
  return {
    id: ticket.id,
    ticketNumber: ticket.ticketNumber,
    accountId: ticket.accountId,
    accountName: ticket.accountName,
    memberId: ticket.memberId,
    status: ticket.status,
    itemDescription: ticket.itemDescription,
    itemCount: ticket.itemCount,
    serialNumber: ticket.serialNumber,
    isBatch: ticket.batchId !== null,
    batchId: ticket.batchId,
    serviceTemplateId: ticket.serviceTemplateId,
    estimate: ticket.estimate,
    estimateApproval: ticket.estimateApproval,
    estimateExceeded: estimateExceeded({
      customerTotalCents,
      estimateCents: ticket.estimate === null ? null : parseMoney(ticket.estimate),
      approvedCents: ticket.estimateApproval ? parseMoney(ticket.estimateApproval.amount) : null,
      toleranceBp,
    }),
    dueDate: ticket.dueDate,
    locationId: ticket.locationId,
    customerTotal: ticket.customerTotal,
    internalCost: ticket.internalCost,
    amountPaid: formatMoney(paidCents),
    balanceDue: formatMoney(balanceDueCents(customerTotalCents, paidCents)),
    intakeAt: ticket.intakeAt,
    createdBy: ticket.createdBy,
    createdAt: ticket.createdAt,
    updatedAt: ticket.updatedAt,
  };
}

/** Amount paid on one ticket, in cents (0 without a completed payment). */
export async function amountPaidCents(db: Db, ticketId: string): Promise<number> {
  return parseMoney(await findRepairAmountPaid(db, ticketId));
}

export async function estimateToleranceBp(db: Db): Promise<number> {
  return parsePercent((await getRuntimeConfig(db)).repairEstimateTolerancePercent);
}

export async function ticketsJson(db: Db, tickets: readonly TicketView[]): Promise<TicketJson[]> {
  if (tickets.length === 0) return [];
  // The tolerance matters only to tickets with an estimate (no config read otherwise).
  const toleranceBp = tickets.some((t) => t.estimate !== null) ? await estimateToleranceBp(db) : 0;
  return tickets.map((t) => ticketJsonOf(t, toleranceBp));
}

export async function ticketJson(db: Db, ticket: TicketView): Promise<TicketJson> {
  return (await ticketsJson(db, [ticket]))[0]!;
}
