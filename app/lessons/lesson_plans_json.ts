/** The response JSON of lesson plans: each plan with its sections, items and progress. */
import { progressPercent } from "../../domain/lessons/plan_progress.ts";
import type { PlanRecord, PlanSectionRecord } from "./lesson_plans_repo.ts";
import type { Plan, PlanItem } from "./lesson_schemas.ts";

/** Plans (in their order) with their sections and items (each in display order). */
export function plansJson(
  plans: readonly PlanRecord[],
  contents: {
    sections: readonly PlanSectionRecord[];
    items: ReadonlyArray<{ planId: string; item: PlanItem }>;
  },
): Plan[] {
  const itemsBySection = new Map<string, PlanItem[]>();
  const itemsByPlan = new Map<string, PlanItem[]>();
  for (const { planId, item } of contents.items) {
    itemsBySection.set(item.sectionId, [...(itemsBySection.get(item.sectionId) ?? []), item]);
    itemsByPlan.set(planId, [...(itemsByPlan.get(planId) ?? []), item]);
  }
  return plans.map((plan) => ({
    id: plan.id,
    enrollmentId: plan.enrollmentId,
    title: plan.title,
    status: plan.status,
    progressPercent: progressPercent(itemsByPlan.get(plan.id) ?? []),
    sections: contents.sections.filter((s) => s.planId === plan.id).map((s) => ({
      id: s.id,
      title: s.title,
      sortOrder: s.sortOrder,
      items: itemsBySection.get(s.id) ?? [],
    })),
    createdAt: plan.createdAt,
    updatedAt: plan.updatedAt,
  }));
}
