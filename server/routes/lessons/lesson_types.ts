/** Lesson types (API §10). */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import {
  createLessonTypeBody,
  lessonTypeListQuery,
  lessonTypeSchema,
  updateLessonTypeBody,
} from "../../../app/lessons/lesson_schemas.ts";
import { listLessonTypes } from "../../../app/lessons/lesson_types_repo.ts";
import {
  changeLessonType,
  createLessonType,
  removeLessonType,
  requireLessonType,
} from "../../../app/lessons/lesson_types.ts";
import { ApiRouter } from "../../route.ts";
import { noContent } from "./_shared.ts";

export function lessonTypeRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/lesson-types", "Lessons")
    .route({
      method: "get",
      path: "/",
      summary: "List lesson types",
      description: "Sortable by name, durationMinutes, createdAt; `q` searches the name.",
      access: "lessons.view",
      query: lessonTypeListQuery,
      responses: { 200: { description: "A page", schema: listResponse(lessonTypeSchema) } },
    }, async (c, { query }) => c.json(await listLessonTypes(deps.db, query)))
    .route({
      method: "post",
      path: "/",
      summary: "Create a lesson type",
      access: "lessons.edit",
      body: createLessonTypeBody,
      responses: { 201: { description: "The lesson type", schema: lessonTypeSchema } },
    }, async (c, { body, actor }) => c.json(await createLessonType(deps, actor, body), 201))
    .route(
      {
        method: "get",
        path: "/:id",
        summary: "Get a lesson type",
        access: "lessons.view",
        params: idParams,
        responses: { 200: { description: "The lesson type", schema: lessonTypeSchema } },
      },
      async (c, { params }) => c.json(await requireLessonType(deps.db, params.id)),
    )
    .route(
      {
        method: "patch",
        path: "/:id",
        summary: "Update a lesson type",
        description: "`ratePresets` keys given replace those rates (null clears one).",
        access: "lessons.edit",
        params: idParams,
        body: updateLessonTypeBody,
        responses: { 200: { description: "The lesson type", schema: lessonTypeSchema } },
      },
      async (c, { params, body, actor }) =>
        c.json(await changeLessonType(deps, actor, params.id, body)),
    )
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a lesson type",
      description: "Refused with 409 in_use while schedule slots use it.",
      access: "lessons.edit",
      params: idParams,
      responses: noContent,
      errors: { 409: ["in_use"] },
    }, async (c, { params, actor }) => {
      await removeLessonType(deps, actor, params.id);
      return c.body(null, 204);
    });
}
