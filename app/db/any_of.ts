/**
 * `column = ANY (ARRAY(subquery))`: the subquery runs first, once (an InitPlan), and its ids
 * become a condition on `column`'s own index. Unlike `IN (subquery)` (a semi-join, which reads
 * every candidate row), it can be OR-ed with other indexed conditions (a BitmapOr for a rare
 * search term), or checked row by row while the planner walks the list's sort order (a common
 * term: it stops after the page). Used by the lists whose `q` spans tables.
 */
import { type Expression, sql } from "kysely";

export function isAnyOf(column: string, ids: Expression<unknown>) {
  return sql<boolean>`${sql.ref(column)} = ANY (ARRAY(${ids}))`;
}
