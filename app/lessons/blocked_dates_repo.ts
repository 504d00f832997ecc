/** SQL of instructors' blocked dates (days without sessions for the instructor's slots). */
import type { Selectable } from "kysely";
import type { Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { hasRow, isoString } from "../db/rows.ts";
import { containsText } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { BlockedDate } from "./lesson_schemas.ts";
import type { InstructorBlockedDateTable } from "./lessons_tables.ts";

function toBlockedDate(row: Selectable<InstructorBlockedDateTable>): BlockedDate {
  return {
    id: row.id,
    instructorId: row.instructor_id,
    date: row.date,
    reason: row.reason,
    createdAt: isoString(row.created_at),
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
  if (params.q) query = query.where(containsText("reason", params.q));
  return paginate(query, params, {
    sortColumns: { date: "date", createdAt: "created_at" },
    tieBreaker: "id",
    map: toBlockedDate,
  });
}

export async function insertBlockedDate(
  db: Db,
  values: { id: string; instructorId: string; date: string; reason: string | null; now: Date },
): Promise<BlockedDate> {
  const row = await db.insertInto("instructor_blocked_dates").values({
    id: values.id,
    instructor_id: values.instructorId,
    date: values.date,
    reason: values.reason,
    created_at: values.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toBlockedDate(row);
}

/** Deletes the instructor's blocked date; the deleted one, or undefined when there was none. */
export async function deleteBlockedDate(
  db: Db,
  instructorId: string,
  id: string,
): Promise<BlockedDate | undefined> {
  const row = await db.deleteFrom("instructor_blocked_dates").where("id", "=", id)
    .where("instructor_id", "=", instructorId).returningAll().executeTakeFirst();
  return row && toBlockedDate(row);
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

/** Every instructor's blocked dates within [from, to] (what session generation skips). */
export function listBlockedDatesBetween(db: Db, from: string, to: string) {
  return db.selectFrom("instructor_blocked_dates")
    .select(["instructor_id as instructorId", "date"])
    .where("date", ">=", from).where("date", "<=", to).execute();
}
