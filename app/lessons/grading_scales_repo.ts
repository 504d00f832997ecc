/** SQL of grading scales and their levels. */
import { type Selectable, sql, type Transaction } from "kysely";
import type { Database, Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { deleteById, hasRow, isoString, touchedAny } from "../db/rows.ts";
import { containsText, LOWERED } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { GradeLevel, GradingScale } from "./lesson_schemas.ts";
import type { GradingScaleLevelTable, GradingScaleTable } from "./lessons_tables.ts";

function toLevel(row: Selectable<GradingScaleLevelTable>): GradeLevel {
  return {
    id: row.id,
    value: row.value,
    label: row.label,
    numericScore: row.numeric_score === null ? null : Number(row.numeric_score),
    color: row.color,
    sortOrder: row.sort_order,
  };
}

/** The levels of several scales, by scale id, in display order. */
async function levelsOf(db: Db, scaleIds: readonly string[]) {
  const byScale = new Map<string, GradeLevel[]>();
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

function toScale(row: Selectable<GradingScaleTable>, levels: GradeLevel[]): GradingScale {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    isDefault: row.is_default,
    levels,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

export async function listGradingScales(db: Db, params: ListParams) {
  let query = db.selectFrom("grading_scales").selectAll();
  if (params.q) query = query.where(containsText(sql`lower(name)`, params.q, LOWERED));
  const page = await paginate(query, params, {
    sortColumns: { name: "name", createdAt: "created_at" },
    tieBreaker: "id",
    map: (row: Selectable<GradingScaleTable>) => row,
  });
  const levels = await levelsOf(db, page.data.map((s) => s.id));
  return { ...page, data: page.data.map((s) => toScale(s, levels.get(s.id) ?? [])) };
}

/** Every scale with its levels, unpaginated, the default first (for dropdowns). */
export async function listGradingScaleLookup(db: Db) {
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

/** Serializes changes of which scale is the default (a transaction-scoped advisory lock). */
export async function lockDefaultScale(trx: Transaction<Database>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('grading_scale_default'))`.execute(trx);
}

/**
 * The scale's row FOR UPDATE (the one lock strength of scale rows: a locked scale may be
 * deleted); undefined when missing.
 */
export async function lockGradingScale(
  trx: Transaction<Database>,
  id: string,
): Promise<{ id: string; isDefault: boolean } | undefined> {
  const row = await trx.selectFrom("grading_scales").select(["id", "is_default"])
    .where("id", "=", id).forUpdate().executeTakeFirst();
  return row && { id: row.id, isDefault: row.is_default };
}

export async function hasDefaultScale(db: Db): Promise<boolean> {
  return await hasRow(
    db.selectFrom("grading_scales").select("id").where("is_default", "=", true),
  );
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

export async function hasGradeLevel(db: Db, id: string): Promise<boolean> {
  return await hasRow(db.selectFrom("grading_scale_levels").select("id").where("id", "=", id));
}

/** A scale's levels: their ids by value. */
export async function listLevelIds(
  db: Db,
  scaleId: string,
): Promise<Array<{ id: string; value: string }>> {
  return await db.selectFrom("grading_scale_levels").select(["id", "value"])
    .where("scale_id", "=", scaleId).execute();
}

export interface LevelValues {
  label: string;
  numericScore: number | null;
  color: string | null;
  sortOrder: number;
}

export async function insertLevels(
  db: Db,
  rows: ReadonlyArray<LevelValues & { id: string; scaleId: string; value: string }>,
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

export async function updateLevel(db: Db, id: string, values: LevelValues) {
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
