/** Lesson plan item progress and the plan's progress percentage (API §10). */

export const PLAN_STATUSES = ["active", "completed", "archived"] as const;
export type PlanStatus = typeof PLAN_STATUSES[number];

export const ITEM_STATUSES = ["not_started", "in_progress", "mastered", "skipped"] as const;
export type ItemStatus = typeof ITEM_STATUSES[number];

/** mastered ÷ non-skipped items × 100, rounded to an integer; 0 when no item counts. */
export function progressPercent(items: ReadonlyArray<{ status: ItemStatus }>): number {
  const counted = items.filter((item) => item.status !== "skipped");
  if (counted.length === 0) return 0;
  const mastered = counted.filter((item) => item.status === "mastered").length;
  return Math.round((mastered / counted.length) * 100);
}

export interface ItemDates {
  startedDate: string | null;
  masteredDate: string | null;
}

/**
 * The item's dates after moving it to `status` on `today`: in_progress sets startedDate
 * (kept when already set) and clears masteredDate; mastered sets masteredDate and
 * startedDate when empty; not_started clears both; skipped keeps them.
 */
export function itemDatesAfter(status: ItemStatus, current: ItemDates, today: string): ItemDates {
  switch (status) {
    case "in_progress":
      return { startedDate: current.startedDate ?? today, masteredDate: null };
    case "mastered":
      return {
        startedDate: current.startedDate ?? today,
        masteredDate: current.masteredDate ?? today,
      };
    case "not_started":
      return { startedDate: null, masteredDate: null };
    case "skipped":
      return { startedDate: current.startedDate, masteredDate: current.masteredDate };
  }
}
