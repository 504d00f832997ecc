/** `/lookups/id-types`: the identity document types lookup. */
import type { AppDeps } from "../../../app/deps.ts";
import { dataResponse, idParams } from "../../../app/schemas.ts";
import { createIdTypeBody, idTypeSchema } from "../../../app/accounts/account_schemas.ts";
import { createIdType, deleteIdType, getIdTypes } from "../../../app/accounts/id_types.ts";
import { ApiRouter } from "../../route.ts";
import { deleted } from "./_shared.ts";

export function idTypeRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/lookups/id-types", "Lookups")
    .route({
      method: "get",
      path: "/",
      summary: "Identity document types",
      description: "The fixed-size lookup `{ data }` (unpaginated). Built-ins: drivers_license, " +
        "state_id, passport, student_id, other.",
      access: "accounts.view",
      responses: { 200: { description: "All id types", schema: dataResponse(idTypeSchema) } },
    }, async (c) => c.json({ data: await getIdTypes(deps) }))
    .route({
      method: "post",
      path: "/",
      summary: "Add an identity document type",
      description: "`value` is lowercase snake_case and unique (a clash → 409 duplicate).",
      access: "accounts.admin",
      body: createIdTypeBody,
      responses: { 201: { description: "The new id type", schema: idTypeSchema } },
      errors: { 409: ["duplicate"] },
    }, async (c, { body }) => c.json(await createIdType(deps, body), 201))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a custom identity document type",
      description: "Built-in values → 409 `built_in`; a value used by any member identifier " +
        "→ 409 `in_use`.",
      access: "accounts.admin",
      params: idParams,
      responses: deleted,
      errors: { 409: ["built_in", "in_use"] },
    }, async (c, { params }) => {
      await deleteIdType(deps, params.id);
      return c.body(null, 204);
    });
}
