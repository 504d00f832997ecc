/**
 * The stack's own ceiling for a list endpoint: a bare Deno.serve + Hono + Kysely endpoint on
 * the app's database connection (`openDatabase()`: the same pools and session settings), that
 * runs the statements a scenario's endpoint sends (captured by `_endpoint_sql.ts`), one after
 * the other with their fixed parameters, and answers the rows as JSON. No
 * authentication, validation, mapping or middleware: what remains is the runtime, the
 * framework, the driver and PostgreSQL. Its ratio to pgbench, measured in the same rounds as
 * the real endpoint's, shows how much of a gap to pgbench the stack leaves before any of the
 * app's code runs.
 *
 * Env: DATABASE_URL, PORT, BARE_STATEMENTS_FILE (a JSON file: per endpoint, per captured
 * request, an array of `{ sql, parameters }`; request k of endpoint n is served at `/n/k`; a
 * file, as the captured scans are more than the environment holds), DB_POOL_SIZE (default:
 * the server's).
 */
import { Hono } from "hono";
import { CompiledQuery } from "kysely";
import { openDatabase } from "../app/db/connect.ts";
import { defaultPoolSize } from "../app/config.ts";
import type { BareStatement } from "./scenarios/_scenario.ts";

const statementsFile = Deno.env.get("BARE_STATEMENTS_FILE");
if (!statementsFile) throw new Error("BARE_STATEMENTS_FILE is required (the statements to run)");
const endpoints = JSON.parse(await Deno.readTextFile(statementsFile)) as BareStatement[][][];
const databaseUrl = Deno.env.get("DATABASE_URL");
if (!databaseUrl) throw new Error("DATABASE_URL is required (the bench database)");
const { db } = await openDatabase({
  databaseUrl,
  poolSize: Number(Deno.env.get("DB_POOL_SIZE") ?? defaultPoolSize()),
});

const app = new Hono();
app.get("/:n/:k", async (c) => {
  const statements = endpoints[Number(c.req.param("n"))]?.[Number(c.req.param("k"))];
  if (!statements) return c.notFound();
  const results = [];
  for (const statement of statements) {
    const { rows } = await db.executeQuery(
      CompiledQuery.raw(statement.sql, [...statement.parameters]),
    );
    results.push(rows);
  }
  return c.json({ data: results });
});

Deno.serve({ port: Number(Deno.env.get("PORT") ?? 0), hostname: "127.0.0.1" }, app.fetch);
