/**
 * Repair tickets (API §9): CRUD with soft delete, the ready-for-pickup list, status moves
 * and reopen, history, estimate approval and the claim tag. Line items, notes and photos
 * nested under a ticket have their own files.
 */
import type { AppDeps } from "../../../app/deps.ts";
import { getClaimCheck } from "../../../app/repairs/claim_check.ts";
import { approveEstimate } from "../../../app/repairs/estimate.ts";
import {
  approveEstimateBody,
  claimCheckSchema,
  createTicketBody,
  historyEntrySchema,
  readyListQuery,
  reopenBody,
  statusBody,
  ticketListQuery,
  ticketSchema,
  updateTicketBody,
} from "../../../app/repairs/ticket_schemas.ts";
import {
  changeStatus,
  getTicketHistory,
  reopenTicket,
} from "../../../app/repairs/ticket_status.ts";
import {
  createTicket,
  deleteTicket,
  getTicket,
  listReadyForPickup,
  listTicketsJson,
  updateTicket,
} from "../../../app/repairs/tickets.ts";
import { dataResponse, idParams, listResponse } from "../../../app/schemas.ts";
import { renderClaimCheckHtml, renderClaimCheckText } from "../../../domain/repairs/claim_check.ts";
import {
  PRINTED_FORMS_NOTE,
  printedResponse,
  printedResponses,
  printQuery,
} from "../../printable.ts";
import { ApiRouter } from "../../route.ts";
import { noContent } from "./_shared.ts";

const MONEY_NOTE = "Money figures are read-only: `customerTotal` = Σ quantity × unitPrice of " +
  "the customer-facing line items (pre-tax), `internalCost` = the same over internal " +
  "(consumable) lines, `amountPaid` = the pre-tax (net of discount) line amounts of the " +
  "ticket's completed repair_payment transactions less what was refunded of them (voided " +
  "payments count nothing), `balanceDue` = customerTotal − amountPaid, never below 0.00.";

const ticketResponse = { 200: { description: "The ticket", schema: ticketSchema } };

export function ticketRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/repair-tickets", "Repairs")
    .route({
      method: "get",
      path: "/ready-for-pickup",
      summary: "Tickets ready for pickup",
      description: "Every live ticket in `ready_for_pickup`, paginated, each with its " +
        "`balanceDue`. Sortable by readyAt (when it entered the status; default, oldest " +
        "first), ticketNumber, createdAt, dueDate; `q` as in the tickets list; filters " +
        "accountId, locationId.",
      access: "repairs.view",
      query: readyListQuery,
      responses: { 200: { description: "A page of tickets", schema: listResponse(ticketSchema) } },
    }, async (c, { query }) => c.json(await listReadyForPickup(deps, query)))
    .route({
      method: "get",
      path: "/",
      summary: "List repair tickets",
      description: "Filters `status`, `accountId`, `batchId`, `locationId`, `serialNumber` " +
        "(exact, case-insensitive, trimmed). `q` (case-insensitive, index-backed) matches the " +
        "ticket number, item description, serial number and the account's name. Sortable by " +
        "createdAt (default, newest first), updatedAt, ticketNumber, status, dueDate, " +
        "itemDescription. " + MONEY_NOTE,
      access: "repairs.view",
      query: ticketListQuery,
      responses: { 200: { description: "A page of tickets", schema: listResponse(ticketSchema) } },
    }, async (c, { query }) => c.json(await listTicketsJson(deps, query)))
    .route({
      method: "post",
      path: "/",
      summary: "Open a repair ticket",
      description: "Status `new`; `ticketNumber` (R-000123) is assigned from a sequence. " +
        "`memberId` must be a member of the account; `batchId` joins a draft batch (else 409 " +
        "`invalid_transition`); `serviceTemplateId` copies the template's default line items " +
        "(a line naming a product that no longer exists → 400 `invalid_reference`, a " +
        "serialized or rental one → 400 `invalid_product_type`), whose parts are taken out of " +
        "stock as any line added. Unknown account, member, " +
        "location, batch or template → 400 `invalid_reference`. " + MONEY_NOTE,
      access: "repairs.edit",
      body: createTicketBody,
      responses: { 201: { description: "The ticket", schema: ticketSchema } },
      errors: { 400: ["invalid_reference", "invalid_product_type"], 409: ["invalid_transition"] },
    }, async (c, { body, actor }) => c.json(await createTicket(deps, actor, body), 201))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a repair ticket",
      description: MONEY_NOTE,
      access: "repairs.view",
      params: idParams,
      responses: ticketResponse,
    }, async (c, { params }) => c.json(await getTicket(deps, params.id)))
    .route(
      {
        method: "patch",
        path: "/:id",
        summary: "Change a repair ticket",
        description: "Any of the create fields but `serviceTemplateId`; `status` only through " +
          "POST /status. Changing `batchId` (null leaves the batch) needs both the batch left " +
          "and the batch joined to be drafts (else 409 `invalid_transition`).",
        access: "repairs.edit",
        params: idParams,
        body: updateTicketBody,
        responses: ticketResponse,
        errors: { 400: ["invalid_reference"], 409: ["invalid_transition"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await updateTicket(deps, actor, params.id, body)),
    )
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a repair ticket (soft)",
      description: "The ticket disappears from lists and reads (404) but its rows stay; it " +
        "can no longer be paid at the POS. Its parts stay used (their stock is not given " +
        "back): delete the part lines first to put them back in stock.",
      access: "repairs.admin",
      params: idParams,
      responses: noContent,
    }, async (c, { params, actor }) => {
      await deleteTicket(deps, actor, params.id);
      return c.body(null, 204);
    })
    .route(
      {
        method: "post",
        path: "/:id/status",
        summary: "Move a ticket to another status",
        description: "Allowed moves (anything else → 409 `invalid_transition`): new → " +
          "in_transit | intake | cancelled · in_transit → intake | cancelled · intake → " +
          "in_progress | pending_parts | cancelled · in_progress → pending_parts | " +
          "ready_for_pickup | cancelled · pending_parts → in_progress | cancelled · " +
          "ready_for_pickup → picked_up | delivered | in_progress · picked_up, delivered: " +
          "terminal · cancelled: only via reopen. Each move writes a history row in the same " +
          "transaction; concurrent moves of one ticket run one after the other. Entering " +
          'ready_for_pickup queues a "ready for pickup" email (ticket number, item, balance ' +
          "due) in the outbox when the email module is enabled and the account has an email. " +
          "Cancelling leaves the parts on the ticket used (out of stock, as a reopen finds " +
          "them); deleting a part line gives its stock back.",
        access: "repairs.edit",
        params: idParams,
        body: statusBody,
        responses: ticketResponse,
        errors: { 409: ["invalid_transition"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await changeStatus(deps, actor, params.id, body)),
    )
    .route(
      {
        method: "post",
        path: "/:id/reopen",
        summary: "Reopen a cancelled ticket",
        description: "Back to the status it had before it was cancelled (a history row is " +
          "written). A ticket that is not cancelled → 409 `invalid_transition`.",
        access: "repairs.edit",
        params: idParams,
        body: reopenBody,
        responses: ticketResponse,
        errors: { 409: ["invalid_transition"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await reopenTicket(deps, actor, params.id, body?.note)),
    )
    .route({
      method: "get",
      path: "/:id/history",
      summary: "A ticket's status history",
      description: "`{ data }`, oldest first: every status change (`fromStatus`, `toStatus`, " +
        "`changedBy` and their name, `changedAt`, `note`). Creation is not a change: a new " +
        "ticket's history is empty.",
      access: "repairs.view",
      params: idParams,
      responses: { 200: { description: "The history", schema: dataResponse(historyEntrySchema) } },
    }, async (c, { params }) => c.json(await getTicketHistory(deps, params.id)))
    .route(
      {
        method: "post",
        path: "/:id/estimate/approve",
        summary: "Record the customer's approval of the estimate",
        description: "Records who approved what amount (the estimate at this moment), how and " +
          "when as `estimateApproval` (it stays until the next approval replaces it), and " +
          "writes `repair.estimate_approved` to the audit log. A ticket without an estimate → " +
          "409 `invalid_transition`. `estimateExceeded` then compares `customerTotal` with the " +
          "approved amount (tolerance: config `repairEstimateTolerancePercent`).",
        access: "repairs.edit",
        params: idParams,
        body: approveEstimateBody,
        responses: ticketResponse,
        errors: { 409: ["invalid_transition"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await approveEstimate(deps, actor, params.id, body)),
    )
    .route({
      method: "get",
      path: "/:id/claim-check",
      summary: "The claim tag (JSON, 40-column text or a printable HTML page)",
      description: "`intakeAt` is when the ticket first entered intake (null before). " +
        PRINTED_FORMS_NOTE,
      access: "repairs.view",
      params: idParams,
      query: printQuery,
      responses: printedResponses("The claim tag", claimCheckSchema),
    }, async (c, { params, query }) => {
      const { json, printable } = await getClaimCheck(deps, params.id);
      return printedResponse(c, {
        json: () => json,
        text: () => renderClaimCheckText(printable),
        html: (paper) => renderClaimCheckHtml(printable, paper),
      }, query.paper);
    });
}
