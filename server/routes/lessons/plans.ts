/** Lesson plans (API §10): sections, items and their progress. */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import {
  planItemParams,
  planItemResult,
  planListQuery,
  planSchema,
  updatePlanBody,
  updatePlanItemBody,
} from "../../../app/lessons/lesson_schemas.ts";
import {
  changePlan,
  changePlanItem,
  listPlans,
  removePlan,
  requirePlan,
} from "../../../app/lessons/lesson_plans.ts";
import { ApiRouter } from "../../route.ts";
import { noContent } from "./_shared.ts";

export function planRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/lesson-plans", "Lessons")
    .route({
      method: "get",
      path: "/",
      summary: "List lesson plans",
      description: "Filters enrollmentId, status; sortable by createdAt, title.",
      access: "lessons.view",
      query: planListQuery,
      responses: { 200: { description: "A page", schema: listResponse(planSchema) } },
    }, async (c, { query }) => c.json(await listPlans(deps.db, query)))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a lesson plan",
      access: "lessons.view",
      params: idParams,
      responses: { 200: { description: "The plan", schema: planSchema } },
    }, async (c, { params }) => c.json(await requirePlan(deps.db, params.id)))
    .route({
      method: "patch",
      path: "/:id",
      summary: "Update a lesson plan",
      description: "status active|completed|archived; making a second plan of the enrollment " +
        "active → 409 plan_already_active.",
      access: "lessons.edit",
      params: idParams,
      body: updatePlanBody,
      responses: { 200: { description: "The plan", schema: planSchema } },
      errors: { 409: ["plan_already_active"] },
    }, async (c, { params, body }) => c.json(await changePlan(deps, params.id, body)))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a lesson plan",
      access: "lessons.edit",
      params: idParams,
      responses: noContent,
    }, async (c, { params }) => {
      await removePlan(deps, params.id);
      return c.body(null, 204);
    })
    .route(
      {
        method: "patch",
        path: "/:id/items/:itemId",
        summary: "Record an item's progress",
        description: "in_progress sets startedDate; mastered sets masteredDate (and startedDate " +
          "when empty); not_started clears both. Returns the item with the plan's new " +
          "progressPercent. lessons.teach users may update plans of enrollments in slots they " +
          "teach; others → 403.",
        access: "lessons.teach",
        params: planItemParams,
        body: updatePlanItemBody,
        responses: { 200: { description: "The item", schema: planItemResult } },
        errors: { 400: ["invalid_reference"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await changePlanItem(deps, actor, params.id, params.itemId, body)),
    );
}
