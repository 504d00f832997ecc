/** SQL of schedule slots (weekly lesson times of an instructor). */
import { type Selectable, sql, type Transaction } from "kysely";
import { timeOfMinutes } from "../../domain/calendar.ts";
import { SEAT_HOLDING_STATUSES } from "../../domain/enrollments/status_machine.ts";
import type { SlotNames, SlotTimes } from "../../domain/lessons/slot_overlap.ts";
import type { Database, Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { deleteById, isoString, touchedAny } from "../db/rows.ts";
import { containsText, LOWERED } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { RatePresets, Slot } from "./lesson_schemas.ts";
import { rateColumns, ratePresetsOf } from "./lesson_types_repo.ts";
import type { ScheduleSlotTable } from "./lessons_tables.ts";

function slotQuery(db: Db) {
  return db.selectFrom("schedule_slots as s")
    .innerJoin("instructors as i", "i.id", "s.instructor_id")
    .innerJoin("lesson_types as t", "t.id", "s.lesson_type_id")
    .select((eb) => [
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
      eb.selectFrom("enrollments as e").select(sql<number>`count(*)::int`.as("n"))
        .whereRef("e.slot_id", "=", "s.id").where("e.status", "in", SEAT_HOLDING_STATUSES)
        .as("enrolled_count"),
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
    ratePresets: ratePresetsOf(row),
    locationId: row.location_id,
    room: row.room,
    isActive: row.is_active,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
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
    const q = params.q;
    query = query.where((eb) =>
      eb.or([
        containsText(
          sql`lower(i.first_name || ' ' || i.last_name || ' ' || coalesce(i.email, ''))`,
          q,
          LOWERED,
        ),
        containsText(sql`lower(t.name)`, q, LOWERED),
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

/** A slot's scheduling facts (what capacity, overlap and generation read). */
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

function toSlotCore(row: Selectable<ScheduleSlotTable>): SlotCore {
  return {
    id: row.id,
    instructorId: row.instructor_id,
    lessonTypeId: row.lesson_type_id,
    dayOfWeek: row.day_of_week,
    startMinute: row.start_minute,
    endMinute: row.end_minute,
    maxStudents: row.max_students,
    isActive: row.is_active,
    ratePresets: ratePresetsOf(row),
  };
}

export async function findSlotCore(db: Db, id: string): Promise<SlotCore | undefined> {
  const row = await db.selectFrom("schedule_slots").selectAll().where("id", "=", id)
    .executeTakeFirst();
  return row && toSlotCore(row);
}

/**
 * The slot's row FOR NO KEY UPDATE (the one lock strength of slot rows): serializes one
 * slot's seats (capacity checks of enrollments) and its changes, while enrollments and
 * sessions referring to it can still be inserted.
 */
export async function lockSlot(
  trx: Transaction<Database>,
  id: string,
): Promise<SlotCore | undefined> {
  const row = await trx.selectFrom("schedule_slots").selectAll().where("id", "=", id)
    .forNoKeyUpdate().executeTakeFirst();
  return row && toSlotCore(row);
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

/**
 * Active slots of an instructor on a weekday overlapping [start, end), except `excludeId`, with
 * their lesson type's name and room (what a refusal names).
 */
export async function findOverlappingSlots(
  db: Db,
  instructorId: string,
  dayOfWeek: number,
  startMinute: number,
  endMinute: number,
  excludeId?: string,
): Promise<(SlotTimes & SlotNames)[]> {
  let query = db.selectFrom("schedule_slots as s")
    .innerJoin("lesson_types as t", "t.id", "s.lesson_type_id")
    .select([
      "s.id",
      "s.instructor_id",
      "s.day_of_week",
      "s.start_minute",
      "s.end_minute",
      "s.is_active",
      "s.room",
      "t.name as lesson_type_name",
    ])
    .where("s.instructor_id", "=", instructorId).where("s.day_of_week", "=", dayOfWeek)
    .where("s.is_active", "=", true).where("s.start_minute", "<", endMinute)
    .where("s.end_minute", ">", startMinute);
  if (excludeId) query = query.where("s.id", "<>", excludeId);
  const rows = await query.orderBy("s.start_minute").execute();
  return rows.map((row) => ({
    ...toSlotTimes(row),
    lessonTypeName: row.lesson_type_name,
    room: row.room,
  }));
}

/** The names of a slot: its lesson type, its instructor ("First Last") and room. */
export async function findSlotNames(db: Db, id: string): Promise<SlotNames | undefined> {
  const row = await db.selectFrom("schedule_slots as s")
    .innerJoin("instructors as i", "i.id", "s.instructor_id")
    .innerJoin("lesson_types as t", "t.id", "s.lesson_type_id")
    .select([
      "t.name as lesson_type_name",
      sql<string>`i.first_name || ' ' || i.last_name`.as("instructor_name"),
      "s.room",
    ])
    .where("s.id", "=", id).executeTakeFirst();
  return row && {
    lessonTypeName: row.lesson_type_name,
    instructorName: row.instructor_name,
    room: row.room,
  };
}

/** The active slots (all, or one) whose sessions are generated. */
export async function listSlotsForGeneration(db: Db, slotId?: string): Promise<SlotTimes[]> {
  let query = slotTimesQuery(db).where("is_active", "=", true);
  if (slotId) query = query.where("id", "=", slotId);
  const rows = await query.execute();
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
