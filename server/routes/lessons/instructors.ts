/** Instructors and their blocked dates (API §10). */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import {
  blockedDateListQuery,
  blockedDateParams,
  blockedDateSchema,
  createBlockedDateBody,
  createInstructorBody,
  instructorListQuery,
  instructorSchema,
  updateInstructorBody,
} from "../../../app/lessons/lesson_schemas.ts";
import { listInstructors } from "../../../app/lessons/instructors_repo.ts";
import {
  changeInstructor,
  createInstructor,
  removeInstructor,
  requireInstructor,
} from "../../../app/lessons/instructors.ts";
import { listBlockedDates } from "../../../app/lessons/blocked_dates_repo.ts";
import { addBlockedDate, removeBlockedDate } from "../../../app/lessons/blocked_dates.ts";
import { ApiRouter } from "../../route.ts";
import { noContent } from "./_shared.ts";

export function instructorRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/instructors", "Lessons")
    .route({
      method: "get",
      path: "/",
      summary: "List instructors",
      description: "Sortable by lastName, firstName, createdAt; `q` searches names and email.",
      access: "lessons.view",
      query: instructorListQuery,
      responses: { 200: { description: "A page", schema: listResponse(instructorSchema) } },
    }, async (c, { query }) => c.json(await listInstructors(deps.db, query)))
    .route({
      method: "post",
      path: "/",
      summary: "Create an instructor",
      description: "`userId` links a user who then teaches as this instructor (lessons.teach); " +
        "a user links to at most one instructor (409 duplicate).",
      access: "lessons.edit",
      body: createInstructorBody,
      responses: { 201: { description: "The instructor", schema: instructorSchema } },
      errors: { 400: ["invalid_reference"], 409: ["duplicate"] },
    }, async (c, { body, actor }) => c.json(await createInstructor(deps, actor, body), 201))
    .route(
      {
        method: "get",
        path: "/:id",
        summary: "Get an instructor",
        access: "lessons.view",
        params: idParams,
        responses: { 200: { description: "The instructor", schema: instructorSchema } },
      },
      async (c, { params }) => c.json(await requireInstructor(deps.db, params.id)),
    )
    .route(
      {
        method: "patch",
        path: "/:id",
        summary: "Update an instructor",
        access: "lessons.edit",
        params: idParams,
        body: updateInstructorBody,
        responses: { 200: { description: "The instructor", schema: instructorSchema } },
        errors: { 400: ["invalid_reference"], 409: ["duplicate"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await changeInstructor(deps, actor, params.id, body)),
    )
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete an instructor",
      description: "Refused with 409 in_use while slots or sessions refer to the instructor.",
      access: "lessons.edit",
      params: idParams,
      responses: noContent,
      errors: { 409: ["in_use"] },
    }, async (c, { params, actor }) => {
      await removeInstructor(deps, actor, params.id);
      return c.body(null, 204);
    })
    .route({
      method: "get",
      path: "/:id/blocked-dates",
      summary: "List an instructor's blocked dates",
      description: "Sortable by date, createdAt; filters from/to (inclusive).",
      access: "lessons.view",
      params: idParams,
      query: blockedDateListQuery,
      responses: { 200: { description: "A page", schema: listResponse(blockedDateSchema) } },
    }, async (c, { params, query }) => {
      await requireInstructor(deps.db, params.id);
      return c.json(await listBlockedDates(deps.db, params.id, query));
    })
    .route(
      {
        method: "post",
        path: "/:id/blocked-dates",
        summary: "Block a date for an instructor",
        description: "One day; no sessions are generated for the instructor's slots on it. " +
          "A date already blocked → 409 duplicate.",
        access: "lessons.edit",
        params: idParams,
        body: createBlockedDateBody,
        responses: { 201: { description: "The blocked date", schema: blockedDateSchema } },
        errors: { 409: ["duplicate"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await addBlockedDate(deps, actor, params.id, body), 201),
    )
    .route({
      method: "delete",
      path: "/:id/blocked-dates/:blockedDateId",
      summary: "Unblock a date",
      access: "lessons.edit",
      params: blockedDateParams,
      responses: noContent,
    }, async (c, { params, actor }) => {
      await removeBlockedDate(deps, actor, params.id, params.blockedDateId);
      return c.body(null, 204);
    });
}
