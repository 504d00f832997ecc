/**
 * Bench scenarios, run by `bench/run.ts` (add a file here and list it in `mod.ts`):
 *  - an HTTP scenario (`Scenario`): data it seeds on the bench database before the server
 *    starts, the HTTP request it fires (the i-th of the run), and optionally the SQL that is
 *    its core, for a pgbench comparison at the same concurrency;
 *  - a timed scenario (`TimedScenario`, `kind: "timed"`): seeds, then times one piece of work
 *    run in-process against the bench database (no HTTP).
 */
import type { Kysely } from "kysely";
import type { AppDeps } from "../../app/deps.ts";
import type { Database } from "../../app/db/database.ts";
import type { Permission } from "../../domain/auth/permissions.ts";

export interface SeedContext {
  db: Kysely<Database>;
  /** Inserts an active user holding `permissions` and returns a bearer token for it. */
  createUser(permissions: readonly Permission[]): Promise<{ id: string; token: string }>;
  /** Application dependencies over the bench database (for seeding through use cases). */
  deps(): AppDeps;
  /** Which engine is being seeded: PostgreSQL, or the embedded default (see `embedded`). */
  engine: "postgres" | "embedded";
  /**
   * Timed scenarios only: starts the real server (`main.ts`, as the HTTP scenarios measure it)
   * on the bench database; `stop()` ends it.
   */
  startServer?(): Promise<{ baseUrl: string; stop(): Promise<void> }>;
}

export interface BenchRequest {
  /** Path below the server root, with its query string (`/v1/locations?page=2`). */
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Scenario<State = unknown> {
  kind?: "http";
  name: string;
  /** Inserts what the requests need; its result is handed to `request`. */
  seed(ctx: SeedContext): Promise<State>;
  /**
   * The i-th request. When consecutive calls return different requests (other pages, other
   * ids), the harness asks for every request in order and sends each once.
   */
  request(i: number, state: State): BenchRequest;
  /** Expected status of every response (default 200); others count as errors. */
  expectStatus?: number;
  /** pgbench script (may use `\set` and `:name` variables) doing the SQL work of one request. */
  pgbenchScript?: string;
  /** `-D name=value` variables of the script (sent as parameters with `-M prepared`). */
  pgbenchDefines?: Record<string, string>;
  /**
   * The endpoint's main statement as the app sends it. Naming one asks for the bare-stack
   * yardstick (`bench/_bare.ts`): a bare Deno.serve + Hono + Kysely endpoint running every
   * statement the endpoint sends (captured, `bench/_endpoint_sql.ts`; this one alone if that
   * fails), measured in the same rounds as the real endpoint and pgbench.
   */
  bareStatement?: BareStatement;
  /** Targets this scenario must meet (checked and printed by the harness). */
  targets?: { ratioToPgbench?: number; p50Ms?: number; p99Ms?: number };
  /**
   * Also measured on the embedded default (PGlite in a data directory, seeded with
   * `engine: "embedded"`), after the PostgreSQL scenarios: one measurement per run listed, with
   * its targets; the report gives each one's req/s ratio to the PostgreSQL run of the scenario.
   */
  embedded?: readonly EmbeddedRun[];
}

/** One measured run on the embedded default: its clients at once and its targets. */
export interface EmbeddedRun {
  /** Clients at once (default BENCH_CONCURRENCY). */
  concurrency?: number;
  p50Ms?: number;
  p99Ms?: number;
  /** Requests/s at least this share of the PostgreSQL run's (same data, same run). */
  ratioToPostgres?: number;
}

/** One SQL statement with its parameters (`$1`, `$2`, ... in `sql`). */
export interface BareStatement {
  sql: string;
  parameters: readonly unknown[];
}

export interface TimedResult {
  /** The measured duration. */
  ms: number;
  /** Anything worth reporting next to it (rows created, a second run, ...). */
  details?: Record<string, unknown>;
}

export interface TimedScenario<State = unknown> {
  kind: "timed";
  name: string;
  seed(ctx: SeedContext): Promise<State>;
  /** The timed work (the harness runs it once, after the HTTP scenarios). */
  run(ctx: SeedContext, state: State): Promise<TimedResult>;
  targets?: { ms?: number };
}

// deno-lint-ignore no-explicit-any
export type AnyScenario = Scenario<any> | TimedScenario<any>;
