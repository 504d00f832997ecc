/** `/processor-links` and `/accounts/:id/processor-links`: links to processor customers. */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import {
  createProcessorLinkBody,
  processorLinkListQuery,
  processorLinkSchema,
  updateProcessorLinkBody,
} from "../../../app/accounts/account_schemas.ts";
import {
  createProcessorLink,
  deleteProcessorLink,
  listProcessorLinks,
  updateProcessorLink,
} from "../../../app/accounts/processor_links.ts";
import { ApiRouter } from "../../route.ts";
import { deleted, SUB_LIST_NOTE } from "./_shared.ts";

/** Adds `/:id/processor-links` (list, add) to the `/accounts` router. */
export function accountProcessorLinkRoutes(deps: AppDeps, accounts: ApiRouter): ApiRouter {
  return accounts
    .route({
      method: "get",
      path: "/:id/processor-links",
      summary: "Payment-processor links of an account",
      description: `Sortable by processor, createdAt. ${SUB_LIST_NOTE}`,
      access: "accounts.view",
      params: idParams,
      query: processorLinkListQuery,
      responses: {
        200: { description: "A page of links", schema: listResponse(processorLinkSchema) },
      },
    }, async (c, { params, query }) => c.json(await listProcessorLinks(deps, params.id, query)))
    .route(
      {
        method: "post",
        path: "/:id/processor-links",
        summary: "Link the account to a processor customer",
        description: "(processor, externalCustomerId) is unique (processor compared " +
          "case-insensitively): a second link → 409 duplicate.",
        access: "accounts.edit",
        params: idParams,
        body: createProcessorLinkBody,
        responses: { 201: { description: "The new link", schema: processorLinkSchema } },
        errors: { 409: ["duplicate"] },
      },
      async (c, { params, body }) => c.json(await createProcessorLink(deps, params.id, body), 201),
    );
}

export function processorLinkRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/processor-links", "Accounts")
    .route({
      method: "patch",
      path: "/:id",
      summary: "Update a processor link",
      access: "accounts.edit",
      params: idParams,
      body: updateProcessorLinkBody,
      responses: { 200: { description: "The updated link", schema: processorLinkSchema } },
      errors: { 409: ["duplicate"] },
    }, async (c, { params, body }) => c.json(await updateProcessorLink(deps, params.id, body)))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a processor link",
      access: "accounts.admin",
      params: idParams,
      responses: deleted,
    }, async (c, { params }) => {
      await deleteProcessorLink(deps, params.id);
      return c.body(null, 204);
    });
}
