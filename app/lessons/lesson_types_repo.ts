/** SQL of lesson types, and the rate preset columns they share with schedule slots. */
import { type Selectable, sql } from "kysely";
import type { Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { deleteById, isoString } from "../db/rows.ts";
import { containsText, LOWERED } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { LessonType, RatePresets } from "./lesson_schemas.ts";
import type { LessonTypeTable } from "./lessons_tables.ts";

/** The `rate_*` columns of a lesson type or slot row as rate presets. */
export function ratePresetsOf(row: {
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

function toLessonType(row: Selectable<LessonTypeTable>): LessonType {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    durationMinutes: row.duration_minutes,
    ratePresets: ratePresetsOf(row),
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

export function listLessonTypes(db: Db, params: ListParams) {
  let query = db.selectFrom("lesson_types").selectAll();
  if (params.q) query = query.where(containsText(sql`lower(name)`, params.q, LOWERED));
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

export interface LessonTypeValues {
  name: string;
  description: string | null;
  durationMinutes: number;
  ratePresets?: Partial<RatePresets>;
}

export async function insertLessonType(
  db: Db,
  values: LessonTypeValues & { id: string; now: Date },
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
  changes: Partial<LessonTypeValues>,
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
