/** Zod schemas of the lessons feature: HTTP bodies, queries, responses (API §10). */
import { z } from "zod";
import {
  isoDate,
  listQuery,
  moneyString,
  nonNegativeMoney,
  queryBoolean,
  timeOfDay,
  timestamp,
  uuid,
} from "../schemas.ts";
import { ENROLLMENT_STATUSES } from "../../domain/enrollments/status_machine.ts";
import { BILLING_INTERVALS, enrollmentDatesInOrder } from "../../domain/enrollments/terms.ts";
import { SESSION_STATUSES } from "../../domain/lessons/session_status.ts";
import { ITEM_STATUSES, PLAN_STATUSES } from "../../domain/lessons/plan_progress.ts";

const name = z.string().trim().min(1).max(200);
const text = (max: number) => z.string().trim().max(max);
/** A lesson price (rate presets, an enrollment's rate): never negative, null unsets it. */
const nullableMoney = nonNegativeMoney.nullable();
const dayOfWeek = z.int().min(0).max(6).describe("0 = Sunday .. 6 = Saturday");
const durationMinutes = z.int().min(1).max(1440);
const queryInt = (min: number, max: number) =>
  z.string().regex(/^\d+$/).transform(Number).pipe(z.int().min(min).max(max));

/** Rate per billing cycle; a missing key is unset (null). */
export const ratePresetsBody = z.strictObject({
  weekly: nullableMoney.optional(),
  monthly: nullableMoney.optional(),
  quarterly: nullableMoney.optional(),
});
export const ratePresetsSchema = z.object({
  weekly: moneyString.nullable(),
  monthly: moneyString.nullable(),
  quarterly: moneyString.nullable(),
});
export type RatePresets = z.output<typeof ratePresetsSchema>;

// ---- Lesson types -------------------------------------------------------------------------

export const lessonTypeSchema = z.object({
  id: uuid,
  name: z.string(),
  description: z.string().nullable(),
  durationMinutes: z.int(),
  ratePresets: ratePresetsSchema,
  createdAt: timestamp,
  updatedAt: timestamp,
}).meta({ id: "LessonType" });
export type LessonType = z.output<typeof lessonTypeSchema>;

export const createLessonTypeBody = z.strictObject({
  name,
  description: text(2000).nullish(),
  durationMinutes,
  ratePresets: ratePresetsBody.optional(),
}).meta({ id: "CreateLessonTypeBody" });
export const updateLessonTypeBody = createLessonTypeBody.partial().meta({
  id: "UpdateLessonTypeBody",
});

export const lessonTypeListQuery = listQuery({
  sort: ["name", "durationMinutes", "createdAt"],
  defaultSort: "name",
});

// ---- Instructors --------------------------------------------------------------------------

export const instructorSchema = z.object({
  id: uuid,
  userId: uuid.nullable(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
}).meta({ id: "Instructor" });
export type Instructor = z.output<typeof instructorSchema>;

export const createInstructorBody = z.strictObject({
  userId: uuid.nullish().describe("A user who teaches as this instructor (lessons.teach)"),
  firstName: name,
  lastName: name,
  email: z.email().max(320).nullish(),
  isActive: z.boolean().optional(),
}).meta({ id: "CreateInstructorBody" });
export const updateInstructorBody = createInstructorBody.partial().meta({
  id: "UpdateInstructorBody",
});

export const instructorListQuery = listQuery({
  sort: ["lastName", "firstName", "createdAt"],
  defaultSort: "lastName",
  filters: { isActive: queryBoolean.optional(), userId: uuid.optional() },
});

export const blockedDateSchema = z.object({
  id: uuid,
  instructorId: uuid,
  date: isoDate,
  reason: z.string().nullable(),
  createdAt: timestamp,
}).meta({ id: "BlockedDate" });
export const createBlockedDateBody = z.strictObject({
  date: isoDate,
  reason: text(500).nullish(),
}).meta({ id: "CreateBlockedDateBody" });
export const blockedDateListQuery = listQuery({
  sort: ["date", "createdAt"],
  defaultSort: "date",
  filters: { from: isoDate.optional(), to: isoDate.optional() },
});
export type BlockedDate = z.output<typeof blockedDateSchema>;
export const blockedDateParams = z.object({ id: uuid, blockedDateId: uuid });

// ---- Store closures -----------------------------------------------------------------------

export const storeClosureSchema = z.object({
  id: uuid,
  startDate: isoDate,
  endDate: isoDate,
  reason: z.string(),
  createdAt: timestamp,
}).meta({ id: "StoreClosure" });
export type StoreClosure = z.output<typeof storeClosureSchema>;
export const createStoreClosureBody = z.strictObject({
  startDate: isoDate,
  endDate: isoDate.describe("Inclusive"),
  reason: text(500).min(1),
}).refine((b) => b.endDate >= b.startDate, {
  message: "endDate must not be before startDate",
  path: ["endDate"],
}).meta({ id: "CreateStoreClosureBody" });
export const storeClosureListQuery = listQuery({
  sort: ["startDate", "createdAt"],
  defaultSort: "startDate",
  filters: { from: isoDate.optional(), to: isoDate.optional() },
});

// ---- Schedule slots -----------------------------------------------------------------------

export const slotSchema = z.object({
  id: uuid,
  instructorId: uuid,
  instructorName: z.string(),
  lessonTypeId: uuid,
  lessonTypeName: z.string(),
  dayOfWeek: z.int(),
  startTime: timeOfDay,
  endTime: z.string().describe("HH:MM (24:00 = midnight at the end of the day)"),
  durationMinutes: z.int(),
  maxStudents: z.int(),
  enrolledCount: z.int().describe("Seats held (active and paused enrollments)"),
  ratePresets: ratePresetsSchema,
  locationId: uuid.nullable(),
  room: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
}).meta({ id: "ScheduleSlot" });
export type Slot = z.output<typeof slotSchema>;

const slotFields = {
  instructorId: uuid,
  lessonTypeId: uuid,
  dayOfWeek,
  startTime: timeOfDay,
  durationMinutes: durationMinutes.optional().describe("Defaults to the lesson type's duration"),
  maxStudents: z.int().min(1).max(1000).optional().describe("Defaults to 1"),
  ratePresets: ratePresetsBody.optional(),
  locationId: uuid.nullish(),
  room: text(100).nullish(),
  isActive: z.boolean().optional(),
};
export const createSlotBody = z.strictObject(slotFields).meta({ id: "CreateScheduleSlotBody" });
export const updateSlotBody = z.strictObject(slotFields).partial().meta({
  id: "UpdateScheduleSlotBody",
});

export const slotListQuery = listQuery({
  sort: ["dayOfWeek", "startTime", "createdAt"],
  defaultSort: "dayOfWeek",
  filters: {
    instructorId: uuid.optional(),
    lessonTypeId: uuid.optional(),
    locationId: uuid.optional(),
    dayOfWeek: queryInt(0, 6).optional(),
    isActive: queryBoolean.optional(),
  },
});

// ---- Enrollments --------------------------------------------------------------------------

export const enrollmentSchema = z.object({
  id: uuid,
  memberId: uuid,
  memberName: z.string(),
  slotId: uuid,
  status: z.enum(ENROLLMENT_STATUSES),
  startDate: isoDate,
  endDate: isoDate.nullable(),
  billingInterval: z.enum(BILLING_INTERVALS),
  billingUnit: z.string().nullable(),
  rate: moneyString.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
}).meta({ id: "Enrollment" });
export type Enrollment = z.output<typeof enrollmentSchema>;

export const createEnrollmentBody = z.strictObject({
  memberId: uuid,
  slotId: uuid,
  startDate: isoDate,
  endDate: isoDate.nullish().describe("Inclusive; open-ended when absent"),
  billingInterval: z.enum(BILLING_INTERVALS),
  billingUnit: text(50).nullish(),
  rate: nullableMoney.optional().describe(
    "Defaults to the slot's, else the lesson type's, rate preset for the billing interval",
  ),
}).refine((b) => enrollmentDatesInOrder(b.startDate, b.endDate), {
  message: "endDate must not be before startDate",
  path: ["endDate"],
}).meta({ id: "CreateEnrollmentBody" });
export const updateEnrollmentBody = z.strictObject({
  slotId: uuid.optional(),
  startDate: isoDate.optional(),
  endDate: isoDate.nullish(),
  billingInterval: z.enum(BILLING_INTERVALS).optional(),
  billingUnit: text(50).nullish(),
  rate: nullableMoney.optional(),
}).meta({ id: "UpdateEnrollmentBody" });
export const enrollmentStatusBody = z.strictObject({ status: z.enum(ENROLLMENT_STATUSES) }).meta({
  id: "EnrollmentStatusBody",
});

export const enrollmentListQuery = listQuery({
  sort: ["startDate", "createdAt", "memberName"],
  defaultSort: "createdAt",
  filters: {
    memberId: uuid.optional(),
    slotId: uuid.optional(),
    instructorId: uuid.optional(),
    status: z.enum(ENROLLMENT_STATUSES).optional(),
  },
});

// ---- Sessions -----------------------------------------------------------------------------

export const sessionSchema = z.object({
  id: uuid,
  enrollmentId: uuid,
  slotId: uuid,
  memberId: uuid,
  instructorId: uuid,
  substituteInstructorId: uuid.nullable(),
  date: isoDate.describe("Store-local date"),
  startTime: timeOfDay,
  endTime: z.string(),
  status: z.enum(SESSION_STATUSES),
  notes: z.string().nullable(),
  notesCompletedAt: timestamp.nullable(),
  makeupForSessionId: uuid.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  memberName: z.string().nullable().describe('The member\'s "First Last"'),
  instructorName: z.string().nullable().describe("The slot's instructor's \"First Last\""),
  substituteInstructorName: z.string().nullable(),
  lessonTypeId: uuid.nullable().describe("The slot's lesson type"),
  lessonTypeName: z.string().nullable(),
  room: z.string().nullable().describe("The slot's room"),
}).meta({ id: "LessonSession" });
export type Session = z.output<typeof sessionSchema>;
/** The names a session is read with (the rest is its own row). */
export type SessionNames = Pick<
  Session,
  | "memberName"
  | "instructorName"
  | "substituteInstructorName"
  | "lessonTypeId"
  | "lessonTypeName"
  | "room"
>;
/** A session's own row, without the names of what it refers to. */
export type SessionRecord = Omit<Session, keyof SessionNames>;

export const sessionListQuery = listQuery({
  sort: ["date", "createdAt"],
  defaultSort: "date",
  filters: {
    slotId: uuid.optional(),
    instructorId: uuid.optional().describe("Sessions taught or substituted by this instructor"),
    memberId: uuid.optional(),
    enrollmentId: uuid.optional(),
    status: z.enum(SESSION_STATUSES).optional(),
    from: isoDate.optional().describe("Inclusive"),
    to: isoDate.optional().describe("Inclusive"),
  },
});

export const updateSessionBody = z.strictObject({
  status: z.enum(SESSION_STATUSES).optional(),
  notes: z.string().max(10_000).nullish(),
  substituteInstructorId: uuid.nullish(),
}).meta({ id: "UpdateLessonSessionBody" });
export const makeupBody = z.strictObject({
  date: isoDate,
  startTime: timeOfDay.optional().describe("Defaults to the original session's time"),
}).meta({ id: "ScheduleMakeupBody" });

export const generateSessionsBody = z.strictObject({
  from: isoDate.optional(),
  to: isoDate.optional(),
  slotId: uuid.optional(),
}).optional().meta({ id: "GenerateLessonSessionsBody" });
export const generateSessionsResult = z.object({
  created: z.int(),
  skipped: z.object({ existing: z.int(), blockedDates: z.int(), closures: z.int() }),
}).meta({ id: "GenerateLessonSessionsResult" });
export type GenerateSessionsResult = z.output<typeof generateSessionsResult>;

// ---- Lesson plans -------------------------------------------------------------------------

export const planItemSchema = z.object({
  id: uuid,
  sectionId: uuid,
  title: z.string(),
  description: z.string().nullable(),
  sortOrder: z.int(),
  status: z.enum(ITEM_STATUSES),
  gradeLevelId: uuid.nullable(),
  notes: z.string().nullable(),
  startedDate: isoDate.nullable(),
  masteredDate: isoDate.nullable(),
  updatedAt: timestamp,
});
export type PlanItem = z.output<typeof planItemSchema>;

export const planSchema = z.object({
  id: uuid,
  enrollmentId: uuid,
  title: z.string(),
  status: z.enum(PLAN_STATUSES),
  progressPercent: z.int().describe("mastered ÷ non-skipped items × 100, rounded"),
  sections: z.array(z.object({
    id: uuid,
    title: z.string(),
    sortOrder: z.int(),
    items: z.array(planItemSchema),
  })),
  createdAt: timestamp,
  updatedAt: timestamp,
}).meta({ id: "LessonPlan" });
export type Plan = z.output<typeof planSchema>;

/**
 * Items of one lesson plan, over all its sections: the plan is written in one statement per
 * table, and a bounded plan keeps that statement under PostgreSQL's 65,535 bind parameters.
 */
export const MAX_PLAN_ITEMS = 2000;

export const createPlanBody = z.strictObject({
  title: name,
  status: z.enum(PLAN_STATUSES).optional(),
  sections: z.array(z.strictObject({
    title: name,
    sortOrder: z.int().min(0).max(1_000_000).optional(),
    items: z.array(z.strictObject({
      title: name,
      description: text(5000).nullish(),
      sortOrder: z.int().min(0).max(1_000_000).optional(),
    })).max(500).default([]),
  })).max(100).refine(
    (sections) => sections.reduce((n, section) => n + section.items.length, 0) <= MAX_PLAN_ITEMS,
    `A plan holds at most ${MAX_PLAN_ITEMS} items over all its sections`,
  ).describe(`At most 100 sections of at most 500 items, ${MAX_PLAN_ITEMS} items in all`),
}).meta({ id: "CreateLessonPlanBody" });
export const updatePlanBody = z.strictObject({
  title: name.optional(),
  status: z.enum(PLAN_STATUSES).optional(),
}).meta({ id: "UpdateLessonPlanBody" });
export const updatePlanItemBody = z.strictObject({
  status: z.enum(ITEM_STATUSES).optional(),
  gradeLevelId: uuid.nullish(),
  notes: z.string().max(10_000).nullish(),
}).meta({ id: "UpdateLessonPlanItemBody" });
export const planItemResult = planItemSchema.extend({
  planId: uuid,
  planProgressPercent: z.int(),
}).meta({ id: "LessonPlanItem" });
export const planListQuery = listQuery({
  sort: ["createdAt", "title"],
  defaultSort: "createdAt",
  filters: {
    enrollmentId: uuid.optional(),
    status: z.enum(PLAN_STATUSES).optional(),
  },
});
export const planItemParams = z.object({ id: uuid, itemId: uuid });

// ---- Grading scales -----------------------------------------------------------------------

export const gradeLevelSchema = z.object({
  id: uuid,
  value: z.string(),
  label: z.string(),
  numericScore: z.number().nullable(),
  color: z.string().nullable(),
  sortOrder: z.int(),
});
export type GradeLevel = z.output<typeof gradeLevelSchema>;
export const gradingScaleSchema = z.object({
  id: uuid,
  name: z.string(),
  description: z.string().nullable(),
  isDefault: z.boolean(),
  levels: z.array(gradeLevelSchema),
  createdAt: timestamp,
  updatedAt: timestamp,
}).meta({ id: "GradingScale" });
export type GradingScale = z.output<typeof gradingScaleSchema>;

const levelBody = z.strictObject({
  value: z.string().trim().min(1).max(50),
  label: z.string().trim().min(1).max(100),
  numericScore: z.number().min(-999999).max(999999).nullish(),
  color: z.string().trim().max(30).nullish(),
  sortOrder: z.int().min(0).max(1_000_000).optional(),
});
const levelsBody = z.array(levelBody).min(1).max(100).refine(
  (levels) => new Set(levels.map((l) => l.value)).size === levels.length,
  { message: "Level values must be unique within a scale" },
);
export type LevelInput = z.output<typeof levelBody>;

export const createGradingScaleBody = z.strictObject({
  name,
  description: text(2000).nullish(),
  isDefault: z.boolean().optional(),
  levels: levelsBody,
}).meta({ id: "CreateGradingScaleBody" });
export const updateGradingScaleBody = z.strictObject({
  name: name.optional(),
  description: text(2000).nullish(),
  isDefault: z.boolean().optional(),
  levels: levelsBody.optional().describe(
    "Replaces the levels; a level keeps its id when its value is kept",
  ),
}).meta({ id: "UpdateGradingScaleBody" });
export const gradingScaleListQuery = listQuery({
  sort: ["name", "createdAt"],
  defaultSort: "name",
});
export const gradingScaleLookupSchema = z.object({
  data: z.array(z.object({
    id: uuid,
    name: z.string(),
    isDefault: z.boolean(),
    levels: z.array(gradeLevelSchema),
  })),
}).meta({ id: "GradingScaleLookup" });
