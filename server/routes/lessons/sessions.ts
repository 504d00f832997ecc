/** Lesson sessions (API §10): generation, changes, makeups. */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import {
  generateSessionsBody,
  generateSessionsResult,
  makeupBody,
  sessionListQuery,
  sessionSchema,
  updateSessionBody,
} from "../../../app/lessons/lesson_schemas.ts";
import { listSessions } from "../../../app/lessons/sessions_repo.ts";
import { generateSessions } from "../../../app/lessons/generate_sessions.ts";
import {
  changeSession,
  createMakeupSession,
  requireSession,
} from "../../../app/lessons/sessions.ts";
import { ApiRouter } from "../../route.ts";

export function sessionRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/lesson-sessions", "Lessons")
    .route({
      method: "post",
      path: "/generate",
      summary: "Generate lesson sessions for a window",
      description: "One session per active enrollment per occurrence of its active slot within " +
        "the enrollment's dates, skipping the instructor's blocked dates and store closures. " +
        "Without from/to: today .. today + lessonSessionWindowDays (store time zone); explicit " +
        "dates are inclusive and at most 366 days apart. Idempotent: existing sessions are " +
        "counted in skipped.existing; concurrent runs all succeed without duplicates.",
      access: "lessons.edit",
      body: generateSessionsBody,
      responses: { 200: { description: "Counts", schema: generateSessionsResult } },
      errors: { 400: ["invalid_reference"] },
    }, async (c, { body }) => {
      const { created, skipped } = await generateSessions(deps, body ?? {});
      return c.json({ created, skipped });
    })
    .route({
      method: "get",
      path: "/",
      summary: "List lesson sessions",
      description: "Sortable by date (then start time), createdAt; filters slotId, " +
        "instructorId (as instructor or substitute), memberId, enrollmentId, status, from, to " +
        "(inclusive store-local dates); `q` searches notes. Each session carries the names " +
        "people read: memberName, instructorName, substituteInstructorName, lessonTypeName " +
        "and the slot's room.",
      access: "lessons.view",
      query: sessionListQuery,
      responses: { 200: { description: "A page", schema: listResponse(sessionSchema) } },
    }, async (c, { query }) => c.json(await listSessions(deps.db, query)))
    .route(
      {
        method: "get",
        path: "/:id",
        summary: "Get a lesson session",
        access: "lessons.view",
        params: idParams,
        responses: { 200: { description: "The session", schema: sessionSchema } },
      },
      async (c, { params }) => c.json(await requireSession(deps.db, params.id)),
    )
    .route(
      {
        method: "patch",
        path: "/:id",
        summary: "Update a lesson session",
        description: "status: scheduled|makeup → attended|missed|cancelled, else 409 " +
          "invalid_transition. Non-empty notes set notesCompletedAt; empty notes leave it unset. " +
          "A substitute blocked that date, teaching an active slot overlapping it, or another " +
          "session overlapping it → 409 substitute_unavailable. lessons.teach users may change " +
          "only status and notes of sessions they teach (instructor or substitute); others → 403.",
        access: "lessons.teach",
        params: idParams,
        body: updateSessionBody,
        responses: { 200: { description: "The session", schema: sessionSchema } },
        errors: {
          400: ["invalid_reference"],
          409: ["invalid_transition", "substitute_unavailable"],
        },
      },
      async (c, { params, body, actor }) =>
        c.json(await changeSession(deps, actor, params.id, body)),
    )
    .route(
      {
        method: "post",
        path: "/:id/makeup",
        summary: "Schedule a makeup for a missed or cancelled session",
        description: "→ 201 a new session in status makeup with makeupForSessionId; startTime " +
          "defaults to the original's. Other statuses → 409 invalid_transition; a second makeup " +
          "of one session → 409 duplicate.",
        access: "lessons.edit",
        params: idParams,
        body: makeupBody,
        responses: { 201: { description: "The makeup session", schema: sessionSchema } },
        errors: { 409: ["invalid_transition", "duplicate"] },
      },
      async (c, { params, body }) => c.json(await createMakeupSession(deps, params.id, body), 201),
    );
}
