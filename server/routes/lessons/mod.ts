/**
 * Lessons (API §10): types, instructors, closures, slots, enrollments, sessions, plans,
 * scales. One file per resource; this list is what `server/app.ts` mounts, in this order.
 */
import type { AppDeps } from "../../../app/deps.ts";
import type { ApiRouter } from "../../route.ts";
import { enrollmentRoutes } from "./enrollments.ts";
import { gradingScaleRoutes } from "./grading_scales.ts";
import { instructorRoutes } from "./instructors.ts";
import { lessonTypeRoutes } from "./lesson_types.ts";
import { planRoutes } from "./plans.ts";
import { sessionRoutes } from "./sessions.ts";
import { slotRoutes } from "./slots.ts";
import { storeClosureRoutes } from "./store_closures.ts";

/** Every lessons router, for `server/app.ts`. */
export const LESSON_ROUTERS: ReadonlyArray<(deps: AppDeps) => ApiRouter> = [
  lessonTypeRoutes,
  instructorRoutes,
  storeClosureRoutes,
  slotRoutes,
  enrollmentRoutes,
  sessionRoutes,
  planRoutes,
  gradingScaleRoutes,
];
