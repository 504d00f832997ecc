/** Service templates (API §9): CRUD with soft delete, filter `itemCategory`. */
import type { AppDeps } from "../../../app/deps.ts";
import {
  createTemplateBody,
  templateListQuery,
  templateSchema,
  updateTemplateBody,
} from "../../../app/repairs/repair_schemas.ts";
import {
  createTemplate,
  deleteTemplate,
  requireTemplate,
  updateTemplate,
} from "../../../app/repairs/templates.ts";
import { listTemplates } from "../../../app/repairs/templates_repo.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import { ApiRouter } from "../../route.ts";
import { noContent } from "./_shared.ts";

const LINES = "`defaultLineItems` are copied onto a ticket created with `serviceTemplateId`: " +
  "each `{ kind: labor|part, description?, quantity, unitPrice?, productId? }` names an " +
  "existing product (else 400 `invalid_reference`) or gives its description and unit price; " +
  "a product's name and price are taken when the ticket is created, and its quantity out of " +
  "stock (as any line added to a ticket). A serialized or rental product (tracked unit by " +
  "unit) → 400 `invalid_product_type`.";

const templateResponse = { 200: { description: "The template", schema: templateSchema } };

export function serviceTemplateRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/service-templates", "Repairs")
    .route({
      method: "get",
      path: "/",
      summary: "List service templates",
      description: "Filter `itemCategory` (exact, case-insensitive); `q` matches name, item " +
        "category and description; sortable by name (default), itemCategory, createdAt.",
      access: "repairs.view",
      query: templateListQuery,
      responses: {
        200: { description: "A page of templates", schema: listResponse(templateSchema) },
      },
    }, async (c, { query }) => c.json(await listTemplates(deps.db, query)))
    .route({
      method: "post",
      path: "/",
      summary: "Create a service template",
      description: LINES,
      access: "repairs.edit",
      body: createTemplateBody,
      responses: { 201: { description: "The template", schema: templateSchema } },
      errors: { 400: ["invalid_reference", "invalid_product_type"] },
    }, async (c, { body, actor }) => c.json(await createTemplate(deps, actor, body), 201))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a service template",
      access: "repairs.view",
      params: idParams,
      responses: templateResponse,
    }, async (c, { params }) => c.json(await requireTemplate(deps.db, params.id)))
    .route(
      {
        method: "patch",
        path: "/:id",
        summary: "Change a service template",
        description: LINES + " Tickets created earlier keep their lines.",
        access: "repairs.edit",
        params: idParams,
        body: updateTemplateBody,
        responses: templateResponse,
        errors: { 400: ["invalid_reference", "invalid_product_type"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await updateTemplate(deps, actor, params.id, body)),
    )
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a service template (soft)",
      description: "Tickets created from it keep their lines and `serviceTemplateId`.",
      access: "repairs.admin",
      params: idParams,
      responses: noContent,
    }, async (c, { params, actor }) => {
      await deleteTemplate(deps, actor, params.id);
      return c.body(null, 204);
    });
}
