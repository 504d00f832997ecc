/**
 * The plans PostgreSQL may run an app statement with. postgres.js sends named prepared
 * statements and the app keeps plan_cache_mode `auto` (app/db/connect.ts): the first runs of
 * a statement on a connection get custom plans (planned for the values given), later runs may
 * keep one generic plan (planned for any value). A search must use its index in both.
 */
import { CompiledQuery, type Kysely, sql } from "kysely";
import type { Database } from "../../app/db/database.ts";

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
