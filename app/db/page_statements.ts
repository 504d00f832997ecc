/**
 * How connect.ts tells a list's page statement from its text, to choose how PostgreSQL plans
 * it (see there): a page query (it selects `__total`, app/db/pagination.ts) is planned for its
 * values on every run, unless its list plans it once (`IdsList.planOnce`), which its text
 * starts by saying.
 */

/** What starts the text of a page query whose list plans it once. */
const PLAN_ONCE_MARK = "/* plan once */ ";

/** Whether `sqlText` is a page query (it selects `__total`). */
export function isPageQuery(sqlText: string): boolean {
  return sqlText.includes(`as "__total"`);
}

/** Whether `sqlText` is a page query its list plans once (`markPlannedOnce`). */
export function isPlannedOnce(sqlText: string): boolean {
  return sqlText.startsWith(PLAN_ONCE_MARK);
}

/** `sqlText`, marked as planned once. */
export function markPlannedOnce(sqlText: string): string {
  return PLAN_ONCE_MARK + sqlText;
}
