/** Lessons (API §10): types, instructors, closures, slots, enrollments, sessions, plans, scales. */
import type { AppDeps } from "../../app/deps.ts";
import { NotFoundError } from "../../domain/errors.ts";
import { idParams, listResponse } from "../../app/schemas.ts";
import {
  blockedDateListQuery,
  blockedDateParams,
  blockedDateSchema,
  createBlockedDateBody,
  createEnrollmentBody,
  createGradingScaleBody,
  createInstructorBody,
  createLessonTypeBody,
  createPlanBody,
  createSlotBody,
  createStoreClosureBody,
  enrollmentListQuery,
  enrollmentSchema,
  enrollmentStatusBody,
  generateSessionsBody,
  generateSessionsResult,
  gradingScaleListQuery,
  gradingScaleLookupSchema,
  gradingScaleSchema,
  instructorListQuery,
  instructorSchema,
  lessonTypeListQuery,
  lessonTypeSchema,
  makeupBody,
  planItemParams,
  planItemResult,
  planListQuery,
  planSchema,
  sessionListQuery,
  sessionSchema,
  slotListQuery,
  slotSchema,
  storeClosureListQuery,
  storeClosureSchema,
  updateEnrollmentBody,
  updateGradingScaleBody,
  updateInstructorBody,
  updateLessonTypeBody,
  updatePlanBody,
  updatePlanItemBody,
  updateSessionBody,
  updateSlotBody,
} from "../../app/lessons/lesson_schemas.ts";
import {
  findEnrollment,
  findInstructor,
  findLessonType,
  findSession,
  findSlot,
  insertLessonType,
  insertStoreClosure,
  listBlockedDates,
  listEnrollments,
  listGradingScales,
  listInstructors,
  listLessonTypes,
  listSessions,
  listSlots,
  listStoreClosures,
  lookupGradingScales,
  updateLessonType,
} from "../../app/lessons/lessons_repo.ts";
import {
  addBlockedDate,
  changeInstructor,
  createInstructor,
  removeBlockedDate,
  removeInstructor,
  removeLessonType,
  removeStoreClosure,
  requireInstructor,
} from "../../app/lessons/lesson_types.ts";
import { changeSlot, createSlot, removeSlot } from "../../app/lessons/slots.ts";
import {
  changeEnrollment,
  enrollMember,
  removeEnrollment,
  setEnrollmentStatus,
} from "../../app/lessons/enrollments.ts";
import { generateSessions } from "../../app/lessons/generate_sessions.ts";
import { changeSession, createMakeupSession } from "../../app/lessons/sessions.ts";
import {
  changePlan,
  changePlanItem,
  createPlan,
  getPlan,
  listPlans,
  removePlan,
} from "../../app/lessons/lesson_plans.ts";
import {
  changeGradingScale,
  createGradingScale,
  removeGradingScale,
  requireGradingScale,
} from "../../app/lessons/grading_scales.ts";
import { ApiRouter } from "../route.ts";

const noContent = { 204: { description: "Deleted" } };

function found<T>(value: T | undefined, what: string, id: string): T {
  if (value === undefined) throw new NotFoundError(`${what} "${id}" does not exist`);
  return value;
}

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
    }, async (c, { body }) =>
      c.json(
        await insertLessonType(deps.db, {
          id: deps.ids.uuid(),
          name: body.name,
          description: body.description ?? null,
          durationMinutes: body.durationMinutes,
          ratePresets: body.ratePresets,
          now: deps.clock.now(),
        }),
        201,
      ))
    .route(
      {
        method: "get",
        path: "/:id",
        summary: "Get a lesson type",
        access: "lessons.view",
        params: idParams,
        responses: { 200: { description: "The lesson type", schema: lessonTypeSchema } },
      },
      async (c, { params }) =>
        c.json(found(await findLessonType(deps.db, params.id), "Lesson type", params.id)),
    )
    .route({
      method: "patch",
      path: "/:id",
      summary: "Update a lesson type",
      description: "`ratePresets` keys given replace those rates (null clears one).",
      access: "lessons.edit",
      params: idParams,
      body: updateLessonTypeBody,
      responses: { 200: { description: "The lesson type", schema: lessonTypeSchema } },
    }, async (c, { params, body }) =>
      c.json(
        found(
          await updateLessonType(deps.db, params.id, body, deps.clock.now()),
          "Lesson type",
          params.id,
        ),
      ))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a lesson type",
      description: "Refused with 409 in_use while schedule slots use it.",
      access: "lessons.edit",
      params: idParams,
      responses: noContent,
    }, async (c, { params }) => {
      await removeLessonType(deps, params.id);
      return c.body(null, 204);
    });
}

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
    }, async (c, { body }) => c.json(await createInstructor(deps, body), 201))
    .route(
      {
        method: "get",
        path: "/:id",
        summary: "Get an instructor",
        access: "lessons.view",
        params: idParams,
        responses: { 200: { description: "The instructor", schema: instructorSchema } },
      },
      async (c, { params }) =>
        c.json(found(await findInstructor(deps.db, params.id), "Instructor", params.id)),
    )
    .route({
      method: "patch",
      path: "/:id",
      summary: "Update an instructor",
      access: "lessons.edit",
      params: idParams,
      body: updateInstructorBody,
      responses: { 200: { description: "The instructor", schema: instructorSchema } },
    }, async (c, { params, body }) => c.json(await changeInstructor(deps, params.id, body)))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete an instructor",
      description: "Refused with 409 in_use while slots or sessions refer to the instructor.",
      access: "lessons.edit",
      params: idParams,
      responses: noContent,
    }, async (c, { params }) => {
      await removeInstructor(deps, params.id);
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
    .route({
      method: "post",
      path: "/:id/blocked-dates",
      summary: "Block a date for an instructor",
      description: "One day; no sessions are generated for the instructor's slots on it. " +
        "A date already blocked → 409 duplicate.",
      access: "lessons.edit",
      params: idParams,
      body: createBlockedDateBody,
      responses: { 201: { description: "The blocked date", schema: blockedDateSchema } },
    }, async (c, { params, body }) => c.json(await addBlockedDate(deps, params.id, body), 201))
    .route({
      method: "delete",
      path: "/:id/blocked-dates/:blockedDateId",
      summary: "Unblock a date",
      access: "lessons.edit",
      params: blockedDateParams,
      responses: noContent,
    }, async (c, { params }) => {
      await removeBlockedDate(deps, params.id, params.blockedDateId);
      return c.body(null, 204);
    });
}

export function storeClosureRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/store-closures", "Lessons")
    .route({
      method: "get",
      path: "/",
      summary: "List store closures",
      description: "Sortable by startDate, createdAt; from/to list closures overlapping them.",
      access: "lessons.view",
      query: storeClosureListQuery,
      responses: { 200: { description: "A page", schema: listResponse(storeClosureSchema) } },
    }, async (c, { query }) => c.json(await listStoreClosures(deps.db, query)))
    .route({
      method: "post",
      path: "/",
      summary: "Add a store closure",
      description: "startDate..endDate inclusive; no sessions are generated on those dates.",
      access: "lessons.edit",
      body: createStoreClosureBody,
      responses: { 201: { description: "The closure", schema: storeClosureSchema } },
    }, async (c, { body }) =>
      c.json(
        await insertStoreClosure(deps.db, {
          id: deps.ids.uuid(),
          ...body,
          now: deps.clock.now(),
        }),
        201,
      ))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a store closure",
      access: "lessons.edit",
      params: idParams,
      responses: noContent,
    }, async (c, { params }) => {
      await removeStoreClosure(deps, params.id);
      return c.body(null, 204);
    });
}

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
      async (c, { params }) =>
        c.json(found(await findSlot(deps.db, params.id), "Schedule slot", params.id)),
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
    }, async (c, { params, body }) => c.json(await changeSlot(deps, params.id, body)))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a schedule slot",
      description: "Refused with 409 in_use while it has enrollments; deactivate it instead.",
      access: "lessons.edit",
      params: idParams,
      responses: noContent,
    }, async (c, { params }) => {
      await removeSlot(deps, params.id);
      return c.body(null, 204);
    });
}

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
      async (c, { params }) =>
        c.json(found(await findEnrollment(deps.db, params.id), "Enrollment", params.id)),
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
    }, async (c, { params, body }) => c.json(await createPlan(deps, params.id, body), 201));
}

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
        "(inclusive store-local dates); `q` searches notes.",
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
      async (c, { params }) =>
        c.json(found(await findSession(deps.db, params.id), "Lesson session", params.id)),
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
      },
      async (c, { params, body }) => c.json(await createMakeupSession(deps, params.id, body), 201),
    );
}

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
    }, async (c, { params }) => c.json(await getPlan(deps.db, params.id)))
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
      },
      async (c, { params, body, actor }) =>
        c.json(await changePlanItem(deps, actor, params.id, params.itemId, body)),
    );
}

export function gradingScaleRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/grading-scales", "Lessons")
    .route({
      method: "get",
      path: "/lookup",
      summary: "All grading scales for dropdowns",
      description: "Unpaginated; the default scale first.",
      access: "lessons.view",
      responses: { 200: { description: "Scales", schema: gradingScaleLookupSchema } },
    }, async (c) => c.json({ data: await lookupGradingScales(deps.db) }))
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

export const LESSON_ROUTERS = [
  lessonTypeRoutes,
  instructorRoutes,
  storeClosureRoutes,
  slotRoutes,
  enrollmentRoutes,
  sessionRoutes,
  planRoutes,
  gradingScaleRoutes,
] as const;
