/**
 * One query per page: the rows and, through `count(*) OVER ()`, the total. Only a page past
 * the end (no rows) needs a second query to learn the total.
 */
import { CompiledQuery, type SelectQueryBuilder, sql } from "kysely";
import type { ListParams } from "../schemas.ts";
import type { Db } from "./database.ts";

export interface Page<T> {
  data: T[];
  pagination: { page: number; limit: number; total: number; totalPages: number };
}

export interface PageOptions<O, T> {
  /** Sort field → column or SQL expression text it orders by (allow-listed by the schema). */
  sortColumns: Record<string, string>;
  /** Unique column that makes the order total (`products.id`). */
  tieBreaker: string;
  map: (row: O) => T;
}

type CountedRow<O> = O & { __total: number };

/**
 * Whether `sqlText` is a page query (it selects the window count as `__total`). Lists take
 * arbitrary filter and search values, so the PostgreSQL dialect plans them for their values
 * on every run (app/db/connect.ts) rather than reusing a cached generic plan.
 */
export function isPageQuery(sqlText: string): boolean {
  return sqlText.includes(`count(*) OVER () as "__total"`);
}

/** The page's query: the total as a window count, the sort with its tie-breaker, the slice. */
function pageQuery<DB, TB extends keyof DB, O, T>(
  query: SelectQueryBuilder<DB, TB, O>,
  params: ListParams,
  options: PageOptions<O, T>,
) {
  const column = options.sortColumns[params.sort];
  if (!column) throw new Error(`No sort column for "${params.sort}"`);
  const direction = params.order === "desc" ? sql`DESC` : sql`ASC`;
  return query
    .select(sql<number>`count(*) OVER ()`.as("__total"))
    .orderBy(sql`${sql.ref(column)} ${direction} NULLS LAST`)
    .orderBy(sql`${sql.ref(options.tieBreaker)} ${direction}`)
    .limit(params.limit)
    .offset((params.page - 1) * params.limit);
}

/**
 * The total of a page query's rows (their window count); a page past the end has none, so
 * only then `unpaged` (the query without its page) is counted apart.
 */
export async function pageTotal(
  rows: ReadonlyArray<{ __total: number | string }>,
  params: ListParams,
  // deno-lint-ignore no-explicit-any
  unpaged: () => SelectQueryBuilder<any, any, any>,
): Promise<number> {
  if (rows[0]) return Number(rows[0].__total);
  if (params.page === 1) return 0;
  const counted = await unpaged().clearSelect().select(sql<number>`count(*)`.as("n"))
    .executeTakeFirst() as { n: number } | undefined;
  return Number(counted?.n ?? 0);
}

/** A page of `data` with its pagination block. */
export function pageOf<T>(data: T[], params: ListParams, total: number): Page<T> {
  return {
    data,
    pagination: {
      page: params.page,
      limit: params.limit,
      total,
      totalPages: Math.ceil(total / params.limit),
    },
  };
}

/** Maps the rows into a page (the total as {@link pageTotal} finds it). */
async function toPage<DB, TB extends keyof DB, O, T>(
  rows: CountedRow<O>[],
  params: ListParams,
  unpaged: () => SelectQueryBuilder<DB, TB, O>,
  map: (row: O) => T,
): Promise<Page<T>> {
  const total = await pageTotal(rows, params, unpaged);
  return pageOf(rows.map(({ __total: _, ...row }) => map(row as O)), params, total);
}

export async function paginate<DB, TB extends keyof DB, O, T>(
  query: SelectQueryBuilder<DB, TB, O>,
  params: ListParams,
  options: PageOptions<O, T>,
): Promise<Page<T>> {
  const rows = await pageQuery(query, params, options).execute() as CountedRow<O>[];
  return toPage(rows, params, () => query, options.map);
}

/** Compiled SQL per query shape, for `paginateByShape()`: one map per list query. */
export type ShapeMemo = Map<string, string>;

/**
 * `paginate()` for hot list endpoints: the SQL of each query shape is compiled once and then
 * reused with the request's values, which skips Kysely's query building and compiling
 * (about 20 µs and a few hundred short-lived objects per request).
 *
 * `shape` must determine the SQL text completely (which filters are present and any choice
 * that changes the text; sort and order are added here), and `values` must list the query's
 * parameters in order, without the page's limit and offset (which come last). The first
 * request of a shape builds and compiles the query and compares its parameters with
 * `[...values, limit, offset]`: the SQL is remembered only when they are identical, so a
 * wrong `values` list costs speed, never correctness. Same result as `paginate()`.
 */
export async function paginateByShape<DB, TB extends keyof DB, O, T>(
  db: Db,
  memo: ShapeMemo,
  shape: string,
  values: readonly unknown[],
  build: () => SelectQueryBuilder<DB, TB, O>,
  params: ListParams,
  options: PageOptions<O, T>,
): Promise<Page<T>> {
  const parameters = [...values, params.limit, (params.page - 1) * params.limit];
  const key = `${shape}|${params.sort}|${params.order}`;
  const known = memo.get(key);
  let rows: CountedRow<O>[];
  if (known !== undefined) {
    rows = (await db.executeQuery<CountedRow<O>>(CompiledQuery.raw(known, parameters))).rows;
  } else {
    const compiled = pageQuery(build(), params, options).compile();
    const same = compiled.parameters.length === parameters.length &&
      compiled.parameters.every((value, i) => value === parameters[i]);
    if (same && memo.size < MAX_SHAPES) memo.set(key, compiled.sql);
    rows = (await db.executeQuery(compiled)).rows as CountedRow<O>[];
  }
  return toPage(rows, params, build, options.map);
}

/** Shapes are few (filters present × sort × order); this only bounds a mistake. */
const MAX_SHAPES = 4096;
