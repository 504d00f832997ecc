/**
 * The plan PostgreSQL runs an app list with: page queries are planned for their values on
 * every run (app/db/connect.ts), which EXPLAIN with the same parameters shows.
 */
import { CompiledQuery, Kysely } from "kysely";
import { postgresClient } from "../../app/db/postgres_client.ts";
import type { Database } from "../../app/db/database.ts";
import { PostgresDialect } from "../../app/db/postgres_dialect.ts";
import { isPageQuery } from "../../app/db/pagination.ts";
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

/** The custom plans of `queries`, one after the other. */
export async function customPlans(
  db: Kysely<Database>,
  queries: readonly CompiledQuery[],
): Promise<string> {
  const plans = [];
  for (const query of queries) plans.push(await customPlan(db, query));
  return plans.join("\n");
}

/** EXPLAIN of `query` planned for its parameter values (a custom plan). */
export async function customPlan(db: Kysely<Database>, query: CompiledQuery): Promise<string> {
  const result = await db.executeQuery<{ "QUERY PLAN": string }>(
    CompiledQuery.raw(`EXPLAIN ${query.sql}`, [...query.parameters]),
  );
  return result.rows.map((r) => r["QUERY PLAN"]).join("\n");
}
