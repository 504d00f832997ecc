/**
 * Tickets as the API shows them (API §9): the row with its account's name, plus the money
 * figures that depend on the POS (`amountPaid`, `balanceDue`) and the runtime config
 * (`estimateExceeded`). Two queries for any number of tickets: the payments of all of them,
 * and the config.
 */
import { formatMoney, parseMoney, parsePercent } from "../../domain/money.ts";
import { balanceDueCents, estimateExceeded } from "../../domain/repairs/ticket_money.ts";
import type { Db } from "../db/database.ts";
import { getRuntimeConfig } from "../platform/settings.ts";
import { findRepairPaymentTotals } from "../pos/repair_payments_repo.ts";
import type { TicketJson } from "./ticket_schemas.ts";
import type { TicketView } from "./tickets_repo.ts";

/** The API form of one ticket, given its amount paid and the estimate tolerance. */
export function ticketJsonOf(
  ticket: TicketView,
  amountPaidCents: number,
  toleranceBp: number,
): TicketJson {
  const customerTotalCents = parseMoney(ticket.customerTotal);
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
    amountPaid: formatMoney(amountPaidCents),
    balanceDue: formatMoney(balanceDueCents(customerTotalCents, amountPaidCents)),
    intakeAt: ticket.intakeAt,
    createdBy: ticket.createdBy,
    createdAt: ticket.createdAt,
    updatedAt: ticket.updatedAt,
  };
}

/** Amount paid per ticket id, in cents (0 for tickets without a completed payment). */
export async function amountsPaid(db: Db, ids: readonly string[]): Promise<Map<string, number>> {
  const paid = await findRepairPaymentTotals(db, ids);
  return new Map(ids.map((id) => [id, paid.has(id) ? parseMoney(paid.get(id)!) : 0]));
}

export async function estimateToleranceBp(db: Db): Promise<number> {
  return parsePercent((await getRuntimeConfig(db)).repairEstimateTolerancePercent);
}

export async function ticketsJson(db: Db, tickets: readonly TicketView[]): Promise<TicketJson[]> {
  if (tickets.length === 0) return [];
  const paid = await amountsPaid(db, tickets.map((t) => t.id));
  // The tolerance matters only to tickets with an estimate (no config read otherwise).
  const toleranceBp = tickets.some((t) => t.estimate !== null) ? await estimateToleranceBp(db) : 0;
  return tickets.map((t) => ticketJsonOf(t, paid.get(t.id) ?? 0, toleranceBp));
}

export async function ticketJson(db: Db, ticket: TicketView): Promise<TicketJson> {
  return (await ticketsJson(db, [ticket]))[0]!;
}
