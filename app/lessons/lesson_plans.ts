/** Use cases of lesson plans: nested creation, one active plan per enrollment, progress. */
import {
  ConflictError,
  ForbiddenError,
  InvalidReferenceError,
  NotFoundError,
} from "../../domain/errors.ts";
import {
  itemDatesAfter,
  type ItemStatus,
  type PlanStatus,
  progressPercent,
} from "../../domain/lessons/plan_progress.ts";
import type { Actor } from "../auth/actor.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { isUniqueViolation } from "../db/db_errors.ts";
import { withTransaction } from "../db/transaction.ts";
import type { ListParams } from "../schemas.ts";
import {
  deletePlan,
  findPlanItem,
  findPlanRow,
  gradeLevelExists,
  insertPlan,
  insertPlanItems,
  insertPlanSections,
  listPlanContents,
  listPlanRows,
  lockEnrollment,
  planItemStatuses,
  type PlanRow,
  slotIsTaughtByUser,
  updatePlan,
  updatePlanItem,
} from "./lessons_repo.ts";
import type { Plan, PlanItem } from "./lesson_schemas.ts";
import { storeToday } from "./lesson_types.ts";

const ACTIVE_PLAN_INDEX = "lesson_plans_one_active_key";

function planAlreadyActive(enrollmentId: string): ConflictError {
  return new ConflictError(
    "plan_already_active",
    `Enrollment "${enrollmentId}" already has an active lesson plan`,
  );
}

/** Plans with their sections and items, loaded in two queries whatever the count. */
async function assemblePlans(db: Db, rows: readonly PlanRow[]): Promise<Plan[]> {
  const { sections, items } = await listPlanContents(db, rows.map((r) => r.id));
  const itemsBySection = new Map<string, PlanItem[]>();
  const itemsByPlan = new Map<string, PlanItem[]>();
  for (const { planId, item } of items) {
    itemsBySection.set(item.sectionId, [...(itemsBySection.get(item.sectionId) ?? []), item]);
    itemsByPlan.set(planId, [...(itemsByPlan.get(planId) ?? []), item]);
  }
  return rows.map((row) => ({
    id: row.id,
    enrollmentId: row.enrollment_id,
    title: row.title,
    status: row.status as PlanStatus,
    progressPercent: progressPercent(itemsByPlan.get(row.id) ?? []),
    sections: sections.filter((s) => s.plan_id === row.id).map((s) => ({
      id: s.id,
      title: s.title,
      sortOrder: s.sort_order,
      items: itemsBySection.get(s.id) ?? [],
    })),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }));
}

export async function getPlan(db: Db, id: string): Promise<Plan> {
  const row = await findPlanRow(db, id);
  if (!row) throw new NotFoundError(`Lesson plan "${id}" does not exist`);
  return (await assemblePlans(db, [row]))[0]!;
}

export async function listPlans(
  db: Db,
  params: ListParams & { enrollmentId?: string; status?: PlanStatus },
) {
  const page = await listPlanRows(db, params);
  return { ...page, data: await assemblePlans(db, page.data) };
}

export interface CreatePlanInput {
  title: string;
  status?: PlanStatus;
  sections: Array<{
    title: string;
    sortOrder?: number;
    items: Array<{ title: string; description?: string | null; sortOrder?: number }>;
  }>;
}

/** Creates a plan with its sections and items in one transaction. */
export async function createPlan(
  deps: AppDeps,
  enrollmentId: string,
  input: CreatePlanInput,
): Promise<Plan> {
  return await withTransaction(deps.db, async (trx) => {
    if (!(await lockEnrollment(trx, enrollmentId))) {
      throw new NotFoundError(`Enrollment "${enrollmentId}" does not exist`);
    }
    const status = input.status ?? "active";
    const planId = deps.ids.uuid();
    const now = deps.clock.now();
    try {
      await insertPlan(trx, { id: planId, enrollmentId, title: input.title, status, now });
    } catch (error) {
      if (isUniqueViolation(error, ACTIVE_PLAN_INDEX)) throw planAlreadyActive(enrollmentId);
      throw error;
    }
    const sections = input.sections.map((section, index) => ({
      id: deps.ids.uuid(),
      planId,
      title: section.title,
      sortOrder: section.sortOrder ?? index,
      items: section.items,
    }));
    await insertPlanSections(trx, sections);
    await insertPlanItems(
      trx,
      sections.flatMap((section) =>
        section.items.map((item, index) => ({
          id: deps.ids.uuid(),
          planId,
          sectionId: section.id,
          title: item.title,
          description: item.description ?? null,
          sortOrder: item.sortOrder ?? index,
        }))
      ),
      now,
    );
    return await getPlan(trx, planId);
  });
}

export async function changePlan(
  deps: AppDeps,
  id: string,
  changes: { title?: string; status?: PlanStatus },
): Promise<Plan> {
  return await withTransaction(deps.db, async (trx) => {
    const row = await findPlanRow(trx, id, true);
    if (!row) throw new NotFoundError(`Lesson plan "${id}" does not exist`);
    try {
      await updatePlan(trx, id, changes, deps.clock.now());
    } catch (error) {
      if (isUniqueViolation(error, ACTIVE_PLAN_INDEX)) throw planAlreadyActive(row.enrollment_id);
      throw error;
    }
    return await getPlan(trx, id);
  });
}

export async function removePlan(deps: AppDeps, id: string): Promise<void> {
  if (!(await deletePlan(deps.db, id))) {
    throw new NotFoundError(`Lesson plan "${id}" does not exist`);
  }
}

/**
 * Records an item's progress. lessons.edit may update any plan; a lessons.teach user only
 * plans whose enrollment is in a slot they teach.
 */
export async function changePlanItem(
  deps: AppDeps,
  actor: Actor,
  planId: string,
  itemId: string,
  changes: { status?: ItemStatus; gradeLevelId?: string | null; notes?: string | null },
) {
  return await withTransaction(deps.db, async (trx) => {
    const plan = await findPlanRow(trx, planId);
    if (!plan) throw new NotFoundError(`Lesson plan "${planId}" does not exist`);
    const item = await findPlanItem(trx, planId, itemId, true);
    if (!item) throw new NotFoundError(`Item "${itemId}" is not part of plan "${planId}"`);
    if (!actor.permissions.has("lessons.edit")) {
      const enrollment = await lockEnrollment(trx, plan.enrollment_id);
      if (!enrollment || !(await slotIsTaughtByUser(trx, enrollment.slot_id, actor.userId))) {
        throw new ForbiddenError("forbidden", "You can only update plans of lessons you teach");
      }
    }
    if (changes.gradeLevelId && !(await gradeLevelExists(trx, changes.gradeLevelId))) {
      throw new InvalidReferenceError(
        "gradeLevelId",
        `Grade level "${changes.gradeLevelId}" does not exist`,
      );
    }
    const dates = changes.status !== undefined && changes.status !== item.status
      ? itemDatesAfter(changes.status, item, await storeToday(deps, trx))
      : {};
    const updated = await updatePlanItem(trx, itemId, { ...changes, ...dates }, deps.clock.now());
    return {
      ...updated,
      planId,
      planProgressPercent: progressPercent(await planItemStatuses(trx, planId)),
    };
  });
}
