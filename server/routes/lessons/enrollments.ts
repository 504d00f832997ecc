/** Enrollments (API §10): a member's seat in a schedule slot, and its lesson plans. */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import {
  createEnrollmentBody,
  createPlanBody,
  enrollmentListQuery,
  enrollmentSchema,
  enrollmentStatusBody,
  planSchema,
  updateEnrollmentBody,
} from "../../../app/lessons/lesson_schemas.ts";
import { listEnrollments } from "../../../app/lessons/enrollments_repo.ts";
import {
  changeEnrollment,
  enrollMember,
  removeEnrollment,
  requireEnrollment,
  setEnrollmentStatus,
} from "../../../app/lessons/enrollments.ts";
import { createPlan } from "../../../app/lessons/lesson_plans.ts";
import { ApiRouter } from "../../route.ts";
import { noContent } from "./_shared.ts";

export function enrollmentRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/enrollments", "Lessons")
    .route({
      method: "get",
      path: "/",
      summary: "List enrollments",
      description: "Sortable by startDate, createdAt, memberName; `q` searches the member name.",
      access: "lessons.view",
      query: enrollmentListQuery,
      responses: { 200: { description: "A page", schema: listResponse(enrollmentSchema) } },
    }, async (c, { query }) => c.json(await listEnrollments(deps.db, query)))
    .route({
      method: "post",
      path: "/",
      summary: "Enroll a member in a slot",
      description: "New enrollments are active. Active and paused enrollments whose dates " +
        "overlap hold a seat: a full slot → 409 slot_full. A member holding an active or paused " +
        "enrollment with overlapping dates in a slot overlapping that weekday and time → 409 " +
        "double_booked. An inactive slot → 409 slot_inactive. Both rules hold under concurrent " +
        "requests (row locks on the member and the slot).",
      access: "lessons.edit",
      body: createEnrollmentBody,
      responses: { 201: { description: "The enrollment", schema: enrollmentSchema } },
      errors: {
        400: ["invalid_reference"],
        409: ["slot_full", "double_booked", "slot_inactive"],
      },
    }, async (c, { body }) => c.json(await enrollMember(deps, body), 201))
    .route(
      {
        method: "get",
        path: "/:id",
        summary: "Get an enrollment",
        access: "lessons.view",
        params: idParams,
        responses: { 200: { description: "The enrollment", schema: enrollmentSchema } },
      },
      async (c, { params }) => c.json(await requireEnrollment(deps.db, params.id)),
    )
    .route({
      method: "patch",
      path: "/:id",
      summary: "Update an enrollment",
      description: "status is changed through POST /enrollments/:id/status. Moving to another " +
        "slot or dates re-checks capacity and double booking.",
      access: "lessons.edit",
      params: idParams,
      body: updateEnrollmentBody,
      responses: { 200: { description: "The enrollment", schema: enrollmentSchema } },
      errors: {
        400: ["invalid_reference"],
        409: ["slot_full", "double_booked", "slot_inactive"],
      },
    }, async (c, { params, body }) => c.json(await changeEnrollment(deps, params.id, body)))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete an enrollment",
      description: "Removes it with its sessions and lesson plans; to keep the history, move " +
        "it to withdrawn or completed instead.",
      access: "lessons.edit",
      params: idParams,
      responses: noContent,
    }, async (c, { params }) => {
      await removeEnrollment(deps, params.id);
      return c.body(null, 204);
    })
    .route(
      {
        method: "post",
        path: "/:id/status",
        summary: "Change an enrollment's status",
        description: "active ↔ paused; active|paused → withdrawn|completed; anything else → 409 " +
          "invalid_transition. Leaving active removes its sessions still scheduled after today.",
        access: "lessons.edit",
        params: idParams,
        body: enrollmentStatusBody,
        responses: { 200: { description: "The enrollment", schema: enrollmentSchema } },
        errors: { 409: ["invalid_transition"] },
      },
      async (c, { params, body }) =>
        c.json(await setEnrollmentStatus(deps, params.id, body.status)),
    )
    .route({
      method: "post",
      path: "/:id/lesson-plans",
      summary: "Create a lesson plan with its sections and items",
      description: "One request, one transaction. Plans start active (unless `status` says " +
        "otherwise), items not_started. A second active plan for the enrollment → 409 " +
        "plan_already_active (also under concurrency).",
      access: "lessons.edit",
      params: idParams,
      body: createPlanBody,
      responses: { 201: { description: "The plan", schema: planSchema } },
      errors: { 409: ["plan_already_active"] },
    }, async (c, { params, body }) => c.json(await createPlan(deps, params.id, body), 201));
}
