/**
 * Estimate approval with evidence (API §9): who approved what amount, how and when, kept on
 * the ticket until the next approval replaces it, and written to the audit log
 * (`repair.estimate_approved`) in the same transaction. A ticket without an estimate → 409
 * invalid_transition.
 */
import { ConflictError } from "../../domain/errors.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { ticketJson } from "./ticket_json.ts";
import { requireLockedTicket, requireTicket } from "./ticket_lookup.ts";
import type { ApproveEstimateInput, TicketJson } from "./ticket_schemas.ts";
import { saveEstimateApproval } from "./tickets_repo.ts";

export async function approveEstimate(
  deps: AppDeps,
  actor: Actor,
  id: string,
  input: ApproveEstimateInput,
): Promise<TicketJson> {
  return await withTransaction(deps.db, async (trx) => {
    const ticket = await requireLockedTicket(trx, id);
    if (ticket.estimate === null) {
      throw new ConflictError(
        "invalid_transition",
        `Repair ticket ${ticket.ticketNumber} has no estimate to approve`,
      );
    }
    const approval = {
      amount: ticket.estimate,
      approvedByName: input.approvedByName,
      method: input.method,
      note: input.note ?? null,
      recordedBy: actor.userId,
    };
    await saveEstimateApproval(trx, id, approval, deps.clock.now());
    await audit(deps, trx, actor, {
      action: "repair.estimate_approved",
      entityType: "repair_ticket",
      entityId: id,
      details: {
        ticketNumber: ticket.ticketNumber,
        amount: approval.amount,
        approvedByName: approval.approvedByName,
        method: approval.method,
        note: approval.note,
      },
    });
    return await ticketJson(trx, await requireTicket(trx, id));
  });
}
