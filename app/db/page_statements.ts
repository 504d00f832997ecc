/**
 * How connect.ts tells a list's page statement from its text, to choose how PostgreSQL plans
 * it (see there): a page query (it selects `__total`, app/db/pagination.ts) is planned for its
 * values on every run, unless its list plans it once (`PageOptions.planOnce`), which its text
 * starts by saying.
 */

import { CompiledQuery } from "kysely";

/** What starts the text of a page query whose list plans it once. */
const PLAN_ONCE_MARK = "/* plan once */ ";

/** Whether `sqlText` is a page query (it selects `__total`). */
export function isPageQuery(sqlText: string): boolean {
  return sqlText.includes(`as "__total"`);
}

/** Whether `sqlText` is a page query its list plans once (marked by `plannedOnceIf`). */
export function isPlannedOnce(sqlText: string): boolean {
  return sqlText.startsWith(PLAN_ONCE_MARK);
}

/** `compiled`, marked as planned once when its list says so (`PageOptions.planOnce`). */
export function plannedOnceIf<R>(
  options: { planOnce?: boolean },
  compiled: CompiledQuery<R>,
): CompiledQuery<R> {
  if (!options.planOnce) return compiled;
  const marked = CompiledQuery.raw(PLAN_ONCE_MARK + compiled.sql, [...compiled.parameters]);
  return marked as CompiledQuery<R>;
}
