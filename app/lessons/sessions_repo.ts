/** SQL of lesson sessions: reads, changes, makeups and the batched inserts of generation. */
import { type Selectable, sql, type Transaction } from "kysely";
import { timeOfMinutes } from "../../domain/calendar.ts";
import type { PlannedSession } from "../../domain/lessons/session_generation.ts";
import type { SessionStatus } from "../../domain/lessons/session_status.ts";
import { arrayLiteral } from "../db/array_literal.ts";
import type { Database, Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { containsText } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { Session, SessionRecord } from "./lesson_schemas.ts";
import type { LessonSessionTable } from "./lessons_tables.ts";
import { isoString, isoStringOrNull } from "../db/rows.ts";

function toSessionRecord(row: Selectable<LessonSessionTable>): SessionRecord {
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
    notesCompletedAt: isoStringOrNull(row.notes_completed_at),
    makeupForSessionId: row.makeup_for_session_id,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

/**
 * Sessions with the names people read: the member, the instructor and substitute, the slot's
 * lesson type and room. LEFT JOINs on keys (each at most one row), so a list's capped count
 * reads the sessions alone (app/db/unused_joins.ts) and a page costs one statement.
 */
function sessionQuery(db: Db) {
  return db.selectFrom("lesson_sessions as ls")
    .leftJoin("members as m", "m.id", "ls.member_id")
    .leftJoin("instructors as i", "i.id", "ls.instructor_id")
    .leftJoin("instructors as sub", "sub.id", "ls.substitute_instructor_id")
    .leftJoin("schedule_slots as s", "s.id", "ls.slot_id")
    .leftJoin("lesson_types as t", "t.id", "s.lesson_type_id")
    .selectAll("ls")
    .select([
      sql<string | null>`m.first_name || ' ' || m.last_name`.as("member_name"),
      sql<string | null>`i.first_name || ' ' || i.last_name`.as("instructor_name"),
      sql<string | null>`sub.first_name || ' ' || sub.last_name`.as("substitute_name"),
      "t.id as lesson_type_id",
      "t.name as lesson_type_name",
      "s.room",
    ]);
}

type SessionRow = Awaited<ReturnType<ReturnType<typeof sessionQuery>["executeTakeFirstOrThrow"]>>;

function toSession(row: SessionRow): Session {
  return {
    ...toSessionRecord(row),
    memberName: row.member_name,
    instructorName: row.instructor_name,
    substituteInstructorName: row.substitute_name,
    lessonTypeId: row.lesson_type_id,
    lessonTypeName: row.lesson_type_name,
    room: row.room,
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
  let query = sessionQuery(db);
  if (params.q) query = query.where(containsText("ls.notes", params.q));
  if (params.slotId) query = query.where("ls.slot_id", "=", params.slotId);
  if (params.instructorId) {
    const id = params.instructorId;
    query = query.where((eb) =>
      eb.or([eb("ls.instructor_id", "=", id), eb("ls.substitute_instructor_id", "=", id)])
    );
  }
  if (params.memberId) query = query.where("ls.member_id", "=", params.memberId);
  if (params.enrollmentId) query = query.where("ls.enrollment_id", "=", params.enrollmentId);
  if (params.status) query = query.where("ls.status", "=", params.status);
  if (params.from) query = query.where("ls.date", ">=", params.from);
  if (params.to) query = query.where("ls.date", "<=", params.to);
  // By date then start time: the (…, date) indexes give the order a day at a time.
  return paginate(query, params, {
    sortColumns: { date: ["ls.date", "ls.start_minute"], createdAt: "ls.created_at" },
    tieBreaker: "ls.id",
    map: toSession,
  });
}

export async function findSession(db: Db, id: string): Promise<Session | undefined> {
  const row = await sessionQuery(db).where("ls.id", "=", id).executeTakeFirst();
  return row && toSession(row);
}

/**
 * The session's row FOR NO KEY UPDATE (the one lock strength of session rows): serializes
 * its changes and its makeup; a makeup referring to it can still be inserted meanwhile.
 */
export async function lockSession(
  trx: Transaction<Database>,
  id: string,
): Promise<SessionRecord | undefined> {
  const row = await trx.selectFrom("lesson_sessions").selectAll().where("id", "=", id)
    .forNoKeyUpdate().executeTakeFirst();
  return row && toSessionRecord(row);
}

export interface SessionUpdate {
  status?: SessionStatus;
  notes?: string | null;
  notesCompletedAt?: Date | null;
  substituteInstructorId?: string | null;
}

export async function updateSession(
  db: Db,
  id: string,
  changes: SessionUpdate,
  now: Date,
): Promise<SessionRecord> {
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
  return toSessionRecord(row);
}

export async function insertMakeupSession(
  db: Db,
  values: {
    id: string;
    original: SessionRecord;
    date: string;
    startMinute: number;
    endMinute: number;
    now: Date;
  },
): Promise<SessionRecord> {
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
  return toSessionRecord(row);
}

/**
 * Another non-cancelled session the instructor teaches or substitutes overlapping in time, with
 * its member's name and lesson type (what a refusal names).
 */
export async function findOverlappingSessionOf(
  db: Db,
  instructorId: string,
  date: string,
  startMinute: number,
  endMinute: number,
  excludeId: string,
) {
  return await db.selectFrom("lesson_sessions as ls")
    .leftJoin("members as m", "m.id", "ls.member_id")
    .leftJoin("schedule_slots as s", "s.id", "ls.slot_id")
    .leftJoin("lesson_types as t", "t.id", "s.lesson_type_id")
    .select([
      "ls.id",
      "ls.start_minute as startMinute",
      "ls.end_minute as endMinute",
      sql<string | null>`m.first_name || ' ' || m.last_name`.as("memberName"),
      "t.name as lessonTypeName",
    ])
    .where("ls.date", "=", date).where("ls.id", "<>", excludeId)
    .where("ls.status", "<>", "cancelled")
    .where((eb) =>
      eb.or([
        eb.and([
          eb("ls.instructor_id", "=", instructorId),
          eb("ls.substitute_instructor_id", "is", null),
        ]),
        eb("ls.substitute_instructor_id", "=", instructorId),
      ])
    )
    .where("ls.start_minute", "<", endMinute).where("ls.end_minute", ">", startMinute)
    .executeTakeFirst();
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

/** Serializes generation runs (each waits for the previous to commit). */
export async function lockSessionGeneration(trx: Transaction<Database>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('lesson_session_generation'))`.execute(trx);
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
