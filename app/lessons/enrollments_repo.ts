/** SQL of enrollments (a member's seat in a schedule slot). */
import { sql, type Transaction } from "kysely";
import type { HeldEnrollment } from "../../domain/enrollments/capacity.ts";
import {
  type EnrollmentStatus,
  SEAT_HOLDING_STATUSES,
} from "../../domain/enrollments/status_machine.ts";
import type { BillingInterval } from "../../domain/enrollments/terms.ts";
import type { GenerationEnrollment } from "../../domain/lessons/session_generation.ts";
import type { Database, Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { deleteById, isoString } from "../db/rows.ts";
import { containsText, LOWERED } from "../db/contains_text.ts";
import { isAnyOf } from "../db/any_of.ts";
import { selectLowerFullNameOfMember } from "../accounts/members_repo.ts";
import type { ListParams } from "../schemas.ts";
import type { Enrollment } from "./lesson_schemas.ts";

/**
 * An enrollment with its member's name. A LEFT JOIN, though `member_id` is a NOT NULL foreign
 * key: PostgreSQL removes an outer join whose columns are not used, so a list's capped count
 * (by status, slot or instructor) reads the enrollments' index alone instead of probing a member
 * per counted enrollment.
 */
function enrollmentQuery(db: Db) {
  return db.selectFrom("enrollments as e")
    .leftJoin("members as m", "m.id", "e.member_id")
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
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
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
  // The member's name from the enrollments' own copy (one trigram index on this table).
  if (params.q) query = query.where(containsText("e.search", params.q, LOWERED));
  if (params.memberId) query = query.where("e.member_id", "=", params.memberId);
  if (params.slotId) query = query.where("e.slot_id", "=", params.slotId);
  if (params.status) query = query.where("e.status", "=", params.status);
  if (params.instructorId) {
    // The instructor's slots first, then their enrollments through the slot index (counted
    // index-only): as a semi-join the count hashed every enrollment (app/db/any_of.ts).
    const slots = db.selectFrom("schedule_slots").select("id")
      .where("instructor_id", "=", params.instructorId);
    query = query.where(isAnyOf("e.slot_id", slots));
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

/** The instructor of the enrollment's slot (who teaches it), or undefined without one. */
export async function findEnrollmentInstructorId(
  db: Db,
  id: string,
): Promise<string | undefined> {
  const row = await db.selectFrom("enrollments as e")
    .innerJoin("schedule_slots as s", "s.id", "e.slot_id")
    .select("s.instructor_id").where("e.id", "=", id).executeTakeFirst();
  return row?.instructor_id;
}

/**
 * The enrollment's row FOR NO KEY UPDATE (the one lock strength of enrollment rows):
 * serializes its status changes and edits and the creation of its plans; undefined when
 * missing.
 */
export async function lockEnrollment(
  trx: Transaction<Database>,
  id: string,
): Promise<{ id: string; status: EnrollmentStatus; memberId: string; slotId: string } | undefined> {
  const row = await trx.selectFrom("enrollments").select(["id", "status", "member_id", "slot_id"])
    .where("id", "=", id).forNoKeyUpdate().executeTakeFirst();
  return row && {
    id: row.id,
    status: row.status as EnrollmentStatus,
    memberId: row.member_id,
    slotId: row.slot_id,
  };
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
    .where("slot_id", "=", slotId).where("status", "in", SEAT_HOLDING_STATUSES)
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
    .innerJoin("instructors as i", "i.id", "s.instructor_id")
    .innerJoin("lesson_types as t", "t.id", "s.lesson_type_id")
    .select([
      "e.id",
      "e.slot_id",
      "e.start_date",
      "e.end_date",
      "s.day_of_week",
      "s.start_minute",
      "s.end_minute",
      "s.room",
      "t.name as lesson_type_name",
      sql<string>`i.first_name || ' ' || i.last_name`.as("instructor_name"),
    ])
    .where("e.member_id", "=", memberId).where("e.status", "in", SEAT_HOLDING_STATUSES);
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
    names: {
      lessonTypeName: r.lesson_type_name,
      instructorName: r.instructor_name,
      room: r.room,
    },
  }));
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

/** Writes `enrollments.search` again for the enrollments of `memberIds` (renamed members). */
export async function refreshEnrollmentSearch(
  db: Db,
  memberIds: readonly string[],
): Promise<void> {
  if (memberIds.length === 0) return;
  await db.updateTable("enrollments as e")
    .set({ search: selectLowerFullNameOfMember(sql.ref("e.member_id")) })
    .where("e.member_id", "in", [...memberIds]).execute();
}

/** `enrollments.search` of every enrollment, after a bulk insert (bench). */
export async function refreshEveryEnrollmentSearch(db: Db): Promise<void> {
  await db.updateTable("enrollments as e")
    .set({ search: selectLowerFullNameOfMember(sql.ref("e.member_id")) }).execute();
}

/** Inserts an enrollment; the caller has locked the member (`lockMember`), whose name it copies. */
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
    search: selectLowerFullNameOfMember(values.memberId),
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
