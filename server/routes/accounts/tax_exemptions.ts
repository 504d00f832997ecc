/** `/tax-exemptions` and `/accounts/:id/tax-exemptions`: tax exemption certificates. */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import {
  createTaxExemptionBody,
  revokeTaxExemptionBody,
  taxExemptionListQuery,
  taxExemptionSchema,
  updateTaxExemptionBody,
} from "../../../app/accounts/account_schemas.ts";
import {
  approveTaxExemption,
  createTaxExemption,
  deleteTaxExemption,
  listTaxExemptions,
  revokeTaxExemption,
  updateTaxExemption,
} from "../../../app/accounts/tax_exemptions.ts";
import { ApiRouter } from "../../route.ts";
import { deleted, SUB_LIST_NOTE } from "./_shared.ts";

/** Adds `/:id/tax-exemptions` (list, add) to the `/accounts` router. */
export function accountTaxExemptionRoutes(deps: AppDeps, accounts: ApiRouter): ApiRouter {
  return accounts
    .route({
      method: "get",
      path: "/:id/tax-exemptions",
      summary: "Tax exemptions of an account",
      description:
        `Sortable by certificateNumber, status, createdAt; filter status. ${SUB_LIST_NOTE}`,
      access: "accounts.view",
      params: idParams,
      query: taxExemptionListQuery,
      responses: {
        200: { description: "A page of tax exemptions", schema: listResponse(taxExemptionSchema) },
      },
    }, async (c, { params, query }) => c.json(await listTaxExemptions(deps, params.id, query)))
    .route({
      method: "post",
      path: "/:id/tax-exemptions",
      summary: "Add a tax exemption (pending)",
      description: "Starts `pending`; approve and revoke with their own actions.",
      access: "accounts.edit",
      params: idParams,
      body: createTaxExemptionBody,
      responses: { 201: { description: "The new exemption", schema: taxExemptionSchema } },
    }, async (c, { params, body }) => c.json(await createTaxExemption(deps, params.id, body), 201));
}

export function taxExemptionRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/tax-exemptions", "Accounts")
    .route(
      {
        method: "patch",
        path: "/:id",
        summary: "Update a tax exemption",
        description: "certificateNumber, issuingState, reason, expiresDate; `status` is not " +
          "writable here (approve/revoke). A revoked exemption is final → 409 invalid_transition. " +
          "An approval vouches for the certificate it saw: changing the certificateNumber, " +
          "issuingState or expiresDate of an approved exemption (to another value) puts it back " +
          "to `pending` (approvedAt and approvedBy cleared), whoever edits it, so the account " +
          "pays tax again until someone with accounts.approve approves it again; audited as " +
          "`tax_exemption.returned_to_pending` with the fields' old and new values. `reason` " +
          "(a note) and edits of a pending exemption leave the status alone.",
        access: "accounts.edit",
        params: idParams,
        body: updateTaxExemptionBody,
        responses: { 200: { description: "The updated exemption", schema: taxExemptionSchema } },
        errors: { 409: ["invalid_transition"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await updateTaxExemption(deps, actor, params.id, body)),
    )
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a tax exemption",
      access: "accounts.admin",
      params: idParams,
      responses: deleted,
    }, async (c, { params }) => {
      await deleteTaxExemption(deps, params.id);
      return c.body(null, 204);
    })
    .route(
      {
        method: "post",
        path: "/:id/approve",
        summary: "Approve a pending tax exemption",
        description: "pending → approved; any other state → 409 invalid_transition. Audited " +
          "as `tax_exemption.approved`.",
        access: "accounts.approve",
        params: idParams,
        responses: { 200: { description: "The approved exemption", schema: taxExemptionSchema } },
        errors: { 409: ["invalid_transition"] },
      },
      async (c, { params, actor }) => c.json(await approveTaxExemption(deps, actor, params.id)),
    )
    .route(
      {
        method: "post",
        path: "/:id/revoke",
        summary: "Revoke a tax exemption",
        description: "pending | approved → revoked (final), with a required reason; a revoked " +
          "exemption → 409 invalid_transition. Audited as `tax_exemption.revoked`.",
        access: "accounts.approve",
        params: idParams,
        body: revokeTaxExemptionBody,
        responses: { 200: { description: "The revoked exemption", schema: taxExemptionSchema } },
        errors: { 409: ["invalid_transition"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await revokeTaxExemption(deps, actor, params.id, body.reason)),
    );
}
