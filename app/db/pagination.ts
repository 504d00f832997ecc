/**
 * One query per page: the rows and, in the same statement, their total, counted exactly up to
 * {@link EXACT_TOTAL_CAP} rows. Only a page past the end (no rows) needs a second query to
 * learn the total.
 *
 * Why a cap: an exact total reads every matching row, so the default screen of a list (no
 * filter, first page) would cost in proportion to the table: ~150 ms at 160,000 sales with a
 * `count(*) OVER ()`, about a second at a million. Counting stops one row past the cap, so a
 * page costs the same at any size. Above the cap, the total is the planner's estimate of the
 * matching rows (an `EXPLAIN` of the list's query, from the table statistics) and
 * `pagination.totalExact` is false; `total` and `totalPages` are always present.
 *
 * A search (`q`, or a filter the list marks with `readMatchesOnce`) reads its matches once (see
 * {@link matchedPage}): no index returns them in the list's order, so the page has to read them
 * all anyway; the first cap + 1, only ids and sort keys, are kept and counted, and when that is
 * all of them the page is sorted out of those. Counted and paged apart, a search finding a few
 * hundred products went through the trigram index and the rows twice (or, when the planner
 * expected a handful of matches, walked the name index for the page, reading thousands of
 * rows): 1,534 against 2,904 statements a second read once. Other filters keep the page along
 * an index in the list's order and count apart (index-only), which is cheaper there: the 2,000
 * tickets ready for pickup, 3,617 statements a second that way against 1,579 read once.
 *
 * Counting up to the cap still reads 10,001 rows (2–100 ms), so a list found to exceed it is
 * remembered with its estimate for a minute (`LARGE_LISTS`): its next pages are one statement
 * without a count.
 */
import { CompiledStatements } from "./compiled.ts";
import { knownLarge, rememberLarge } from "./large_lists.ts";
import { plannedOnceIf } from "./page_statements.ts";
import { withoutUnusedLeftJoins } from "./unused_joins.ts";
import {
  type Compilable,
  CompiledQuery,
  type RawBuilder,
  type SelectQueryBuilder,
  sql,
} from "kysely";
import type { ListParams } from "../schemas.ts";
import type { Db } from "./database.ts";

export interface Page<T> {
  data: T[];
  pagination: {
    page: number;
    limit: number;
    total: number;
    totalPages: number;
    /** False when `total` is an estimate (more than {@link EXACT_TOTAL_CAP} rows match). */
    totalExact: boolean;
  };
}

/** Totals are exact up to this many matching rows; above it they are estimates. */
export const EXACT_TOTAL_CAP = 10_000;

// deno-lint-ignore no-explicit-any
type AnySelect = SelectQueryBuilder<any, any, any>;

export interface PageOptions<O, T> {
  /**
   * Sort field → the column (or SQL expression text) it orders by, or the columns in turn
   * (allow-listed by the schema).
   */
  sortColumns: Record<string, string | readonly string[]>;
  /**
   * Sort fields whose column may be NULL: their NULLs sort last in both directions. Only
   * those get `NULLS LAST`: on a NOT NULL column it changes nothing, yet a `DESC NULLS LAST`
   * cannot walk an ascending btree backwards, so it would sort the whole table for one page.
   */
  nullableSorts?: readonly string[];
  /** Unique column that makes the order total (`products.id`). */
  tieBreaker: string;
  /**
   * A filter is present whose matches no index returns in the list's order (ids from another
   * table, say), so the page reads them once (see the top). A search (`q`) always does.
   */
  readMatchesOnce?: boolean;
  /**
   * The page statement plans the same for any value, so PostgreSQL may plan it once per
   * session and keep it (app/db/connect.ts): a search whose matches come from trigram indexes
   * (through `= ANY(ARRAY(...))`, app/db/any_of.ts, or read once, as a search always is).
   * Planning the ticket search cost four times running it. Each list that sets it has a plan
   * test of the kept plan. It marks the statement's text, so a memoized list's shape must tell
   * it apart (lists set it from `q`, which their shape names).
   */
  planOnce?: boolean;
  /**
   * The same rows written to stop after a page: `paginate()` pages it for a list known to be
   * large (nothing counted), `query` otherwise (the sales' common term, transactions_repo.ts).
   */
  walk?: AnySelect;
  map: (row: O) => T;
}

/** What orders a page (the options without the row mapping). */
type PageSort = Pick<
  PageOptions<unknown, unknown>,
  "sortColumns" | "nullableSorts" | "tieBreaker" | "readMatchesOnce" | "planOnce"
>;

/**
 * Whether a counted page reads its matches once ({@link matchedPage}); see the top. Only when
 * every sort key names its table (`p.name`): a bare name may be one of the select list's own
 * columns (`week_minute`, an expression), which the matches' narrower select does not have.
 */
function readsMatchesOnce(params: Pick<ListParams, "q" | "sort">, sort: PageSort): boolean {
  return (params.q !== undefined || sort.readMatchesOnce === true) &&
    sortKeys(params, sort).every((key) => key.includes("."));
}

type CountedRow<O> = O & { __total: number | null };

/** The rows of `unpaged` as a `SELECT 1 ...` without order, e.g. to count or estimate them. */
function rowsOf(unpaged: AnySelect): AnySelect {
  return unpaged.clearSelect().clearOrderBy().select(sql`1`.as("one"));
}

/**
 * The `__total` column of a page query: the rows of `unpaged` counted up to one past the cap.
 * An uncorrelated subquery, so PostgreSQL runs it once per statement (an InitPlan).
 */
function cappedTotal(unpaged: AnySelect) {
  return cappedCount(unpaged).as("__total");
}

function cappedCount(unpaged: AnySelect) {
  // Joins for the page's columns only: without them the count may be index-only.
  const counted = withoutUnusedLeftJoins(rowsOf(unpaged)).limit(EXACT_TOTAL_CAP + 1);
  return sql<number>`(SELECT count(*) FROM (${counted}) AS counted_rows)`;
}

/** The `__total` column of a page of a list known to exceed the cap: nothing to count. */
const UNCOUNTED = sql<number | null>`NULL::bigint`.as("__total");

/** The key of `unpaged` in LARGE_LISTS: its rows' statement with its values. */
function listKey(unpaged: AnySelect): string {
  const compiled = rowsOf(unpaged).compile();
  return `${compiled.sql}\u0000${JSON.stringify(compiled.parameters)}`;
}

/**
 * How a page gets its total: counted in its statement, or (a list known to be large, by its
 * `key` in LARGE_LISTS, e.g. {@link listKey}) its remembered estimate; and so how its
 * statement reads the rows (`counting`, see the top).
 */
interface TotalPlan {
  key: string;
  estimate?: number;
  /**
   * `estimated`: the page alone, along the sort; `once`: the matches read once and counted
   * ({@link matchedPage}); `alongSort`: the page along the sort and the capped count apart.
   */
  counting: "estimated" | "once" | "alongSort";
}

function totalPlan(key: string, params: ListParams, sort: PageSort): TotalPlan {
  const estimate = knownLarge(key);
  const counting = estimate !== undefined
    ? "estimated"
    : readsMatchesOnce(params, sort)
    ? "once"
    : "alongSort";
  return { key, estimate, counting };
}

/** The columns a page is sorted on: the sort field's column(s), then the tie-breaker. */
function sortKeys(params: Pick<ListParams, "sort">, options: PageSort): string[] {
  const columns = options.sortColumns[params.sort];
  if (!columns) throw new Error(`No sort column for "${params.sort}"`);
  return [...(typeof columns === "string" ? [columns] : columns), options.tieBreaker];
}

/** The ORDER BY of a page: the sort field's column, then the tie-breaker, same direction. */
function pageOrder(params: Pick<ListParams, "sort" | "order">, options: PageSort) {
  return keyOrder(params, options, sortKeys(params, options));
}

/** `keys` in the page's direction (NULLS LAST on a nullable sort field's first column). */
function keyOrder(
  params: Pick<ListParams, "sort" | "order">,
  options: PageSort,
  keys: readonly string[],
) {
  const direction = params.order === "desc" ? sql`DESC` : sql`ASC`;
  const nulls = options.nullableSorts?.includes(params.sort) ? sql` NULLS LAST` : sql``;
  return sql.join(
    keys.map((key, i) => sql`${sql.ref(key)} ${direction}${i === 0 ? nulls : sql``}`),
  );
}

/**
 * The page's query: the page's rows of `query` (chosen by {@link matchedPage}, or along the
 * sort when the list is known to be large) with their total, in order.
 */
function pageQuery<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  params: ListParams,
  options: PageSort,
  total: TotalPlan,
) {
  const order = pageOrder(params, options);
  if (total.counting !== "once") {
    const totalColumn = total.counting === "alongSort"
      ? cappedTotal(query as AnySelect)
      : UNCOUNTED;
    return query.select(totalColumn).orderBy(order).limit(params.limit)
      .offset(pageOffset(params));
  }
  // The page's ids passed the filters already: its rows are fetched by id (filters left in
  // place could be planned as another pass over the matches, joined to the page).
  const page = matchedPage(query as AnySelect, options.tieBreaker, params, options);
  return (query.clearWhere() as AnySelect)
    .innerJoin(page.as("pg"), (join) => join.onRef("pg.__id", "=", options.tieBreaker))
    .select(sql`pg.__total`.as("__total"))
    .orderBy(order) as unknown as SelectQueryBuilder<DB, TB, O>;
}

/**
 * The page of `unpaged`'s rows (their `idColumn`, as `__id`) with the list's capped total
 * (`__total`), reading the matches once: their first cap + 1 rows, only id and sort keys, are
 * materialized and counted; at or under the cap that is every match, and the page is sorted
 * out of them. Past the cap they are not all there: the UNION's other branch, which PostgreSQL
 * runs only then (a one-time filter on the count), pages `unpaged` along its sort.
 *
 * The page size is in the text (one statement per size, see `shapedPage`): planned once for a
 * bound `LIMIT`, a page of overdue rentals was expected to hold a tenth of the matches, and the
 * whole rentals table was hashed to join the page's 25 ids to their rows (35-58 ms, not 1 ms).
 */
function matchedPage(unpaged: AnySelect, idColumn: string, params: ListParams, sort: PageSort) {
  const keys = sortKeys(params, sort);
  const keyNames = keys.map((_, i) => `__s${i}`);
  const keyed = unpaged.clearSelect().clearOrderBy().select([
    sql.ref(idColumn).as("__id"),
    ...keys.map((key, i) => sql.ref(key).as(keyNames[i]!)),
  ]);
  const cap = sql.lit(EXACT_TOTAL_CAP);
  const offset = pageOffset(params);
  const size = sql.lit(params.limit);
  const fromMatches = sql`SELECT __id, ${sql.join(keyNames.map((name) => sql.ref(name)))}
    FROM matches WHERE (SELECT n FROM counted) <= ${cap}
    ORDER BY ${keyOrder(params, sort, keyNames)} LIMIT ${size} OFFSET ${offset}`;
  const pastCap = keyed.where(sql<boolean>`(SELECT n FROM counted) > ${cap}`)
    .orderBy(pageOrder(params, sort)).limit(size).offset(offset);
  return sql<{ __id: string; __total: number }>`(WITH
    matches AS MATERIALIZED (${keyed.limit(sql.lit(EXACT_TOTAL_CAP + 1))}),
    counted AS (SELECT count(*) AS n FROM matches)
    SELECT page.__id, counted.n as "__total"
    FROM counted, ((${fromMatches}) UNION ALL (${pastCap})) AS page)`;
}

/** The rows before the page. */
function pageOffset(params: Pick<ListParams, "page" | "limit">): number {
  return (params.page - 1) * params.limit;
}

interface PageTotal {
  total: number;
  exact: boolean;
}

/**
 * The total of a page query's rows (their capped count); a page past the end has none, so
 * only then `unpaged` (the query without its page) is counted apart. Above the cap, the
 * planner's estimate of `unpaged`'s rows (never below the cap), remembered for the next pages.
 */
async function pageTotal(
  rows: ReadonlyArray<{ __total: number | string | null }>,
  params: ListParams,
  unpaged: () => AnySelect,
  plan: TotalPlan,
): Promise<PageTotal> {
  if (plan.estimate !== undefined) return { total: plan.estimate, exact: false };
  let counted: number;
  if (rows[0]) counted = Number(rows[0].__total);
  else if (params.page === 1) counted = 0;
  else {
    const row = await unpaged().clearSelect().clearOrderBy().select(cappedTotal(unpaged()))
      .limit(1).executeTakeFirst() as { __total: number } | undefined;
    counted = Number(row?.__total ?? 0);
  }
  if (counted <= EXACT_TOTAL_CAP) return { total: counted, exact: true };
  const estimate = Math.max(counted, await estimatedRows(unpaged()));
  rememberLarge(plan.key, estimate);
  return { total: estimate, exact: false };
}

/** The planner's estimate of the rows `unpaged` returns (`EXPLAIN`, no execution). */
export async function estimatedRows(unpaged: AnySelect): Promise<number> {
  const [row] = await rowsOf(unpaged).explain("json") as Array<Record<string, unknown>>;
  let plan = row?.["QUERY PLAN"];
  if (typeof plan === "string") plan = JSON.parse(plan);
  const rows = Array.isArray(plan) ? (plan[0] as { Plan?: { "Plan Rows"?: number } })?.Plan : null;
  return Math.round(Number(rows?.["Plan Rows"] ?? 0));
}

/** A page of `data` with its pagination block. */
function pageOf<T>(
  data: T[],
  params: ListParams,
  { total, exact }: PageTotal,
): Page<T> {
  return {
    data,
    pagination: {
      page: params.page,
      limit: params.limit,
      total,
      totalPages: Math.ceil(total / params.limit),
      totalExact: exact,
    },
  };
}

/** Maps the rows into a page (the total as {@link pageTotal} finds it). */
async function toPage<O, T>(
  rows: CountedRow<O>[],
  params: ListParams,
  unpaged: () => AnySelect,
  map: (row: O) => T,
  plan: TotalPlan,
): Promise<Page<T>> {
  const total = await pageTotal(rows, params, unpaged, plan);
  // Each row goes to `map` as it came (its `__total` is ignored there): a copy without that
  // column (`{ __total, ...row }`) is slow for wide rows (a rental row with two more columns
  // spent 14% of its list's CPU on it).
  return pageOf(rows.map((row) => map(row)), params, total);
}

export async function paginate<DB, TB extends keyof DB, O, T>(
  query: SelectQueryBuilder<DB, TB, O>,
  params: ListParams,
  options: PageOptions<O, T>,
): Promise<Page<T>> {
  const plan = totalPlan(listKey(query), params, options);
  const paged = plan.counting === "estimated" && options.walk
    ? options.walk as unknown as SelectQueryBuilder<DB, TB, O>
    : query;
  const rows = await pageQuery(paged, params, options, plan).execute() as CountedRow<O>[];
  return toPage(rows, params, () => query, options.map, plan);
}

/** The list `paginateByIds()` pages: its ids query, and what `paginateByShape()` needs. */
export interface IdsList {
  /** Compiled SQL per shape of this list (one memo per list). */
  memo: ShapeMemo;
  /** What decides the ids query's SQL text (which filters are present), as for `paginateByShape`. */
  shape: string;
  /** The ids query's parameters, in order. */
  values: readonly unknown[];
  /** The ids query (selects the table's `id`), built only when its SQL is not remembered. */
  ids: () => AnySelect;
}

/**
 * `paginate()` for lists whose page is chosen on one table's ids (counted and sorted on its
 * indexes, without reading its rows) and whose rows are read, joined, for that page only:
 * `readPage` gets the page of ids (select it `as` an alias, with its `__total`) and the order,
 * and returns the page's query (not run). As in `paginateByShape()`, the statement of each
 * shape is compiled once and then run with the request's values.
 *
 * Along the sort, the page counts nothing when it is not full (see `pageOfIds`); a search reads
 * its matches once (see the top).
 */
export async function paginateByIds<Row extends { __total: number | null }, T>(
  db: Db,
  list: IdsList,
  params: ListParams,
  sort: PageSort,
  readPage: (page: PageOfIds, order: RawBuilder<unknown>) => Compilable<unknown>,
  map: (row: Omit<Row, "__total">) => T,
): Promise<Page<T>> {
  const { plan, key } = shapedPage(list.shape, list.values, params, sort);
  // The order of the parameters in `pageOfIds`'s text (`readPage` adds none of its own).
  const offset = pageOffset(params);
  const page = [params.limit, offset];
  const parameters = plan.counting === "estimated"
    ? [...list.values, ...page]
    : plan.counting === "once"
    ? [...list.values, offset, ...list.values, offset]
    : [...page, ...list.values, EXACT_TOTAL_CAP + 1, ...list.values, ...page];
  const compile = () =>
    readPage(pageOfIds(list.ids(), params, sort, plan), pageOrder(params, sort))
      .compile() as CompiledQuery<Row>;
  const rows = await list.memo.run(db, key, parameters, () => planned(sort, plan, compile()));
  return toPage(rows, params, list.ids, map, plan);
}

/**
 * A page statement, marked to be planned once when its list says so (`planOnce`), except the
 * page of a list known to be large: that one is planned for its values, so the planner, which
 * then expects thousands of matches, walks the sort order and stops after the page. The kept
 * generic plan, made for no value in particular, read every match and sorted them: 11.6 ms
 * against 2.4 ms for the 12,500 tickets matching "guitar" at shop10y.
 */
function planned<R>(sort: PageSort, plan: TotalPlan, compiled: CompiledQuery<R>) {
  return plannedOnceIf({ planOnce: sort.planOnce && plan.counting !== "estimated" }, compiled);
}

/** The page of ids `paginateByIds()` hands its reader: each id with the list's total. */
export type PageOfIds = RawBuilder<{ id: string; __total: number | null }>;

function pageOfIds(ids: AnySelect, params: ListParams, sort: PageSort, plan: TotalPlan) {
  const offset = pageOffset(params);
  if (plan.counting === "once") {
    const page = matchedPage(ids, sort.tieBreaker, params, sort);
    return sql`(SELECT pg.__id AS id, pg.__total as "__total" FROM ${page} AS pg)` as PageOfIds;
  }
  const page = ids.orderBy(pageOrder(params, sort)).limit(params.limit).offset(offset);
  if (plan.counting === "estimated") {
    return sql`(SELECT pg.id, NULL::bigint as "__total" FROM (${page}) AS pg)` as PageOfIds;
  }
  // Along the sort: a page that is not full is the last one, and its total is its offset
  // plus its rows; the capped count sits in the CASE's other branch, which PostgreSQL runs
  // (an InitPlan) only when a row needs it.
  const rows = sql`count(*) OVER ()`;
  return sql`(SELECT pg.id, CASE WHEN ${rows} < ${params.limit} THEN ${offset} + ${rows}
    ELSE ${cappedCount(ids)} END as "__total" FROM (${page}) AS pg)` as PageOfIds;
}

/** A filter not present (`params.x && [params.x]` when `params.x` is unset). */
type Absent = false | "" | 0 | null | undefined;

/**
 * A list query's shape and values (for `paginateByShape()` and `paginateByIds()`) from its
 * filters, in the order the query applies them: each filter's key and the parameters it binds
 * (`[]` when present without a parameter). The shape names the filters present, so a key must
 * also name any choice that changes the SQL text.
 */
export function listShape(
  filters: ReadonlyArray<readonly [key: string, values: readonly unknown[] | Absent]>,
): { shape: string; values: unknown[] } {
  const keys: string[] = [];
  const values: unknown[] = [];
  for (const [key, bound] of filters) {
    if (!bound) continue;
    keys.push(key);
    values.push(...bound);
  }
  return { shape: keys.join(","), values };
}

/**
 * A page of a list known by its shape and values: how it gets its total (counted, or the
 * remembered estimate of a large list) and the key of its remembered SQL (shape, sort, order,
 * how it counts and, read once, the page size all change the text).
 */
function shapedPage(shape: string, values: readonly unknown[], params: ListParams, sort: PageSort) {
  const plan = totalPlan(`${shape}\u0000${JSON.stringify(values)}`, params, sort);
  const size = plan.counting === "once" ? `|${params.limit}` : ""; // in the text: matchedPage
  const key = `${shape}|${params.sort}|${params.order}|${plan.counting}${size}`;
  return { plan, key };
}

/** Compiled SQL per query shape, for `paginateByShape()`: one per list query. */
export type ShapeMemo = CompiledStatements;

/** Shapes are few (filters present × sort × order); the bound only catches a mistake. */
export function newShapeMemo(): ShapeMemo {
  return new CompiledStatements(4096);
}

/**
 * `paginate()` for hot list endpoints: the SQL of each query shape is compiled once and then
 * reused with the request's values, which skips Kysely's query building and compiling
 * (about 20 µs and a few hundred short-lived objects per request).
 *
 * `shape` must determine the SQL text completely (which filters are present and any choice
 * that changes the text; sort and order are added here), and `values` must list the query's
 * parameters in order, without the page's limit and offset (which come last). The first
 * request of a shape builds and compiles the query and compares its parameters with the
 * order its text has (see below; `[...values, limit, offset]` for a list known to be large,
 * which counts nothing): the SQL is remembered only when they are identical, so a
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
  const { plan, key } = shapedPage(shape, values, params, options);
  // The order of the parameters in the SQL text: read once, the matches (the filters), their
  // page's offset (its size is in the text), then the page past the cap (the filters again);
  // counted along the sort, the capped count (the filters and the cap) before the page.
  const offset = pageOffset(params);
  const page = [params.limit, offset];
  const parameters = plan.counting === "estimated"
    ? [...values, ...page]
    : plan.counting === "once"
    ? [...values, offset, ...values, offset]
    : [...values, EXACT_TOTAL_CAP + 1, ...values, ...page];
  const compile = () =>
    pageQuery(build(), params, options, plan).compile() as CompiledQuery<CountedRow<O>>;
  const rows = await memo.run(db, key, parameters, () => planned(options, plan, compile()));
  return toPage(rows, params, build, options.map, plan);
}
