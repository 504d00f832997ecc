/**
 * The plan PostgreSQL runs an app list with (app/db/connect.ts): page queries are planned for
 * their values on every run, which EXPLAIN with the same parameters shows, except those their
 * list plans once, whose kept generic plan `genericPlan` shows.
 */
import { CompiledQuery, Kysely } from "kysely";
import { postgresClient } from "../../app/db/postgres_client.ts";
import type { Database } from "../../app/db/database.ts";
import { PostgresDialect } from "../../app/db/postgres_dialect.ts";
import { isPageQuery, isPlannedOnce } from "../../app/db/page_statements.ts";
import { createTestApp, type TestApp } from "./test_app.ts";
import { testServerUrl } from "./test_db.ts";

/** Plans are PostgreSQL's: these tests are skipped on the embedded database. */
export const onPostgres = testServerUrl() !== undefined;

/** What `withPlanDatabase` sets up, readable once the tests run. */
export interface PlanDatabase {
  readonly app: TestApp;
  readonly traced: TracingDatabase;
}

/**
 * Registers `beforeAll` (on PostgreSQL: an app on its own database, a TracingDatabase on it,
 * then `seed`) and `afterAll` (closes both).
 */
export function withPlanDatabase(seed: (app: TestApp) => Promise<void>): PlanDatabase {
  let app: TestApp | undefined;
  let traced: TracingDatabase | undefined;
  Deno.test.beforeAll(async () => {
    if (!onPostgres) return;
    app = await createTestApp();
    traced = new TracingDatabase(app.database.url!);
    await seed(app);
  });
  Deno.test.afterAll(async () => {
    await traced?.close();
    await app?.close();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) {
      throw new Error("withPlanDatabase: used before beforeAll, or not on PostgreSQL");
    }
    return value;
  };
  return {
    get app() {
      return ready(app);
    },
    get traced() {
      return ready(traced);
    },
  };
}

/** A database on `url` that remembers the statements it runs, to explain them. */
export class TracingDatabase {
  readonly db: Kysely<Database>;
  readonly #captured: CompiledQuery[] = [];

  constructor(url: string) {
    this.db = new Kysely<Database>({
      dialect: new PostgresDialect({
        postgres: postgresClient(url, { max: 2, onnotice: () => {} }),
      }),
      log: (event) => {
        if (event.level === "query") this.#captured.push(event.query);
      },
    });
  }

  /** The page query (with its capped `__total`) of the list `run` reads through `this.db`. */
  async listQueryOf(run: () => Promise<unknown>): Promise<CompiledQuery> {
    this.#captured.length = 0;
    await run();
    const query = this.#captured.find((q) => isPageQuery(q.sql));
    if (!query) throw new Error("No list query was run");
    return query;
  }

  /** Every statement `run` sends through `this.db`, in order. */
  async queriesOf(run: () => Promise<unknown>): Promise<CompiledQuery[]> {
    this.#captured.length = 0;
    await run();
    return [...this.#captured];
  }

  close(): Promise<void> {
    return this.db.destroy();
  }
}

/**
 * The plans `queries` run with in the app, one after the other: the generic plan of a page
 * query its list plans once (`isPlannedOnce`), the custom plan of any other.
 */
export async function plansAsRun(
  db: Kysely<Database>,
  queries: readonly CompiledQuery[],
): Promise<string> {
  const plans = [];
  for (const query of queries) {
    plans.push(
      isPlannedOnce(query.sql) ? await genericPlan(db, query) : await customPlan(db, query),
    );
  }
  return plans.join("\n");
}

/** EXPLAIN of `query` planned for its parameter values (a custom plan). */
export async function customPlan(db: Kysely<Database>, query: CompiledQuery): Promise<string> {
  const result = await db.executeQuery<{ "QUERY PLAN": string }>(
    CompiledQuery.raw(`EXPLAIN ${query.sql}`, [...query.parameters]),
  );
  return result.rows.map((r) => r["QUERY PLAN"]).join("\n");
}

/**
 * The plan a list's search keeps (PageOptions.planOnce): the page query `run` sends must be
 * marked to be planned once, and its generic plan is returned (checked to be one: it names
 * its parameters, `ILIKE $1` or `LIKE $1`, where a custom plan shows the values).
 */
export async function keptPlanOf(
  traced: TracingDatabase,
  run: () => Promise<unknown>,
): Promise<string> {
  const query = await traced.listQueryOf(run);
  if (!isPlannedOnce(query.sql)) throw new Error(`Not planned once: ${query.sql}`);
  const plan = await genericPlan(traced.db, query);
  // A pattern still a parameter (LIKE `~~` or ILIKE `~~*`): the plan was made for no value.
  if (!/~~\*? \$\d/.test(plan)) throw new Error(`Not a generic plan:\n${plan}`);
  return plan;
}

/**
 * EXPLAIN of the plan a session under `plan_cache_mode = force_generic_plan` keeps for
 * `query` (app/db/connect.ts): planned for no value in particular, then run with these values.
 * PostgreSQL 15 has no EXPLAIN (GENERIC_PLAN): the statement is prepared in a transaction
 * (one session) and its EXECUTE explained.
 */
export async function genericPlan(db: Kysely<Database>, query: CompiledQuery): Promise<string> {
  return await db.transaction().execute(async (trx) => {
    await trx.executeQuery(CompiledQuery.raw("SET LOCAL plan_cache_mode = force_generic_plan"));
    await trx.executeQuery(CompiledQuery.raw(`PREPARE generic_plan_probe AS ${query.sql}`));
    // EXECUTE's arguments as literals: as parameters of its own, their types are unknown.
    const args = query.parameters.map(sqlLiteral).join(", ");
    const result = await trx.executeQuery<{ "QUERY PLAN": string }>(
      CompiledQuery.raw(`EXPLAIN EXECUTE generic_plan_probe${args ? `(${args})` : ""}`),
    );
    // (A failure above aborts the transaction, whose session the test then closes.)
    await trx.executeQuery(CompiledQuery.raw("DEALLOCATE generic_plan_probe"));
    return result.rows.map((r) => r["QUERY PLAN"]).join("\n");
  });
}

function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const text = value instanceof Date ? value.toISOString() : String(value);
  return `'${text.replaceAll("'", "''")}'`;
}
