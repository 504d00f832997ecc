/** `/identifiers` and `/members/:id/identifiers`: identity documents of members. */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import {
  createIdentifierBody,
  identifierListQuery,
  identifierSchema,
  updateIdentifierBody,
} from "../../../app/accounts/account_schemas.ts";
import {
  createIdentifier,
  deleteIdentifier,
  listIdentifiers,
  updateIdentifier,
} from "../../../app/accounts/identifiers.ts";
import { ApiRouter } from "../../route.ts";
import { deleted, SUB_LIST_NOTE } from "./_shared.ts";

/** Adds `/:id/identifiers` (list, add) to the `/members` router. */
export function memberIdentifierRoutes(deps: AppDeps, members: ApiRouter): ApiRouter {
  return members
    .route({
      method: "get",
      path: "/:id/identifiers",
      summary: "Identity documents of a member",
      description: `Sortable by idType, createdAt. ${SUB_LIST_NOTE}`,
      access: "accounts.view",
      params: idParams,
      query: identifierListQuery,
      responses: {
        200: { description: "A page of identifiers", schema: listResponse(identifierSchema) },
      },
    }, async (c, { params, query }) => c.json(await listIdentifiers(deps, params.id, query)))
    .route({
      method: "post",
      path: "/:id/identifiers",
      summary: "Add an identity document",
      description: "`idType` is a value of GET /lookups/id-types (else 400 invalid_reference). " +
        "Scans: create the identifier, upload files with entityType member_identifier and " +
        "entityId = the identifier's id, then PATCH frontFileId/backFileId (files of another " +
        "type or member → 400 invalid_reference).",
      access: "accounts.edit",
      params: idParams,
      body: createIdentifierBody,
      responses: { 201: { description: "The new identifier", schema: identifierSchema } },
      errors: { 400: ["invalid_reference"] },
    }, async (c, { params, body }) => c.json(await createIdentifier(deps, params.id, body), 201));
}

export function identifierRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/identifiers", "Members")
    .route({
      method: "patch",
      path: "/:id",
      summary: "Update an identity document",
      access: "accounts.edit",
      params: idParams,
      body: updateIdentifierBody,
      responses: { 200: { description: "The updated identifier", schema: identifierSchema } },
      errors: { 400: ["invalid_reference"] },
    }, async (c, { params, body }) => c.json(await updateIdentifier(deps, params.id, body)))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete an identity document (and its scans)",
      access: "accounts.admin",
      params: idParams,
      responses: deleted,
    }, async (c, { params }) => {
      await deleteIdentifier(deps, params.id);
      return c.body(null, 204);
    });
}
