/**
 * Rentals (API §13, §17): CRUD with soft delete, return and cancel, charges and their
 * generation, the rent-to-own buyout and the printable agreement. `/charges/generate` is declared before any `/:id`.
 */
import { startBuyout } from "../../../app/rentals/buyout.ts";
import { generateCharges, listRentalCharges } from "../../../app/rentals/charges.ts";
import {
  buyoutBody,
  chargeSchema,
  createRentalBody,
  generateChargesBody,
  generateChargesResult,
  rentalAgreementSchema,
  rentalListQuery,
  rentalSchema,
  returnRentalBody,
  updateRentalBody,
} from "../../../app/rentals/rental_schemas.ts";
import {
  cancelRental,
  createRental,
  deleteRental,
  getRental,
  listRentalsJson,
  returnRental,
  updateRental,
} from "../../../app/rentals/rentals.ts";
import type { AppDeps } from "../../../app/deps.ts";
import { transactionSchema } from "../../../app/pos/pos_schemas.ts";
import { dataResponse, idParams, listResponse } from "../../../app/schemas.ts";
import { getRentalAgreement } from "../../../app/rentals/agreement.ts";
import { renderAgreementHtml, renderAgreementText } from "../../../domain/rentals/agreement.ts";
import {
  PRINTED_FORMS_NOTE,
  printedResponse,
  printedResponses,
  printQuery,
} from "../../printable.ts";
import { ApiRouter } from "../../route.ts";

const MONEY_NOTE = "Money figures are read-only: `balanceDue` = Σ amount of the unpaid " +
  "charges; `equity` = Σ equity the paid charges accrued (each paid charge accrues " +
  "`rentToOwn.equityPercent` of its amount, rounded to the cent; a refund takes it back); " +
  "`payoffAmount` = `rentToOwn.purchasePrice` − equity, never below 0.00 (null without " +
  "rent-to-own). `isOverdue`: active and past `dueDate` (store-local today).";

const rentalResponse = { 200: { description: "The rental", schema: rentalSchema } };

export function rentalRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/rentals", "Rentals")
    .route(
      {
        method: "post",
        path: "/charges/generate",
        summary: "Generate the rental charges due",
        description: "Creates one charge per active rental and billing period whose " +
          "`periodStart` is on or before `through` (default store-local today; at most 366 " +
          "days ahead, else 400). Period k starts at startDate + k weeks, or + k calendar " +
          "months on the same day (clamped to the month's last day); `periodEnd` is the day " +
          "before the next period starts; `dueDate` = periodStart; `amount` = the rental's " +
          "current `rate`. Idempotent: a period that has its charge is counted in `skipped` " +
          "(unique per rental and period; concurrent runs create no duplicates). Returned, " +
          "cancelled and purchased rentals get no new charges. `ops rentals bill` does the " +
          "same for cron.",
        access: "rentals.edit",
        body: generateChargesBody,
        responses: { 200: { description: "What was created", schema: generateChargesResult } },
      },
      async (c, { body, actor }) =>
        c.json(await generateCharges(deps, actor, { through: body?.through })),
    )
    .route({
      method: "get",
      path: "/",
      summary: "List rentals",
      description: "Filters `status`, `accountId`, `memberId`, `productId`, `overdue=true` " +
        "(active and past dueDate), `pastDue=true` (a charge unpaid more than config " +
        "`rentalGraceDays` after its due date). `q` (case-insensitive, index-backed) matches " +
        "the account's name, the member's name and the unit's serial number. Sortable by " +
        "createdAt (default, newest first), updatedAt, rentalNumber, startDate, dueDate, " +
        "status. " + MONEY_NOTE,
      access: "rentals.view",
      query: rentalListQuery,
      responses: { 200: { description: "A page of rentals", schema: listResponse(rentalSchema) } },
    }, async (c, { query }) => c.json(await listRentalsJson(deps, query)))
    .route({
      method: "post",
      path: "/",
      summary: "Rent a unit out",
      description: "Status `active`; `rentalNumber` (L-000123) is assigned from a sequence. " +
        "`unitId` must be a unit of `productId` in status `in_stock` (else 409 " +
        "`unit_unavailable`; of two rentals of one unit at once exactly one succeeds); the " +
        "unit becomes `rented`. `memberId` must be a member of the account. `rentToOwn` " +
        "makes it rent-to-own. Unknown account, member or product → 400 `invalid_reference`. " +
        MONEY_NOTE,
      access: "rentals.edit",
      body: createRentalBody,
      responses: { 201: { description: "The rental", schema: rentalSchema } },
      errors: { 400: ["invalid_reference"], 409: ["unit_unavailable"] },
    }, async (c, { body, actor }) => c.json(await createRental(deps, actor, body), 201))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a rental",
      description: MONEY_NOTE,
      access: "rentals.view",
      params: idParams,
      responses: rentalResponse,
    }, async (c, { params }) => c.json(await getRental(deps, params.id)))
    .route(
      {
        method: "patch",
        path: "/:id",
        summary: "Change a rental",
        description: "`memberId`, `dueDate`, `rate` (charges generated from now on use it; a " +
          "change is audited), `deposit`, `notes`. The status changes only through return, " +
          "cancel and buyout.",
        access: "rentals.edit",
        params: idParams,
        body: updateRentalBody,
        responses: rentalResponse,
        errors: { 400: ["invalid_reference"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await updateRental(deps, actor, params.id, body)),
    )
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a rental (soft)",
      description: "Only a rental that no longer holds its unit (not active, else 409 " +
        "`invalid_transition`); it disappears from lists and reads but its rows stay.",
      access: "rentals.admin",
      params: idParams,
      responses: { 204: { description: "Deleted" } },
      errors: { 409: ["invalid_transition"] },
    }, async (c, { params, actor }) => {
      await deleteRental(deps, actor, params.id);
      return c.body(null, 204);
    })
    .route(
      {
        method: "post",
        path: "/:id/return",
        summary: "Take a rented instrument back",
        description: "The unit goes back to `in_stock` (or `in_repair` with `toRepair`) with " +
          "`condition`, a value of the item-conditions lookup (else 400 `invalid_reference`). " +
          "A rental that is not active → 409 `invalid_transition`. Its charges stay.",
        access: "rentals.edit",
        params: idParams,
        body: returnRentalBody,
        responses: rentalResponse,
        errors: { 400: ["invalid_reference"], 409: ["invalid_transition"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await returnRental(deps, actor, params.id, body)),
    )
    .route({
      method: "post",
      path: "/:id/cancel",
      summary: "Cancel an active rental",
      description: "The unit goes back to `in_stock`. A rental that is not active → 409 " +
        "`invalid_transition`.",
      access: "rentals.edit",
      params: idParams,
      responses: rentalResponse,
      errors: { 409: ["invalid_transition"] },
    }, async (c, { params, actor }) => c.json(await cancelRental(deps, actor, params.id)))
    .route({
      method: "get",
      path: "/:id/agreement",
      summary: "The rental agreement (JSON, 40-column text or a printable HTML page)",
      description: "The rental's summary to print and sign: the parties (the store; the " +
        "account with its number and contact, and the student when the rental names a " +
        "member), the instrument and its serial number, start and due dates, rate per " +
        "billing period, deposit, and the rent-to-own terms (purchase price, equity per paid " +
        "charge, equity so far, payoff). Any status (a returned or purchased rental's " +
        "agreement says so). " + PRINTED_FORMS_NOTE,
      access: "rentals.view",
      params: idParams,
      query: printQuery,
      responses: printedResponses("The rental agreement", rentalAgreementSchema),
    }, async (c, { params, query }) => {
      const { json, printable } = await getRentalAgreement(deps, params.id);
      return printedResponse(c, {
        json: () => json,
        text: () => renderAgreementText(printable),
        html: (paper) => renderAgreementHtml(printable, paper),
      }, query.paper);
    })
    .route({
      method: "get",
      path: "/:id/charges",
      summary: "A rental's charges",
      description: "`{ data }`, oldest period first: `status` unpaid or paid (with the " +
        "transaction that paid it), and the rent-to-own `equity` the charge accrued.",
      access: "rentals.view",
      params: idParams,
      responses: { 200: { description: "The charges", schema: dataResponse(chargeSchema) } },
    }, async (c, { params }) => c.json({ data: await listRentalCharges(deps, params.id) }))
    .route(
      {
        method: "post",
        path: "/:id/buyout",
        summary: "Start the buyout of a rent-to-own rental",
        description: "Creates a pending sale (POS transaction, 201) of the rental's " +
          "`payoffAmount` at `locationId`, linked by `rentalId`; pay and complete it at the " +
          "register like any sale: completing it sets the rental `purchased` and the unit " +
          "`sold`, only at this payoff (rent refunded or paid before it completes → 409 " +
          "`payoff_changed` there, with the current `payoffAmount`: void it and start again). " +
          "The rent whose equity a completed buyout counted cannot be refunded or voided (409 " +
          "`equity_consumed`) until the buyout sale is refunded (the rental stays purchased) or " +
          "voided (the rental is active again). Voiding the pending sale leaves the rental " +
          "active. A rental that is not active or not rent-to-own → 409 `invalid_transition`; " +
          "unknown location → 400 `invalid_reference`.",
        access: "rentals.edit",
        params: idParams,
        body: buyoutBody,
        responses: { 201: { description: "The pending buyout sale", schema: transactionSchema } },
        errors: { 400: ["invalid_reference"], 409: ["invalid_transition"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await startBuyout(deps, actor, params.id, body), 201),
    );
}
