/** SQL of lesson plans with their sections and items. */
import type { Selectable, Transaction } from "kysely";
import type { ItemStatus, PlanStatus } from "../../domain/lessons/plan_progress.ts";
import type { Database, Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { deleteById, isoString } from "../db/rows.ts";
import { containsText } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { PlanItem } from "./lesson_schemas.ts";
import type { LessonPlanItemTable, LessonPlanTable } from "./lessons_tables.ts";

/** A plan's own row, without its sections and items. */
export interface PlanRecord {
  id: string;
  enrollmentId: string;
  title: string;
  status: PlanStatus;
  createdAt: string;
  updatedAt: string;
}

export interface PlanSectionRecord {
  id: string;
  planId: string;
  title: string;
  sortOrder: number;
}

function toPlan(row: Selectable<LessonPlanTable>): PlanRecord {
  return {
    id: row.id,
    enrollmentId: row.enrollment_id,
    title: row.title,
    status: row.status as PlanStatus,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

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
    updatedAt: isoString(row.updated_at),
  };
}

export function listPlanRecords(
  db: Db,
  params: ListParams & { enrollmentId?: string; status?: PlanStatus },
) {
  let query = db.selectFrom("lesson_plans").selectAll();
  if (params.q) query = query.where(containsText("title", params.q));
  if (params.enrollmentId) query = query.where("enrollment_id", "=", params.enrollmentId);
  if (params.status) query = query.where("status", "=", params.status);
  return paginate(query, params, {
    sortColumns: { createdAt: "created_at", title: "title" },
    tieBreaker: "id",
    map: toPlan,
  });
}

export async function findPlanRecord(db: Db, id: string): Promise<PlanRecord | undefined> {
  const row = await db.selectFrom("lesson_plans").selectAll().where("id", "=", id)
    .executeTakeFirst();
  return row && toPlan(row);
}

/**
 * The plan's row FOR NO KEY UPDATE (the one lock strength of plan rows): serializes its
 * changes; sections and items referring to it can still be inserted meanwhile.
 */
export async function lockPlan(
  trx: Transaction<Database>,
  id: string,
): Promise<PlanRecord | undefined> {
  const row = await trx.selectFrom("lesson_plans").selectAll().where("id", "=", id)
    .forNoKeyUpdate().executeTakeFirst();
  return row && toPlan(row);
}

/** Sections and items of several plans at once, ordered for display. */
export async function listPlanContents(db: Db, planIds: readonly string[]): Promise<{
  sections: PlanSectionRecord[];
  items: Array<{ planId: string; item: PlanItem }>;
}> {
  if (planIds.length === 0) return { sections: [], items: [] };
  const [sections, items] = await Promise.all([
    db.selectFrom("lesson_plan_sections").selectAll().where("plan_id", "in", planIds)
      .orderBy("sort_order").orderBy("id").execute(),
    db.selectFrom("lesson_plan_items").selectAll().where("plan_id", "in", planIds)
      .orderBy("sort_order").orderBy("id").execute(),
  ]);
  return {
    sections: sections.map((row) => ({
      id: row.id,
      planId: row.plan_id,
      title: row.title,
      sortOrder: row.sort_order,
    })),
    items: items.map((row) => ({ planId: row.plan_id, item: toPlanItem(row) })),
  };
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

export async function insertPlanSections(db: Db, rows: readonly PlanSectionRecord[]) {
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

/**
 * The plan's item FOR NO KEY UPDATE (the one lock strength of item rows): serializes
 * progress updates of one item; undefined when the item is not part of the plan.
 */
export async function lockPlanItem(
  trx: Transaction<Database>,
  planId: string,
  itemId: string,
): Promise<PlanItem | undefined> {
  const row = await trx.selectFrom("lesson_plan_items").selectAll().where("id", "=", itemId)
    .where("plan_id", "=", planId).forNoKeyUpdate().executeTakeFirst();
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

/** The statuses of a plan's items (what its progress is computed from). */
export async function listPlanItemStatuses(db: Db, planId: string) {
  const rows = await db.selectFrom("lesson_plan_items").select("status")
    .where("plan_id", "=", planId).execute();
  return rows.map((r) => ({ status: r.status as ItemStatus }));
}
