/**
 * One query per page: the rows and, through `count(*) OVER ()`, the total. Only a page past
 * the end (no rows) needs a second query to learn the total.
 */
import { type SelectQueryBuilder, sql } from "kysely";
import type { ListParams } from "../schemas.ts";

export interface Page<T> {
  data: T[];
  pagination: { page: number; limit: number; total: number; totalPages: number };
}

export async function paginate<DB, TB extends keyof DB, O, T>(
  query: SelectQueryBuilder<DB, TB, O>,
  params: ListParams,
  options: {
    /** Sort field → column or SQL expression text it orders by (allow-listed by the schema). */
    sortColumns: Record<string, string>;
    /** Unique column that makes the order total (`products.id`). */
    tieBreaker: string;
    map: (row: O) => T;
  },
): Promise<Page<T>> {
  const column = options.sortColumns[params.sort];
  if (!column) throw new Error(`No sort column for "${params.sort}"`);
  const direction = params.order === "desc" ? sql`DESC` : sql`ASC`;
  const rows = await query
    .select(sql<number>`count(*) OVER ()`.as("__total"))
    .orderBy(sql`${sql.ref(column)} ${direction} NULLS LAST`)
    .orderBy(sql`${sql.ref(options.tieBreaker)} ${direction}`)
    .limit(params.limit)
    .offset((params.page - 1) * params.limit)
    .execute() as Array<O & { __total: number }>;
  let total = rows[0] ? Number(rows[0].__total) : 0;
  if (rows.length === 0 && params.page > 1) {
    const counted = await query.clearSelect()
      .select(sql<number>`count(*)`.as("n"))
      .executeTakeFirst() as { n: number } | undefined;
    total = Number(counted?.n ?? 0);
  }
  return {
    data: rows.map(({ __total: _, ...row }) => options.map(row as O)),
    pagination: {
      page: params.page,
      limit: params.limit,
      total,
      totalPages: Math.ceil(total / params.limit),
    },
  };
}
