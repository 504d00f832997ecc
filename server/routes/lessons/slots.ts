/** Schedule slots (API §10): an instructor's weekly lesson times. */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import {
  createSlotBody,
  slotListQuery,
  slotSchema,
  updateSlotBody,
} from "../../../app/lessons/lesson_schemas.ts";
import { listSlots } from "../../../app/lessons/slots_repo.ts";
import { changeSlot, createSlot, removeSlot, requireSlot } from "../../../app/lessons/slots.ts";
import { ApiRouter } from "../../route.ts";
import { noContent } from "./_shared.ts";

export function slotRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/schedule-slots", "Lessons")
    .route({
      method: "get",
      path: "/",
      summary: "List schedule slots",
      description: "Sortable by dayOfWeek (then time), startTime, createdAt; `q` searches the " +
        "instructor and lesson type names.",
      access: "lessons.view",
      query: slotListQuery,
      responses: { 200: { description: "A page", schema: listResponse(slotSchema) } },
    }, async (c, { query }) => c.json(await listSlots(deps.db, query)))
    .route({
      method: "post",
      path: "/",
      summary: "Create a schedule slot",
      description: "An active slot overlapping another active slot of the same instructor on " +
        "the same weekday → 409 slot_overlap (touching end-to-start is fine; enforced by the " +
        "database, so concurrent requests cannot both succeed). Slots end by midnight. " +
        "`durationMinutes` defaults to the lesson type's duration and `maxStudents` to 1.",
      access: "lessons.edit",
      body: createSlotBody,
      responses: { 201: { description: "The slot", schema: slotSchema } },
      errors: { 400: ["invalid_reference"], 409: ["slot_overlap"] },
    }, async (c, { body }) => c.json(await createSlot(deps, body), 201))
    .route(
      {
        method: "get",
        path: "/:id",
        summary: "Get a schedule slot",
        access: "lessons.view",
        params: idParams,
        responses: { 200: { description: "The slot", schema: slotSchema } },
      },
      async (c, { params }) => c.json(await requireSlot(deps.db, params.id)),
    )
    .route({
      method: "patch",
      path: "/:id",
      summary: "Update a schedule slot",
      description: "The overlap rule applies as on create (409 slot_overlap).",
      access: "lessons.edit",
      params: idParams,
      body: updateSlotBody,
      responses: { 200: { description: "The slot", schema: slotSchema } },
      errors: { 400: ["invalid_reference"], 409: ["slot_overlap"] },
    }, async (c, { params, body }) => c.json(await changeSlot(deps, params.id, body)))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a schedule slot",
      description: "Refused with 409 in_use while it has enrollments; deactivate it instead.",
      access: "lessons.edit",
      params: idParams,
      responses: noContent,
      errors: { 409: ["in_use"] },
    }, async (c, { params }) => {
      await removeSlot(deps, params.id);
      return c.body(null, 204);
    });
}
