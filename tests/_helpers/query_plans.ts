/**
 * The plans PostgreSQL may run an app statement with. postgres.js sends named prepared
 * statements and the app keeps plan_cache_mode `auto` (app/db/connect.ts): the first runs of
 * a statement on a connection get custom plans (planned for the values given), later runs may
 * keep one generic plan (planned for any value). A search must use its index in both.
 */
import { CompiledQuery, Kysely, sql } from "kysely";
import postgres from "postgres";
import type { Database } from "../../app/db/database.ts";
import { PostgresDialect } from "../../app/db/postgres_dialect.ts";
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
  return {
    get app() {
      if (!app) throw new Error("withPlanDatabase: used before beforeAll, or not on PostgreSQL");
      return app;
    },
    get traced() {
      if (!traced) throw new Error("withPlanDatabase: used before beforeAll, or not on PostgreSQL");
      return traced;
    },
  };
}

/** A database on `url` that remembers the statements it runs, to explain them. */
export class TracingDatabase {
  readonly db: Kysely<Database>;
  readonly #captured: CompiledQuery[] = [];

  constructor(url: string) {
    this.db = new Kysely<Database>({
      dialect: new PostgresDialect({ postgres: postgres(url, { max: 2, onnotice: () => {} }) }),
      log: (event) => {
        if (event.level === "query") this.#captured.push(event.query);
      },
    });
  }

  /** The page query (`count(*) OVER ()`) of the list `run` reads through `this.db`. */
  async listQueryOf(run: () => Promise<unknown>): Promise<CompiledQuery> {
    this.#captured.length = 0;
    await run();
    const query = this.#captured.find((q) => /count\(\*\) over/i.test(q.sql));
    if (!query) throw new Error("No list query was run");
    return query;
  }

  close(): Promise<void> {
    return this.db.destroy();
  }
}

/** EXPLAIN of `query` planned for its parameter values (a custom plan). */
export async function customPlan(db: Kysely<Database>, query: CompiledQuery): Promise<string> {
  const result = await db.executeQuery<{ "QUERY PLAN": string }>(
    CompiledQuery.raw(`EXPLAIN ${query.sql}`, [...query.parameters]),
  );
  return result.rows.map((r) => r["QUERY PLAN"]).join("\n");
}

/** EXPLAIN of `query` as a prepared statement's generic plan (planned without its values). */
export async function genericPlan(db: Kysely<Database>, query: CompiledQuery): Promise<string> {
  const name = `plan_probe_${crypto.randomUUID().replaceAll("-", "")}`;
  return await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL plan_cache_mode = force_generic_plan`.execute(trx);
    await trx.executeQuery(CompiledQuery.raw(`PREPARE ${name} AS ${query.sql}`));
    const args = query.parameters.map(literal).join(", ");
    const result = await trx.executeQuery<{ "QUERY PLAN": string }>(
      CompiledQuery.raw(`EXPLAIN EXECUTE ${name}(${args})`),
    );
    await trx.executeQuery(CompiledQuery.raw(`DEALLOCATE ${name}`));
    const plan = result.rows.map((r) => r["QUERY PLAN"]).join("\n");
    if (!/\$1\b/.test(plan)) throw new Error(`Not a generic plan:\n${plan}`);
    return plan;
  });
}

function literal(value: unknown): string {
  if (value === null) return "NULL";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "string") return `'${value.replaceAll("'", "''")}'`;
  throw new Error(`No literal for parameter ${String(value)}`);
}
