/** All SQL of the lessons feature. */
import { type Selectable, sql } from "kysely";
import type { Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { deleteById, hasRow, idExists, touchedAny } from "../db/rows.ts";
import { likePattern, type ListParams } from "../schemas.ts";
import { timeOfMinutes } from "../../domain/lessons/calendar.ts";
import type { EnrollmentStatus } from "../../domain/enrollments/status_machine.ts";
import type { SessionStatus } from "../../domain/lessons/session_status.ts";
import type { SlotTimes } from "../../domain/lessons/slot_overlap.ts";
import type { ItemStatus, PlanStatus } from "../../domain/lessons/plan_progress.ts";
import type { HeldEnrollment } from "../../domain/enrollments/capacity.ts";
import type {
  GenerationEnrollment,
  GenerationSlot,
  PlannedSession,
} from "../../domain/lessons/session_generation.ts";
import type {
  BillingInterval,
  Enrollment,
  GradingScale,
  Instructor,
  LessonType,
  PlanItem,
  RatePresets,
  Session,
  Slot,
} from "./lesson_schemas.ts";
import type {
  InstructorTable,
  LessonPlanItemTable,
  LessonSessionTable,
  LessonTypeTable,
  ScheduleSlotTable,
} from "./lessons_tables.ts";

function rates(row: {
  rate_weekly: string | null;
  rate_monthly: string | null;
  rate_quarterly: string | null;
}): RatePresets {
  return { weekly: row.rate_weekly, monthly: row.rate_monthly, quarterly: row.rate_quarterly };
}

/** Partial rate presets → column changes (a key present sets, null clears). */
export function rateColumns(presets: Partial<RatePresets> | undefined) {
  if (!presets) return {};
  return {
    ...(presets.weekly !== undefined ? { rate_weekly: presets.weekly } : {}),
    ...(presets.monthly !== undefined ? { rate_monthly: presets.monthly } : {}),
    ...(presets.quarterly !== undefined ? { rate_quarterly: presets.quarterly } : {}),
  };
}

// ---- Lesson types -------------------------------------------------------------------------

function toLessonType(row: Selectable<LessonTypeTable>): LessonType {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    durationMinutes: row.duration_minutes,
    ratePresets: rates(row),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function listLessonTypes(db: Db, params: ListParams) {
  let query = db.selectFrom("lesson_types").selectAll();
  if (params.q) query = query.where(sql`lower(name)`, "like", likePattern(params.q.toLowerCase()));
  return paginate(query, params, {
    sortColumns: { name: "name", durationMinutes: "duration_minutes", createdAt: "created_at" },
    tieBreaker: "id",
    map: toLessonType,
  });
}

export async function findLessonType(db: Db, id: string): Promise<LessonType | undefined> {
  const row = await db.selectFrom("lesson_types").selectAll().where("id", "=", id)
    .executeTakeFirst();
  return row && toLessonType(row);
}

export async function insertLessonType(
  db: Db,
  values: {
    id: string;
    name: string;
    description: string | null;
    durationMinutes: number;
    ratePresets?: Partial<RatePresets>;
    now: Date;
  },
): Promise<LessonType> {
  const row = await db.insertInto("lesson_types").values({
    id: values.id,
    name: values.name,
    description: values.description,
    duration_minutes: values.durationMinutes,
    ...rateColumns(values.ratePresets),
    created_at: values.now,
    updated_at: values.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toLessonType(row);
}

export async function updateLessonType(
  db: Db,
  id: string,
  changes: {
    name?: string;
    description?: string | null;
    durationMinutes?: number;
    ratePresets?: Partial<RatePresets>;
  },
  now: Date,
): Promise<LessonType | undefined> {
  const row = await db.updateTable("lesson_types").where("id", "=", id).set({
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.description !== undefined ? { description: changes.description } : {}),
    ...(changes.durationMinutes !== undefined ? { duration_minutes: changes.durationMinutes } : {}),
    ...rateColumns(changes.ratePresets),
    updated_at: now,
  }).returningAll().executeTakeFirst();
  return row && toLessonType(row);
}

export function deleteLessonType(db: Db, id: string): Promise<boolean> {
  return deleteById(db, "lesson_types", id);
}

// ---- Instructors --------------------------------------------------------------------------

function toInstructor(row: Selectable<InstructorTable>): Instructor {
  return {
    id: row.id,
    userId: row.user_id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    isActive: row.is_active,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const instructorSearch = sql<
  string
>`lower(first_name || ' ' || last_name || ' ' || coalesce(email, ''))`;

export function listInstructors(
  db: Db,
  params: ListParams & { isActive?: boolean; userId?: string },
) {
  let query = db.selectFrom("instructors").selectAll();
  if (params.q) query = query.where(instructorSearch, "like", likePattern(params.q.toLowerCase()));
  if (params.isActive !== undefined) query = query.where("is_active", "=", params.isActive);
  if (params.userId) query = query.where("user_id", "=", params.userId);
  return paginate(query, params, {
    sortColumns: { lastName: "last_name", firstName: "first_name", createdAt: "created_at" },
    tieBreaker: "id",
    map: toInstructor,
  });
}

export async function findInstructor(
  db: Db,
  id: string,
  lock = false,
): Promise<Instructor | undefined> {
  let query = db.selectFrom("instructors").selectAll().where("id", "=", id);
  if (lock) query = query.forNoKeyUpdate();
  const row = await query.executeTakeFirst();
  return row && toInstructor(row);
}

export async function insertInstructor(
  db: Db,
  values: {
    id: string;
    userId: string | null;
    firstName: string;
    lastName: string;
    email: string | null;
    isActive: boolean;
    now: Date;
  },
): Promise<Instructor> {
  const row = await db.insertInto("instructors").values({
    id: values.id,
    user_id: values.userId,
    first_name: values.firstName,
    last_name: values.lastName,
    email: values.email,
    is_active: values.isActive,
    created_at: values.now,
    updated_at: values.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toInstructor(row);
}

export interface InstructorChanges {
  userId?: string | null;
  firstName?: string;
  lastName?: string;
  email?: string | null;
  isActive?: boolean;
}

export async function updateInstructor(
  db: Db,
  id: string,
  changes: InstructorChanges,
  now: Date,
): Promise<Instructor | undefined> {
  const row = await db.updateTable("instructors").where("id", "=", id).set({
    ...(changes.userId !== undefined ? { user_id: changes.userId } : {}),
    ...(changes.firstName !== undefined ? { first_name: changes.firstName } : {}),
    ...(changes.lastName !== undefined ? { last_name: changes.lastName } : {}),
    ...(changes.email !== undefined ? { email: changes.email } : {}),
    ...(changes.isActive !== undefined ? { is_active: changes.isActive } : {}),
    updated_at: now,
  }).returningAll().executeTakeFirst();
  return row && toInstructor(row);
}

export function deleteInstructor(db: Db, id: string): Promise<boolean> {
  return deleteById(db, "instructors", id);
}

/** Ids of the instructors a user teaches as (at most one, by the unique user link). */
export async function instructorIdsOfUser(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom("instructors").select("id").where("user_id", "=", userId)
    .execute();
  return rows.map((r) => r.id);
}

export function userExists(db: Db, userId: string): Promise<boolean> {
  return idExists(db, "users", userId);
}

// ---- Blocked dates and closures -----------------------------------------------------------

function toBlockedDate(row: {
  id: string;
  instructor_id: string;
  date: string;
  reason: string | null;
  created_at: Date;
}) {
  return {
    id: row.id,
    instructorId: row.instructor_id,
    date: row.date,
    reason: row.reason,
    createdAt: row.created_at.toISOString(),
  };
}

export function listBlockedDates(
  db: Db,
  instructorId: string,
  params: ListParams & { from?: string; to?: string },
) {
  let query = db.selectFrom("instructor_blocked_dates").selectAll()
    .where("instructor_id", "=", instructorId);
  if (params.from) query = query.where("date", ">=", params.from);
  if (params.to) query = query.where("date", "<=", params.to);
  if (params.q) query = query.where("reason", "ilike", likePattern(params.q));
  return paginate(query, params, {
    sortColumns: { date: "date", createdAt: "created_at" },
    tieBreaker: "id",
    map: toBlockedDate,
  });
}

export async function insertBlockedDate(
  db: Db,
  values: { id: string; instructorId: string; date: string; reason: string | null; now: Date },
) {
  const row = await db.insertInto("instructor_blocked_dates").values({
    id: values.id,
    instructor_id: values.instructorId,
    date: values.date,
    reason: values.reason,
    created_at: values.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toBlockedDate(row);
}

export async function deleteBlockedDate(
  db: Db,
  instructorId: string,
  id: string,
): Promise<boolean> {
  return touchedAny(
    await db.deleteFrom("instructor_blocked_dates").where("id", "=", id)
      .where("instructor_id", "=", instructorId).executeTakeFirst(),
  );
}

export async function isInstructorBlocked(
  db: Db,
  instructorId: string,
  date: string,
): Promise<boolean> {
  return await hasRow(
    db.selectFrom("instructor_blocked_dates").select("id")
      .where("instructor_id", "=", instructorId).where("date", "=", date),
  );
}

export function listBlockedDatesBetween(db: Db, from: string, to: string) {
  return db.selectFrom("instructor_blocked_dates")
    .select(["instructor_id as instructorId", "date"])
    .where("date", ">=", from).where("date", "<=", to).execute();
}

function toClosure(row: {
  id: string;
  start_date: string;
  end_date: string;
  reason: string;
  created_at: Date;
}) {
  return {
    id: row.id,
    startDate: row.start_date,
    endDate: row.end_date,
    reason: row.reason,
    createdAt: row.created_at.toISOString(),
  };
}

/** Closures overlapping [from, to] (either end optional). */
export function listStoreClosures(db: Db, params: ListParams & { from?: string; to?: string }) {
  let query = db.selectFrom("store_closures").selectAll();
  if (params.from) query = query.where("end_date", ">=", params.from);
  if (params.to) query = query.where("start_date", "<=", params.to);
  if (params.q) query = query.where("reason", "ilike", likePattern(params.q));
  return paginate(query, params, {
    sortColumns: { startDate: "start_date", createdAt: "created_at" },
    tieBreaker: "id",
    map: toClosure,
  });
}

export async function insertStoreClosure(
  db: Db,
  values: { id: string; startDate: string; endDate: string; reason: string; now: Date },
) {
  const row = await db.insertInto("store_closures").values({
    id: values.id,
    start_date: values.startDate,
    end_date: values.endDate,
    reason: values.reason,
    created_at: values.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toClosure(row);
}

export function deleteStoreClosure(db: Db, id: string): Promise<boolean> {
  return deleteById(db, "store_closures", id);
}

export function listClosuresBetween(db: Db, from: string, to: string) {
  return db.selectFrom("store_closures")
    .select(["start_date as startDate", "end_date as endDate"])
    .where("end_date", ">=", from).where("start_date", "<=", to).execute();
}

// ---- Schedule slots -----------------------------------------------------------------------

function slotQuery(db: Db) {
  return db.selectFrom("schedule_slots as s")
    .innerJoin("instructors as i", "i.id", "s.instructor_id")
    .innerJoin("lesson_types as t", "t.id", "s.lesson_type_id")
    .select([
      "s.id",
      "s.instructor_id",
      "s.lesson_type_id",
      "s.day_of_week",
      "s.start_minute",
      "s.end_minute",
      "s.duration_minutes",
      "s.max_students",
      "s.rate_weekly",
      "s.rate_monthly",
      "s.rate_quarterly",
      "s.location_id",
      "s.room",
      "s.is_active",
      "s.created_at",
      "s.updated_at",
      sql<string>`i.first_name || ' ' || i.last_name`.as("instructor_name"),
      "t.name as lesson_type_name",
      sql<number>`(SELECT count(*)::int FROM enrollments e
        WHERE e.slot_id = s.id AND e.status IN ('active', 'paused'))`.as("enrolled_count"),
    ]);
}

type SlotRow = Awaited<ReturnType<ReturnType<typeof slotQuery>["executeTakeFirstOrThrow"]>>;

function toSlot(row: SlotRow): Slot {
  return {
    id: row.id,
    instructorId: row.instructor_id,
    instructorName: row.instructor_name,
    lessonTypeId: row.lesson_type_id,
    lessonTypeName: row.lesson_type_name,
    dayOfWeek: row.day_of_week,
    startTime: timeOfMinutes(row.start_minute),
    endTime: timeOfMinutes(row.end_minute),
    durationMinutes: row.duration_minutes,
    maxStudents: row.max_students,
    enrolledCount: Number(row.enrolled_count),
    ratePresets: rates(row),
    locationId: row.location_id,
    room: row.room,
    isActive: row.is_active,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function listSlots(
  db: Db,
  params: ListParams & {
    instructorId?: string;
    lessonTypeId?: string;
    locationId?: string;
    dayOfWeek?: number;
    isActive?: boolean;
  },
) {
  let query = slotQuery(db);
  if (params.q) {
    query = query.where((eb) =>
      eb.or([
        eb(
          sql`lower(i.first_name || ' ' || i.last_name || ' ' || coalesce(i.email, ''))`,
          "like",
          likePattern(params.q!.toLowerCase()),
        ),
        eb(sql`lower(t.name)`, "like", likePattern(params.q!.toLowerCase())),
      ])
    );
  }
  if (params.instructorId) query = query.where("s.instructor_id", "=", params.instructorId);
  if (params.lessonTypeId) query = query.where("s.lesson_type_id", "=", params.lessonTypeId);
  if (params.locationId) query = query.where("s.location_id", "=", params.locationId);
  if (params.dayOfWeek !== undefined) query = query.where("s.day_of_week", "=", params.dayOfWeek);
  if (params.isActive !== undefined) query = query.where("s.is_active", "=", params.isActive);
  return paginate(
    query.select(sql<number>`s.day_of_week * 1440 + s.start_minute`.as("week_minute")),
    params,
    {
      sortColumns: {
        dayOfWeek: "week_minute",
        startTime: "s.start_minute",
        createdAt: "s.created_at",
      },
      tieBreaker: "s.id",
      map: toSlot,
    },
  );
}

export async function findSlot(db: Db, id: string): Promise<Slot | undefined> {
  const row = await slotQuery(db).where("s.id", "=", id).executeTakeFirst();
  return row && toSlot(row);
}

export interface SlotCore {
  id: string;
  instructorId: string;
  lessonTypeId: string;
  dayOfWeek: number;
  startMinute: number;
  endMinute: number;
  maxStudents: number;
  isActive: boolean;
  ratePresets: RatePresets;
}

/** The slot's scheduling facts; `lock` takes a row lock (capacity checks). */
export async function findSlotCore(
  db: Db,
  id: string,
  lock = false,
): Promise<SlotCore | undefined> {
  let query = db.selectFrom("schedule_slots").selectAll().where("id", "=", id);
  if (lock) query = query.forNoKeyUpdate();
  const row = await query.executeTakeFirst();
  return row && {
    id: row.id,
    instructorId: row.instructor_id,
    lessonTypeId: row.lesson_type_id,
    dayOfWeek: row.day_of_week,
    startMinute: row.start_minute,
    endMinute: row.end_minute,
    maxStudents: row.max_students,
    isActive: row.is_active,
    ratePresets: rates(row),
  };
}

/** The weekday and times of slots (what the overlap rule and session generation read). */
function slotTimesQuery(db: Db) {
  return db.selectFrom("schedule_slots")
    .select(["id", "instructor_id", "day_of_week", "start_minute", "end_minute", "is_active"]);
}

function toSlotTimes(
  row: Pick<
    Selectable<ScheduleSlotTable>,
    "id" | "instructor_id" | "day_of_week" | "start_minute" | "end_minute" | "is_active"
  >,
): SlotTimes {
  return {
    id: row.id,
    instructorId: row.instructor_id,
    dayOfWeek: row.day_of_week,
    startMinute: row.start_minute,
    endMinute: row.end_minute,
    isActive: row.is_active,
  };
}

/** Active slots of an instructor on a weekday overlapping [start, end), except `excludeId`. */
export async function findOverlappingSlots(
  db: Db,
  instructorId: string,
  dayOfWeek: number,
  startMinute: number,
  endMinute: number,
  excludeId?: string,
) {
  let query = slotTimesQuery(db)
    .where("instructor_id", "=", instructorId).where("day_of_week", "=", dayOfWeek)
    .where("is_active", "=", true).where("start_minute", "<", endMinute)
    .where("end_minute", ">", startMinute);
  if (excludeId) query = query.where("id", "<>", excludeId);
  const rows = await query.orderBy("start_minute").execute();
  return rows.map(toSlotTimes);
}

export interface SlotValues {
  instructorId: string;
  lessonTypeId: string;
  dayOfWeek: number;
  startMinute: number;
  durationMinutes: number;
  maxStudents: number;
  ratePresets?: Partial<RatePresets>;
  locationId: string | null;
  room: string | null;
  isActive: boolean;
}

export async function insertSlot(db: Db, id: string, values: SlotValues, now: Date) {
  await db.insertInto("schedule_slots").values({
    id,
    instructor_id: values.instructorId,
    lesson_type_id: values.lessonTypeId,
    day_of_week: values.dayOfWeek,
    start_minute: values.startMinute,
    duration_minutes: values.durationMinutes,
    max_students: values.maxStudents,
    ...rateColumns(values.ratePresets),
    location_id: values.locationId,
    room: values.room,
    is_active: values.isActive,
    created_at: now,
    updated_at: now,
  }).execute();
}

export async function updateSlot(
  db: Db,
  id: string,
  values: Partial<SlotValues>,
  now: Date,
): Promise<boolean> {
  const result = await db.updateTable("schedule_slots").where("id", "=", id).set({
    ...(values.instructorId !== undefined ? { instructor_id: values.instructorId } : {}),
    ...(values.lessonTypeId !== undefined ? { lesson_type_id: values.lessonTypeId } : {}),
    ...(values.dayOfWeek !== undefined ? { day_of_week: values.dayOfWeek } : {}),
    ...(values.startMinute !== undefined ? { start_minute: values.startMinute } : {}),
    ...(values.durationMinutes !== undefined ? { duration_minutes: values.durationMinutes } : {}),
    ...(values.maxStudents !== undefined ? { max_students: values.maxStudents } : {}),
    ...rateColumns(values.ratePresets),
    ...(values.locationId !== undefined ? { location_id: values.locationId } : {}),
    ...(values.room !== undefined ? { room: values.room } : {}),
    ...(values.isActive !== undefined ? { is_active: values.isActive } : {}),
    updated_at: now,
  }).executeTakeFirst();
  return touchedAny(result);
}

export function deleteSlot(db: Db, id: string): Promise<boolean> {
  return deleteById(db, "schedule_slots", id);
}

export function locationExists(db: Db, id: string): Promise<boolean> {
  return idExists(db, "locations", id);
}

/** Slots the instructors of a user teach (for lessons.teach checks). */
export async function slotIsTaughtByUser(db: Db, slotId: string, userId: string) {
  return await hasRow(
    db.selectFrom("schedule_slots as s")
      .innerJoin("instructors as i", "i.id", "s.instructor_id")
      .select("s.id").where("s.id", "=", slotId).where("i.user_id", "=", userId),
  );
}

// ---- Enrollments --------------------------------------------------------------------------

function enrollmentQuery(db: Db) {
  return db.selectFrom("enrollments as e")
    .innerJoin("members as m", "m.id", "e.member_id")
    .select([
      "e.id",
      "e.member_id",
      "e.slot_id",
      "e.status",
      "e.start_date",
      "e.end_date",
      "e.billing_interval",
      "e.billing_unit",
      "e.rate",
      "e.created_at",
      "e.updated_at",
      sql<string>`m.first_name || ' ' || m.last_name`.as("member_name"),
    ]);
}

type EnrollmentRow = Awaited<
  ReturnType<ReturnType<typeof enrollmentQuery>["executeTakeFirstOrThrow"]>
>;

function toEnrollment(row: EnrollmentRow): Enrollment {
  return {
    id: row.id,
    memberId: row.member_id,
    memberName: row.member_name,
    slotId: row.slot_id,
    status: row.status as EnrollmentStatus,
    startDate: row.start_date,
    endDate: row.end_date,
    billingInterval: row.billing_interval as BillingInterval,
    billingUnit: row.billing_unit,
    rate: row.rate,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function listEnrollments(
  db: Db,
  params: ListParams & {
    memberId?: string;
    slotId?: string;
    instructorId?: string;
    status?: EnrollmentStatus;
  },
) {
  let query = enrollmentQuery(db);
  if (params.q) {
    query = query.where(
      sql`lower(m.first_name || ' ' || m.last_name)`,
      "like",
      likePattern(params.q.toLowerCase()),
    );
  }
  if (params.memberId) query = query.where("e.member_id", "=", params.memberId);
  if (params.slotId) query = query.where("e.slot_id", "=", params.slotId);
  if (params.status) query = query.where("e.status", "=", params.status);
  if (params.instructorId) {
    const instructorId = params.instructorId;
    query = query.where(
      "e.slot_id",
      "in",
      (eb) =>
        eb.selectFrom("schedule_slots").select("id").where("instructor_id", "=", instructorId),
    );
  }
  return paginate(query, params, {
    // memberName: the output column ("first last") of enrollmentQuery.
    sortColumns: {
      startDate: "e.start_date",
      createdAt: "e.created_at",
      memberName: "member_name",
    },
    tieBreaker: "e.id",
    map: toEnrollment,
  });
}

export async function findEnrollment(db: Db, id: string): Promise<Enrollment | undefined> {
  const row = await enrollmentQuery(db).where("e.id", "=", id).executeTakeFirst();
  return row && toEnrollment(row);
}

/** Locks the enrollment row (status changes, plan creation); undefined when missing. */
export async function lockEnrollment(db: Db, id: string) {
  return await db.selectFrom("enrollments").select(["id", "status", "member_id", "slot_id"])
    .where("id", "=", id).forNoKeyUpdate().executeTakeFirst();
}

/** Locks the member row: serializes double-booking checks per member. */
export async function lockMember(db: Db, memberId: string): Promise<boolean> {
  return await hasRow(
    db.selectFrom("members").select("id").where("id", "=", memberId).forNoKeyUpdate(),
  );
}

/** Seats held in a slot by active/paused enrollments whose dates overlap [start, end]. */
export async function countSeatsHeld(
  db: Db,
  slotId: string,
  startDate: string,
  endDate: string | null,
  excludeId?: string,
): Promise<number> {
  let query = db.selectFrom("enrollments").select(sql<number>`count(*)::int`.as("n"))
    .where("slot_id", "=", slotId).where("status", "in", ["active", "paused"])
    .where((eb) => eb.or([eb("end_date", "is", null), eb("end_date", ">=", startDate)]));
  if (endDate !== null) query = query.where("start_date", "<=", endDate);
  if (excludeId) query = query.where("id", "<>", excludeId);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The member's active/paused enrollments with their slots' weekday and times. */
export async function listHeldEnrollmentsOfMember(
  db: Db,
  memberId: string,
  excludeId?: string,
): Promise<HeldEnrollment[]> {
  let query = db.selectFrom("enrollments as e")
    .innerJoin("schedule_slots as s", "s.id", "e.slot_id")
    .select([
      "e.id",
      "e.slot_id",
      "e.start_date",
      "e.end_date",
      "s.day_of_week",
      "s.start_minute",
      "s.end_minute",
    ])
    .where("e.member_id", "=", memberId).where("e.status", "in", ["active", "paused"]);
  if (excludeId) query = query.where("e.id", "<>", excludeId);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    slotId: r.slot_id,
    startDate: r.start_date,
    endDate: r.end_date,
    dayOfWeek: r.day_of_week,
    startMinute: r.start_minute,
    endMinute: r.end_minute,
  }));
}

export async function insertEnrollment(
  db: Db,
  values: {
    id: string;
    memberId: string;
    slotId: string;
    startDate: string;
    endDate: string | null;
    billingInterval: BillingInterval;
    billingUnit: string | null;
    rate: string | null;
    now: Date;
  },
): Promise<void> {
  await db.insertInto("enrollments").values({
    id: values.id,
    member_id: values.memberId,
    slot_id: values.slotId,
    status: "active",
    start_date: values.startDate,
    end_date: values.endDate,
    billing_interval: values.billingInterval,
    billing_unit: values.billingUnit,
    rate: values.rate,
    created_at: values.now,
    updated_at: values.now,
  }).execute();
}

export interface EnrollmentChanges {
  slotId?: string;
  startDate?: string;
  endDate?: string | null;
  billingInterval?: BillingInterval;
  billingUnit?: string | null;
  rate?: string | null;
  status?: EnrollmentStatus;
}

export async function updateEnrollment(
  db: Db,
  id: string,
  changes: EnrollmentChanges,
  now: Date,
): Promise<void> {
  await db.updateTable("enrollments").where("id", "=", id).set({
    ...(changes.slotId !== undefined ? { slot_id: changes.slotId } : {}),
    ...(changes.startDate !== undefined ? { start_date: changes.startDate } : {}),
    ...(changes.endDate !== undefined ? { end_date: changes.endDate } : {}),
    ...(changes.billingInterval !== undefined ? { billing_interval: changes.billingInterval } : {}),
    ...(changes.billingUnit !== undefined ? { billing_unit: changes.billingUnit } : {}),
    ...(changes.rate !== undefined ? { rate: changes.rate } : {}),
    ...(changes.status !== undefined ? { status: changes.status } : {}),
    updated_at: now,
  }).execute();
}

export function deleteEnrollment(db: Db, id: string): Promise<boolean> {
  return deleteById(db, "enrollments", id);
}

export function memberExists(db: Db, memberId: string): Promise<boolean> {
  return idExists(db, "members", memberId);
}

/** Removes an enrollment's still-scheduled sessions after `afterDate` (it stopped). */
export async function deleteScheduledSessionsAfter(
  db: Db,
  enrollmentId: string,
  afterDate: string,
): Promise<number> {
  const result = await db.deleteFrom("lesson_sessions").where("enrollment_id", "=", enrollmentId)
    .where("status", "=", "scheduled").where("date", ">", afterDate).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---- Session generation -------------------------------------------------------------------

export async function listSlotsForGeneration(
  db: Db,
  slotId?: string,
): Promise<GenerationSlot[]> {
  let query = slotTimesQuery(db).where("is_active", "=", true);
  if (slotId) query = query.where("id", "=", slotId);
  const rows = await query.execute();
  return rows.map(toSlotTimes);
}

/** Active enrollments whose dates overlap [from, to] (of one slot, or all). */
export async function listEnrollmentsForGeneration(
  db: Db,
  from: string,
  to: string,
  slotId?: string,
): Promise<GenerationEnrollment[]> {
  let query = db.selectFrom("enrollments")
    .select(["id", "slot_id", "member_id", "status", "start_date", "end_date"])
    .where("status", "=", "active").where("start_date", "<=", to)
    .where((eb) => eb.or([eb("end_date", "is", null), eb("end_date", ">=", from)]));
  if (slotId) query = query.where("slot_id", "=", slotId);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    slotId: r.slot_id,
    memberId: r.member_id,
    status: r.status,
    startDate: r.start_date,
    endDate: r.end_date,
  }));
}

/** Serializes generation runs (each waits for the previous to commit). */
export async function lockSessionGeneration(db: Db): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('lesson_session_generation'))`.execute(db);
}

/** A PostgreSQL array literal of values that need no quoting (uuids, dates, integers). */
function arrayLiteral(values: ReadonlyArray<string | number>): string {
  return `{${values.join(",")}}`;
}

/**
 * Inserts planned sessions that do not exist yet (unique per enrollment and date) and
 * returns how many were new: one statement per chunk, the rows passed as eight array
 * parameters and expanded by `unnest` (cheaper than thousands of bind parameters).
 */
export async function insertPlannedSessions(
  db: Db,
  sessions: readonly PlannedSession[],
  newId: () => string,
  now: Date,
): Promise<number> {
  if (sessions.length === 0) return 0;
  const result = await sql`
    INSERT INTO lesson_sessions (id, enrollment_id, slot_id, member_id, instructor_id, date,
      start_minute, end_minute, status, created_at, updated_at)
    SELECT r.id, r.enrollment_id, r.slot_id, r.member_id, r.instructor_id, r.date,
      r.start_minute, r.end_minute, 'scheduled', ${now}, ${now}
    FROM unnest(
      ${arrayLiteral(sessions.map(() => newId()))}::uuid[],
      ${arrayLiteral(sessions.map((s) => s.enrollmentId))}::uuid[],
      ${arrayLiteral(sessions.map((s) => s.slotId))}::uuid[],
      ${arrayLiteral(sessions.map((s) => s.memberId))}::uuid[],
      ${arrayLiteral(sessions.map((s) => s.instructorId))}::uuid[],
      ${arrayLiteral(sessions.map((s) => s.date))}::date[],
      ${arrayLiteral(sessions.map((s) => s.startMinute))}::int[],
      ${arrayLiteral(sessions.map((s) => s.endMinute))}::int[]
    ) AS r(id, enrollment_id, slot_id, member_id, instructor_id, date, start_minute, end_minute)
    ON CONFLICT (enrollment_id, date) WHERE makeup_for_session_id IS NULL DO NOTHING
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

// ---- Sessions -----------------------------------------------------------------------------

function toSession(row: Selectable<LessonSessionTable>): Session {
  return {
    id: row.id,
    enrollmentId: row.enrollment_id,
    slotId: row.slot_id,
    memberId: row.member_id,
    instructorId: row.instructor_id,
    substituteInstructorId: row.substitute_instructor_id,
    date: row.date,
    startTime: timeOfMinutes(row.start_minute),
    endTime: timeOfMinutes(row.end_minute),
    status: row.status as SessionStatus,
    notes: row.notes,
    notesCompletedAt: row.notes_completed_at ? row.notes_completed_at.toISOString() : null,
    makeupForSessionId: row.makeup_for_session_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function listSessions(
  db: Db,
  params: ListParams & {
    slotId?: string;
    instructorId?: string;
    memberId?: string;
    enrollmentId?: string;
    status?: SessionStatus;
    from?: string;
    to?: string;
  },
) {
  let query = db.selectFrom("lesson_sessions").selectAll();
  if (params.q) query = query.where("notes", "ilike", likePattern(params.q));
  if (params.slotId) query = query.where("slot_id", "=", params.slotId);
  if (params.instructorId) {
    const id = params.instructorId;
    query = query.where((eb) =>
      eb.or([eb("instructor_id", "=", id), eb("substitute_instructor_id", "=", id)])
    );
  }
  if (params.memberId) query = query.where("member_id", "=", params.memberId);
  if (params.enrollmentId) query = query.where("enrollment_id", "=", params.enrollmentId);
  if (params.status) query = query.where("status", "=", params.status);
  if (params.from) query = query.where("date", ">=", params.from);
  if (params.to) query = query.where("date", "<=", params.to);
  const sortable = query.select(
    sql<number>`(date - DATE '2000-01-01') * 1440 + start_minute`.as("date_minute"),
  );
  return paginate(sortable, params, {
    sortColumns: { date: "date_minute", createdAt: "created_at" },
    tieBreaker: "id",
    map: toSession,
  });
}

export async function findSession(db: Db, id: string, lock = false): Promise<Session | undefined> {
  let query = db.selectFrom("lesson_sessions").selectAll().where("id", "=", id);
  if (lock) query = query.forNoKeyUpdate();
  const row = await query.executeTakeFirst();
  return row && toSession(row);
}

export async function updateSession(
  db: Db,
  id: string,
  changes: {
    status?: SessionStatus;
    notes?: string | null;
    notesCompletedAt?: Date | null;
    substituteInstructorId?: string | null;
  },
  now: Date,
): Promise<Session> {
  const row = await db.updateTable("lesson_sessions").where("id", "=", id).set({
    ...(changes.status !== undefined ? { status: changes.status } : {}),
    ...(changes.notes !== undefined ? { notes: changes.notes } : {}),
    ...(changes.notesCompletedAt !== undefined
      ? { notes_completed_at: changes.notesCompletedAt }
      : {}),
    ...(changes.substituteInstructorId !== undefined
      ? { substitute_instructor_id: changes.substituteInstructorId }
      : {}),
    updated_at: now,
  }).returningAll().executeTakeFirstOrThrow();
  return toSession(row);
}

export async function insertMakeupSession(
  db: Db,
  values: {
    id: string;
    original: Session;
    date: string;
    startMinute: number;
    endMinute: number;
    now: Date;
  },
): Promise<Session> {
  const o = values.original;
  const row = await db.insertInto("lesson_sessions").values({
    id: values.id,
    enrollment_id: o.enrollmentId,
    slot_id: o.slotId,
    member_id: o.memberId,
    instructor_id: o.instructorId,
    date: values.date,
    start_minute: values.startMinute,
    end_minute: values.endMinute,
    status: "makeup",
    makeup_for_session_id: o.id,
    created_at: values.now,
    updated_at: values.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toSession(row);
}

/** Another non-cancelled session the instructor teaches or substitutes overlapping in time. */
export async function findOverlappingSessionOf(
  db: Db,
  instructorId: string,
  date: string,
  startMinute: number,
  endMinute: number,
  excludeId: string,
) {
  return await db.selectFrom("lesson_sessions")
    .select(["id", "start_minute as startMinute", "end_minute as endMinute"])
    .where("date", "=", date).where("id", "<>", excludeId).where("status", "<>", "cancelled")
    .where((eb) =>
      eb.or([
        eb.and([
          eb("instructor_id", "=", instructorId),
          eb("substitute_instructor_id", "is", null),
        ]),
        eb("substitute_instructor_id", "=", instructorId),
      ])
    )
    .where("start_minute", "<", endMinute).where("end_minute", ">", startMinute)
    .executeTakeFirst();
}

// ---- Lesson plans -------------------------------------------------------------------------

function toPlanItem(row: Selectable<LessonPlanItemTable>): PlanItem {
  return {
    id: row.id,
    sectionId: row.section_id,
    title: row.title,
    description: row.description,
    sortOrder: row.sort_order,
    status: row.status as ItemStatus,
    gradeLevelId: row.grade_level_id,
    notes: row.notes,
    startedDate: row.started_date,
    masteredDate: row.mastered_date,
    updatedAt: row.updated_at.toISOString(),
  };
}

export interface PlanRow {
  id: string;
  enrollment_id: string;
  title: string;
  status: string;
  created_at: Date;
  updated_at: Date;
}

export function listPlanRows(
  db: Db,
  params: ListParams & { enrollmentId?: string; status?: PlanStatus },
) {
  let query = db.selectFrom("lesson_plans").selectAll();
  if (params.q) query = query.where("title", "ilike", likePattern(params.q));
  if (params.enrollmentId) query = query.where("enrollment_id", "=", params.enrollmentId);
  if (params.status) query = query.where("status", "=", params.status);
  return paginate(query, params, {
    sortColumns: { createdAt: "created_at", title: "title" },
    tieBreaker: "id",
    map: (row: PlanRow) => row,
  });
}

export async function findPlanRow(db: Db, id: string, lock = false) {
  let query = db.selectFrom("lesson_plans").selectAll().where("id", "=", id);
  if (lock) query = query.forNoKeyUpdate();
  return await query.executeTakeFirst();
}

/** Sections and items of several plans at once, ordered for display. */
export async function listPlanContents(db: Db, planIds: readonly string[]) {
  if (planIds.length === 0) return { sections: [], items: [] };
  const [sections, items] = await Promise.all([
    db.selectFrom("lesson_plan_sections").selectAll().where("plan_id", "in", planIds)
      .orderBy("sort_order").orderBy("id").execute(),
    db.selectFrom("lesson_plan_items").selectAll().where("plan_id", "in", planIds)
      .orderBy("sort_order").orderBy("id").execute(),
  ]);
  return { sections, items: items.map((row) => ({ planId: row.plan_id, item: toPlanItem(row) })) };
}

export async function insertPlan(
  db: Db,
  values: { id: string; enrollmentId: string; title: string; status: PlanStatus; now: Date },
) {
  await db.insertInto("lesson_plans").values({
    id: values.id,
    enrollment_id: values.enrollmentId,
    title: values.title,
    status: values.status,
    created_at: values.now,
    updated_at: values.now,
  }).execute();
}

export async function insertPlanSections(
  db: Db,
  rows: ReadonlyArray<{ id: string; planId: string; title: string; sortOrder: number }>,
) {
  if (rows.length === 0) return;
  await db.insertInto("lesson_plan_sections").values(rows.map((r) => ({
    id: r.id,
    plan_id: r.planId,
    title: r.title,
    sort_order: r.sortOrder,
  }))).execute();
}

export async function insertPlanItems(
  db: Db,
  rows: ReadonlyArray<{
    id: string;
    planId: string;
    sectionId: string;
    title: string;
    description: string | null;
    sortOrder: number;
  }>,
  now: Date,
) {
  if (rows.length === 0) return;
  await db.insertInto("lesson_plan_items").values(rows.map((r) => ({
    id: r.id,
    plan_id: r.planId,
    section_id: r.sectionId,
    title: r.title,
    description: r.description,
    sort_order: r.sortOrder,
    status: "not_started",
    updated_at: now,
  }))).execute();
}

export async function updatePlan(
  db: Db,
  id: string,
  changes: { title?: string; status?: PlanStatus },
  now: Date,
) {
  await db.updateTable("lesson_plans").where("id", "=", id).set({
    ...(changes.title !== undefined ? { title: changes.title } : {}),
    ...(changes.status !== undefined ? { status: changes.status } : {}),
    updated_at: now,
  }).execute();
}

export function deletePlan(db: Db, id: string): Promise<boolean> {
  return deleteById(db, "lesson_plans", id);
}

export async function findPlanItem(db: Db, planId: string, itemId: string, lock = false) {
  let query = db.selectFrom("lesson_plan_items").selectAll().where("id", "=", itemId)
    .where("plan_id", "=", planId);
  if (lock) query = query.forNoKeyUpdate();
  const row = await query.executeTakeFirst();
  return row && toPlanItem(row);
}

export async function updatePlanItem(
  db: Db,
  itemId: string,
  changes: {
    status?: ItemStatus;
    gradeLevelId?: string | null;
    notes?: string | null;
    startedDate?: string | null;
    masteredDate?: string | null;
  },
  now: Date,
): Promise<PlanItem> {
  const row = await db.updateTable("lesson_plan_items").where("id", "=", itemId).set({
    ...(changes.status !== undefined ? { status: changes.status } : {}),
    ...(changes.gradeLevelId !== undefined ? { grade_level_id: changes.gradeLevelId } : {}),
    ...(changes.notes !== undefined ? { notes: changes.notes } : {}),
    ...(changes.startedDate !== undefined ? { started_date: changes.startedDate } : {}),
    ...(changes.masteredDate !== undefined ? { mastered_date: changes.masteredDate } : {}),
    updated_at: now,
  }).returningAll().executeTakeFirstOrThrow();
  return toPlanItem(row);
}

export async function planItemStatuses(db: Db, planId: string) {
  const rows = await db.selectFrom("lesson_plan_items").select("status")
    .where("plan_id", "=", planId).execute();
  return rows.map((r) => ({ status: r.status as ItemStatus }));
}

export function gradeLevelExists(db: Db, id: string): Promise<boolean> {
  return idExists(db, "grading_scale_levels", id);
}

// ---- Grading scales -----------------------------------------------------------------------

export interface LevelRow {
  id: string;
  scale_id: string;
  value: string;
  label: string;
  numeric_score: string | null;
  color: string | null;
  sort_order: number;
}

function toLevel(row: LevelRow) {
  return {
    id: row.id,
    value: row.value,
    label: row.label,
    numericScore: row.numeric_score === null ? null : Number(row.numeric_score),
    color: row.color,
    sortOrder: row.sort_order,
  };
}

async function levelsOf(db: Db, scaleIds: readonly string[]) {
  const byScale = new Map<string, ReturnType<typeof toLevel>[]>();
  if (scaleIds.length === 0) return byScale;
  const rows = await db.selectFrom("grading_scale_levels").selectAll()
    .where("scale_id", "in", scaleIds).orderBy("sort_order").orderBy("value").execute();
  for (const row of rows) {
    const list = byScale.get(row.scale_id) ?? [];
    list.push(toLevel(row));
    byScale.set(row.scale_id, list);
  }
  return byScale;
}

interface ScaleRow {
  id: string;
  name: string;
  description: string | null;
  is_default: boolean;
  created_at: Date;
  updated_at: Date;
}

function toScale(row: ScaleRow, levels: ReturnType<typeof toLevel>[]): GradingScale {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    isDefault: row.is_default,
    levels,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function listGradingScales(db: Db, params: ListParams) {
  let query = db.selectFrom("grading_scales").selectAll();
  if (params.q) query = query.where(sql`lower(name)`, "like", likePattern(params.q.toLowerCase()));
  const page = await paginate(query, params, {
    sortColumns: { name: "name", createdAt: "created_at" },
    tieBreaker: "id",
    map: (row: ScaleRow) => row,
  });
  const levels = await levelsOf(db, page.data.map((s) => s.id));
  return { ...page, data: page.data.map((s) => toScale(s, levels.get(s.id) ?? [])) };
}

export async function lookupGradingScales(db: Db) {
  const rows = await db.selectFrom("grading_scales").selectAll()
    .orderBy("is_default", "desc").orderBy("name").orderBy("id").execute();
  const levels = await levelsOf(db, rows.map((s) => s.id));
  return rows.map((s) => ({
    id: s.id,
    name: s.name,
    isDefault: s.is_default,
    levels: levels.get(s.id) ?? [],
  }));
}

export async function findGradingScale(db: Db, id: string): Promise<GradingScale | undefined> {
  const row = await db.selectFrom("grading_scales").selectAll().where("id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  const levels = await levelsOf(db, [row.id]);
  return toScale(row, levels.get(row.id) ?? []);
}

/** Serializes changes of which scale is the default. */
export async function lockDefaultScale(db: Db): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('grading_scale_default'))`.execute(db);
}

export async function findDefaultScaleId(db: Db): Promise<string | undefined> {
  const row = await db.selectFrom("grading_scales").select("id").where("is_default", "=", true)
    .executeTakeFirst();
  return row?.id;
}

export async function clearDefaultScale(db: Db, now: Date): Promise<void> {
  await db.updateTable("grading_scales").where("is_default", "=", true)
    .set({ is_default: false, updated_at: now }).execute();
}

export async function insertGradingScale(
  db: Db,
  values: { id: string; name: string; description: string | null; isDefault: boolean; now: Date },
) {
  await db.insertInto("grading_scales").values({
    id: values.id,
    name: values.name,
    description: values.description,
    is_default: values.isDefault,
    created_at: values.now,
    updated_at: values.now,
  }).execute();
}

export async function updateGradingScale(
  db: Db,
  id: string,
  changes: { name?: string; description?: string | null; isDefault?: boolean },
  now: Date,
): Promise<boolean> {
  const result = await db.updateTable("grading_scales").where("id", "=", id).set({
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.description !== undefined ? { description: changes.description } : {}),
    ...(changes.isDefault !== undefined ? { is_default: changes.isDefault } : {}),
    updated_at: now,
  }).executeTakeFirst();
  return touchedAny(result);
}

export async function findScaleRow(db: Db, id: string, lock = false) {
  let query = db.selectFrom("grading_scales").selectAll().where("id", "=", id);
  if (lock) query = query.forUpdate();
  return await query.executeTakeFirst();
}

export function deleteGradingScale(db: Db, id: string): Promise<boolean> {
  return deleteById(db, "grading_scales", id);
}

/** Makes the earliest-created scale the default (after the default was deleted). */
export async function promoteOldestScale(db: Db, now: Date): Promise<void> {
  const oldest = await db.selectFrom("grading_scales").select("id").orderBy("created_at")
    .orderBy("id").limit(1).executeTakeFirst();
  if (oldest) {
    await db.updateTable("grading_scales").where("id", "=", oldest.id)
      .set({ is_default: true, updated_at: now }).execute();
  }
}

export async function listLevelRows(db: Db, scaleId: string) {
  return await db.selectFrom("grading_scale_levels").selectAll().where("scale_id", "=", scaleId)
    .execute();
}

export async function insertLevels(
  db: Db,
  rows: ReadonlyArray<{
    id: string;
    scaleId: string;
    value: string;
    label: string;
    numericScore: number | null;
    color: string | null;
    sortOrder: number;
  }>,
) {
  if (rows.length === 0) return;
  await db.insertInto("grading_scale_levels").values(rows.map((r) => ({
    id: r.id,
    scale_id: r.scaleId,
    value: r.value,
    label: r.label,
    numeric_score: r.numericScore === null ? null : String(r.numericScore),
    color: r.color,
    sort_order: r.sortOrder,
  }))).execute();
}

export async function updateLevel(
  db: Db,
  id: string,
  values: { label: string; numericScore: number | null; color: string | null; sortOrder: number },
) {
  await db.updateTable("grading_scale_levels").where("id", "=", id).set({
    label: values.label,
    numeric_score: values.numericScore === null ? null : String(values.numericScore),
    color: values.color,
    sort_order: values.sortOrder,
  }).execute();
}

export async function deleteLevels(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return;
  await db.deleteFrom("grading_scale_levels").where("id", "in", ids).execute();
}
