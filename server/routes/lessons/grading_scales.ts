/** Grading scales (API §10) with their levels; exactly one is the default. */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import {
  createGradingScaleBody,
  gradingScaleListQuery,
  gradingScaleLookupSchema,
  gradingScaleSchema,
  updateGradingScaleBody,
} from "../../../app/lessons/lesson_schemas.ts";
import {
  listGradingScaleLookup,
  listGradingScales,
} from "../../../app/lessons/grading_scales_repo.ts";
import {
  changeGradingScale,
  createGradingScale,
  removeGradingScale,
  requireGradingScale,
} from "../../../app/lessons/grading_scales.ts";
import { ApiRouter } from "../../route.ts";
import { noContent } from "./_shared.ts";

export function gradingScaleRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/grading-scales", "Lessons")
    .route({
      method: "get",
      path: "/lookup",
      summary: "All grading scales for dropdowns",
      description: "Unpaginated; the default scale first.",
      access: "lessons.view",
      responses: { 200: { description: "Scales", schema: gradingScaleLookupSchema } },
    }, async (c) => c.json({ data: await listGradingScaleLookup(deps.db) }))
    .route({
      method: "get",
      path: "/",
      summary: "List grading scales",
      description: "Sortable by name, createdAt; `q` searches the name.",
      access: "lessons.view",
      query: gradingScaleListQuery,
      responses: { 200: { description: "A page", schema: listResponse(gradingScaleSchema) } },
    }, async (c, { query }) => c.json(await listGradingScales(deps.db, query)))
    .route({
      method: "post",
      path: "/",
      summary: "Create a grading scale with its levels",
      description: "The first scale is the default; isDefault: true makes this one the default " +
        "and unsets the previous.",
      access: "lessons.edit",
      body: createGradingScaleBody,
      responses: { 201: { description: "The scale", schema: gradingScaleSchema } },
    }, async (c, { body }) => c.json(await createGradingScale(deps, body), 201))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a grading scale",
      access: "lessons.view",
      params: idParams,
      responses: { 200: { description: "The scale", schema: gradingScaleSchema } },
    }, async (c, { params }) => c.json(await requireGradingScale(deps.db, params.id)))
    .route({
      method: "patch",
      path: "/:id",
      summary: "Update a grading scale",
      description: "`levels` replaces the levels (a kept value keeps its level id). " +
        "isDefault: false on the default scale → 409 `default_required` (there is always a " +
        "default: make another scale the default with isDefault: true on it instead).",
      access: "lessons.edit",
      params: idParams,
      body: updateGradingScaleBody,
      responses: { 200: { description: "The scale", schema: gradingScaleSchema } },
      errors: { 409: ["default_required"] },
    }, async (c, { params, body }) => c.json(await changeGradingScale(deps, params.id, body)))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a grading scale",
      description: "Deleting the default makes the oldest remaining scale the default.",
      access: "lessons.edit",
      params: idParams,
      responses: noContent,
    }, async (c, { params }) => {
      await removeGradingScale(deps, params.id);
      return c.body(null, 204);
    });
}
