/** Use cases of lesson plans: nested creation, one active plan per enrollment, progress. */
import { ConflictError, InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import {
  itemDatesAfter,
  type ItemStatus,
  type PlanStatus,
  progressPercent,
} from "../../domain/lessons/plan_progress.ts";
import { assertMayRecordProgress } from "../../domain/lessons/teaching.ts";
import type { Actor } from "../actor.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { isUniqueViolation } from "../db/db_errors.ts";
import { withTransaction } from "../db/transaction.ts";
import type { ListParams } from "../schemas.ts";
import { findEnrollmentInstructorId, lockEnrollment } from "./enrollments_repo.ts";
import { hasGradeLevel } from "./grading_scales_repo.ts";
import { teachingInstructorIds } from "./instructors.ts";
import { plansJson } from "./lesson_plans_json.ts";
import {
  deletePlan,
  findPlanRecord,
  insertPlan,
  insertPlanItems,
  insertPlanSections,
  listPlanContents,
  listPlanItemStatuses,
  listPlanRecords,
  lockPlan,
  lockPlanItem,
  type PlanRecord,
  updatePlan,
  updatePlanItem,
} from "./lesson_plans_repo.ts";
import type { Plan, PlanItem } from "./lesson_schemas.ts";
import { storeToday } from "../platform/store.ts";

const ACTIVE_PLAN_INDEX = "lesson_plans_one_active_key";

function notFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Lesson plan "${id}" does not exist`);
}

function planAlreadyActive(enrollmentId: string): ConflictError {
  return new ConflictError(
    "plan_already_active",
    `Enrollment "${enrollmentId}" already has an active lesson plan`,
  );
}

/** Plans with their sections and items, loaded in two queries whatever the count. */
async function withContents(db: Db, plans: readonly PlanRecord[]): Promise<Plan[]> {
  return plansJson(plans, await listPlanContents(db, plans.map((p) => p.id)));
}

export async function requirePlan(db: Db, id: string): Promise<Plan> {
  const plan = await findPlanRecord(db, id);
  if (!plan) throw notFound(id);
  return (await withContents(db, [plan]))[0]!;
}

export async function listPlans(
  db: Db,
  params: ListParams & { enrollmentId?: string; status?: PlanStatus },
) {
  const page = await listPlanRecords(db, params);
  return { ...page, data: await withContents(db, page.data) };
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
      throw new NotFoundError("not_found", `Enrollment "${enrollmentId}" does not exist`);
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
    return await requirePlan(trx, planId);
  });
}

/** Making a second plan of the enrollment active → 409 `plan_already_active`. */
export async function changePlan(
  deps: AppDeps,
  id: string,
  changes: { title?: string; status?: PlanStatus },
): Promise<Plan> {
  return await withTransaction(deps.db, async (trx) => {
    const plan = await lockPlan(trx, id);
    if (!plan) throw notFound(id);
    try {
      await updatePlan(trx, id, changes, deps.clock.now());
    } catch (error) {
      if (isUniqueViolation(error, ACTIVE_PLAN_INDEX)) throw planAlreadyActive(plan.enrollmentId);
      throw error;
    }
    return await requirePlan(trx, id);
  });
}

export async function removePlan(deps: AppDeps, id: string): Promise<void> {
  if (!(await deletePlan(deps.db, id))) throw notFound(id);
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
): Promise<PlanItem & { planId: string; planProgressPercent: number }> {
  return await withTransaction(deps.db, async (trx) => {
    const plan = await findPlanRecord(trx, planId);
    if (!plan) throw notFound(planId);
    const item = await lockPlanItem(trx, planId, itemId);
    if (!item) {
      throw new NotFoundError("not_found", `Item "${itemId}" is not part of plan "${planId}"`);
    }
    assertMayRecordProgress(
      actor.permissions,
      await teachingInstructorIds(trx, actor),
      await findEnrollmentInstructorId(trx, plan.enrollmentId),
    );
    if (changes.gradeLevelId && !(await hasGradeLevel(trx, changes.gradeLevelId))) {
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
      planProgressPercent: progressPercent(await listPlanItemStatuses(trx, planId)),
    };
  });
}
