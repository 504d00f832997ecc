/**
 * `deno task bench`: HTTP throughput and latency of the real server on PostgreSQL, next to
 * two yardsticks measured in the same run on the same machine:
 *  - the ceiling: a bare `Deno.serve` answering "ok" under the same load generator;
 *  - the database: pgbench running each scenario's SQL at the same concurrency, for the same
 *    duration, in rounds alternating with that scenario's HTTP load (both warmed up first):
 *    the speed of this shared machine drifts by tens of percent within a minute, and
 *    alternating makes a slow spell weigh on both sides of the ratio alike. req/s and tps are
 *    over all rounds; p50/p99 are the median of the rounds' (each round is its own run).
 * A scenario that names its statement (`bareStatement`) is also measured on the bare stack: a
 * Deno.serve + Hono + Kysely endpoint running that statement alone (`_bare.ts`), in the same
 * rounds, so the report shows how much of the gap to pgbench the stack itself leaves.
 * HTTP load comes from `wrk` (installed with apt-get when missing; without it, from the Deno
 * fetch generator in `_load.ts`, with a note). Timed scenarios (no HTTP) run last.
 * A fresh database `shop_bench_<random>` is created on BENCH_DATABASE_URL's server
 * (default postgres://postgres@127.0.0.1:5432/postgres), migrated, seeded and dropped.
 *
 * BENCH_DURATION (seconds per measurement, default 10), BENCH_ROUNDS (default 3),
 * BENCH_WARMUP (seconds, default 3), BENCH_DB_POOL_SIZE (default: the server's own),
 * BENCH_CONCURRENCY (default 10), BENCH_WRK_THREADS (default 1), BENCH_ONLY (run only the
 * scenarios whose name contains this text; case-insensitive, `a,b` for either).
 * Results: one table on stdout and bench/results/latest.json.
 */
import { CompiledQuery, type Kysely, sql } from "kysely";
import type { Database } from "../app/db/database.ts";
import { openDatabase } from "../app/db/connect.ts";
import { migrateToLatest } from "../app/db/migrate.ts";
import { runSeeds } from "../app/seed.ts";
import { type LoadResult, round2, runLoad } from "./_load.ts";
import { createBenchDatabase, JWT_SECRET, seedContext } from "./_db.ts";
import { type PgbenchResult, runPgbench } from "./_pgbench.ts";
import { findWrk, runWrk } from "./_wrk.ts";
import type { BenchRequest, Scenario, TimedResult, TimedScenario } from "./scenarios/_scenario.ts";
import { SCENARIOS } from "./scenarios/mod.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const DURATION_S = Number(Deno.env.get("BENCH_DURATION") ?? 10);
const WARMUP_S = Number(Deno.env.get("BENCH_WARMUP") ?? 3);
const CONCURRENCY = Number(Deno.env.get("BENCH_CONCURRENCY") ?? 10);
const WRK_THREADS = Number(Deno.env.get("BENCH_WRK_THREADS") ?? 1);
/** HTTP and pgbench alternate in this many rounds sharing DURATION (see measureScenario). */
const ROUNDS = Math.max(1, Number(Deno.env.get("BENCH_ROUNDS") ?? 3));
/** Distinct requests prepared for a scenario whose requests differ (pages, ids). */
const MAX_DISTINCT_REQUESTS = 120_000;
const ONLY = Deno.env.get("BENCH_ONLY");
/** DB_POOL_SIZE for the server and the bare stack: their own default unless BENCH_DB_POOL_SIZE. */
const POOL_SIZE_ENV: Record<string, string> = Deno.env.get("BENCH_DB_POOL_SIZE")
  ? { DB_POOL_SIZE: Deno.env.get("BENCH_DB_POOL_SIZE")! }
  : {};
const SELECTED = SCENARIOS.filter((s) =>
  !ONLY || ONLY.split(",").some((part) => s.name.toLowerCase().includes(part.trim().toLowerCase()))
);
// deno-lint-ignore no-explicit-any
type AnyHttp = Scenario<any>;
// deno-lint-ignore no-explicit-any
type AnyTimed = TimedScenario<any>;

interface HttpScenarioResult {
  name: string;
  http: LoadResult;
  /** Each HTTP + pgbench round as measured, for the spread behind the folded figures. */
  rounds: RoundResult[];
  pgbench?: PgbenchResult;
  /** HTTP requests per second / pgbench transactions per second. */
  ratioToPgbench?: number;
  /** The bare-stack endpoint running the same statement (`_bare.ts`), same rounds. */
  bare?: LoadResult;
  /** Bare-stack requests per second / pgbench transactions per second. */
  bareRatioToPgbench?: number;
  targets?: AnyHttp["targets"];
  targetsMet?: boolean;
  notes: string[];
  pgbenchScript?: string;
  pgbenchDefines?: Record<string, string>;
}

interface TimedScenarioResult extends TimedResult {
  name: string;
  targets?: AnyTimed["targets"];
  targetsMet?: boolean;
}

function isTimed(s: (typeof SCENARIOS)[number]): s is AnyTimed {
  return s.kind === "timed";
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      await res.body?.cancel();
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up`);
}

function spawn(script: string, env: Record<string, string>): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script],
    cwd: ROOT,
    env,
    stdin: "null",
    stdout: "null",
    stderr: "inherit",
  }).spawn();
}

async function stop(child: Deno.ChildProcess): Promise<void> {
  try {
    child.kill("SIGTERM");
  } catch {
    // Already gone.
  }
  await child.status;
}

/**
 * The bare-stack endpoint (`_bare.ts`) serving the statements of the scenarios that name one
 * (`/0`, `/1`, ...), or undefined when none does. Same pool size as the server.
 */
async function startBareStack(
  scenarios: AnyHttp[],
  databaseUrl: string,
  children: Deno.ChildProcess[],
): Promise<{ endpoints: Map<AnyHttp, { baseUrl: string; request: BenchRequest }> } | undefined> {
  const withStatement = scenarios.filter((s) => s.bareStatement);
  if (withStatement.length === 0) return undefined;
  const port = freePort();
  children.push(spawn("bench/_bare.ts", {
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    BARE_STATEMENTS: JSON.stringify(withStatement.map((s) => s.bareStatement)),
    ...POOL_SIZE_ENV,
  }));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(`${baseUrl}/0`);
  return {
    endpoints: new Map(withStatement.map((s, i) => [s, { baseUrl, request: { path: `/${i}` } }])),
  };
}

const same = (a: BenchRequest, b: BenchRequest) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The requests to send: one (every request alike) or the first MAX_DISTINCT_REQUESTS of the
 * scenario's sequence (each sent once).
 */
function requestsOf(scenario: AnyHttp, state: unknown): BenchRequest[] {
  const first = scenario.request(0, state);
  const second = scenario.request(1, state);
  if (same(first, second)) return [first];
  const list = [first, second];
  for (let i = 2; i < MAX_DISTINCT_REQUESTS; i++) list.push(scenario.request(i, state));
  return list;
}

/** Sends one request and describes the answer (status, rows matched). */
async function preflight(baseUrl: string, req: BenchRequest, expected: number) {
  const res = await fetch(baseUrl + req.path, {
    method: req.method ?? "GET",
    headers: req.headers,
    body: req.body,
  });
  const text = await res.text();
  const notes: string[] = [];
  if (res.status !== expected) {
    notes.push(`check request → ${res.status} (expected ${expected}): ${text.slice(0, 200)}`);
  }
  try {
    const total = JSON.parse(text)?.pagination?.total;
    if (typeof total === "number") notes.push(`${total} matching rows`);
  } catch {
    // Not JSON.
  }
  return notes;
}

/**
 * Where the next HTTP run starts in a scenario's list of distinct requests, and whether the
 * list ran out (requests were sent twice).
 */
interface LoadCursor {
  offset: number;
  wrapped: boolean;
}

/** One HTTP run of `seconds` (wrk, or the Deno fetch generator without it). */
async function httpRun(
  wrk: string | undefined,
  baseUrl: string,
  requests: BenchRequest[],
  scenario: Pick<AnyHttp, "expectStatus">,
  cursor: LoadCursor,
  seconds: number,
): Promise<LoadResult> {
  if (!wrk) {
    const at = cursor.offset;
    const result = await runLoad({
      baseUrl,
      concurrency: CONCURRENCY,
      request: (i) => requests[(at + i) % requests.length]!,
      expectStatus: scenario.expectStatus,
      durationMs: seconds * 1000,
    });
    cursor.offset += result.requests;
    if (requests.length > 1 && cursor.offset > requests.length) cursor.wrapped = true;
    return result;
  }
  const { nextOffset, wrapped, ...result } = await runWrk({
    wrk,
    baseUrl,
    requests,
    concurrency: CONCURRENCY,
    threads: WRK_THREADS,
    expectStatus: scenario.expectStatus,
    offset: cursor.offset,
    seconds,
  });
  cursor.offset = nextOffset;
  cursor.wrapped ||= wrapped;
  return result;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * Rounds of one load, folded: requests, errors and time summed (so req/s is over all rounds),
 * p50 and p99 the median of the rounds' (each round is its own wrk run), max the largest.
 */
function foldRounds(rounds: LoadResult[]): LoadResult {
  const requests = rounds.reduce((sum, r) => sum + r.requests, 0);
  const seconds = rounds.reduce((sum, r) => sum + r.seconds, 0);
  return {
    requests,
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    seconds: round2(seconds),
    requestsPerSecond: Math.round(requests / seconds),
    p50Ms: round2(median(rounds.map((r) => r.p50Ms))),
    p99Ms: round2(median(rounds.map((r) => r.p99Ms))),
    maxMs: Math.max(...rounds.map((r) => r.maxMs)),
  };
}

function foldPgbench(rounds: PgbenchResult[]): PgbenchResult {
  const transactions = rounds.reduce((sum, r) => sum + r.transactions, 0);
  return {
    transactions,
    tps: Math.round(rounds.reduce((sum, r) => sum + r.tps, 0) / rounds.length),
    p50Ms: round2(median(rounds.map((r) => r.p50Ms))),
    p99Ms: round2(median(rounds.map((r) => r.p99Ms))),
    failed: rounds.reduce((sum, r) => sum + r.failed, 0),
  };
}

/**
 * A scenario's HTTP load and its pgbench yardstick, both warmed up, then measured in
 * alternating rounds (HTTP, pgbench, HTTP, pgbench, ...) of DURATION/ROUNDS seconds each, so
 * a slow spell of this shared machine weighs on both sides of the ratio alike instead of on
 * whichever ran during it.
 */
async function measureScenario(
  wrk: string | undefined,
  baseUrl: string,
  requests: BenchRequest[],
  scenario: AnyHttp,
  databaseUrl: string,
  notes: string[],
  bare?: { baseUrl: string; request: BenchRequest },
): Promise<
  { http: LoadResult; pgbench?: PgbenchResult; bare?: LoadResult; rounds: RoundResult[] }
> {
  const cursor: LoadCursor = { offset: requests.length > 1 ? 1 : 0, wrapped: false };
  const pgbenchOptions = scenario.pgbenchScript
    ? {
      databaseUrl,
      script: scenario.pgbenchScript,
      defines: scenario.pgbenchDefines,
      concurrency: CONCURRENCY,
    }
    : undefined;
  const bareCursor: LoadCursor = { offset: 0, wrapped: false };
  const bareRun = (seconds: number) =>
    bare ? httpRun(wrk, bare.baseUrl, [bare.request], {}, bareCursor, seconds) : undefined;
  await httpRun(wrk, baseUrl, requests, scenario, cursor, WARMUP_S);
  await bareRun(WARMUP_S);
  if (pgbenchOptions) await runPgbench({ ...pgbenchOptions, seconds: WARMUP_S });
  const seconds = Math.max(1, Math.round(DURATION_S / ROUNDS));
  const httpRounds: LoadResult[] = [];
  const pgbenchRounds: PgbenchResult[] = [];
  const bareRounds: LoadResult[] = [];
  const rounds: RoundResult[] = [];
  for (let n = 0; n < ROUNDS; n++) {
    const http = await httpRun(wrk, baseUrl, requests, scenario, cursor, seconds);
    httpRounds.push(http);
    const bareRound = await bareRun(seconds);
    if (bareRound) bareRounds.push(bareRound);
    const pg = pgbenchOptions ? await runPgbench({ ...pgbenchOptions, seconds }) : undefined;
    if (pg) pgbenchRounds.push(pg);
    rounds.push({
      httpRequestsPerSecond: http.requestsPerSecond,
      httpP99Ms: http.p99Ms,
      bareRequestsPerSecond: bareRound?.requestsPerSecond,
      pgbenchTps: pg?.tps,
      pgbenchP99Ms: pg?.p99Ms,
    });
  }
  if (cursor.wrapped) {
    notes.push(`the ${requests.length} distinct requests ran out: some were sent twice`);
  }
  return {
    http: foldRounds(httpRounds),
    pgbench: pgbenchRounds.length ? foldPgbench(pgbenchRounds) : undefined,
    bare: bareRounds.length ? foldRounds(bareRounds) : undefined,
    rounds,
  };
}

interface RoundResult {
  httpRequestsPerSecond: number;
  httpP99Ms: number;
  bareRequestsPerSecond?: number;
  pgbenchTps?: number;
  pgbenchP99Ms?: number;
}

/**
 * EXPLAIN ANALYZE of a scenario's pgbench statement (with its `-D` values as parameters):
 * the scans and indexes it uses and its execution time, to show searches hit their trigram
 * indexes. Scripts with meta-commands (`\set`) are skipped.
 */
async function explain(
  db: Kysely<Database>,
  script: string,
  defines: Record<string, string>,
): Promise<string | undefined> {
  if (script.includes("\\")) return undefined;
  const names: string[] = [];
  const text = script.trim().replace(/;$/, "").replace(/:(p\d+)/g, (_, name: string) => {
    names.push(name);
    return `$${names.length}`;
  });
  const { rows } = await db.executeQuery<{ "QUERY PLAN": unknown }>(
    CompiledQuery.raw(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, names.map((n) => defines[n])),
  );
  const [top] = rows[0]!["QUERY PLAN"] as Array<{ Plan: PlanNode; "Execution Time": number }>;
  const scans: string[] = [];
  const walk = (node: PlanNode) => {
    if (/Scan/.test(node["Node Type"])) {
      scans.push(
        `${node["Node Type"]}${node["Index Name"] ? ` on ${node["Index Name"]}` : ""}${
          node["Relation Name"] ? ` (${node["Relation Name"]})` : ""
        }`,
      );
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(top!.Plan);
  return `plan: ${scans.join("; ")}; executed in ${top!["Execution Time"].toFixed(2)} ms`;
}

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
}

function fmt(value: unknown): string {
  return value === undefined || value === null ? "" : String(value);
}

function printSummary(
  loadGenerator: string,
  loadAtStart: number[],
  hello: LoadResult,
  results: HttpScenarioResult[],
  timed: TimedScenarioResult[],
): void {
  const header = [
    "scenario",
    "req/s",
    "p50 ms",
    "p99 ms",
    "pgbench tps",
    "pgbench p99",
    "http/pgbench",
    "time ms",
    "target",
    "met",
  ];
  const rows: string[][] = [
    [
      'hello-world ceiling (Deno.serve → "ok")',
      fmt(hello.requestsPerSecond),
      fmt(hello.p50Ms),
      fmt(hello.p99Ms),
      "",
      "",
      "",
      "",
      "",
      "",
    ],
    ...results.flatMap((r) => {
      const target = [
        r.targets?.ratioToPgbench !== undefined ? `≥${r.targets.ratioToPgbench}×` : "",
        r.targets?.p99Ms !== undefined ? `p99<${r.targets.p99Ms}` : "",
      ].filter(Boolean).join(", ");
      const row = [
        r.name,
        fmt(r.http.requestsPerSecond),
        fmt(r.http.p50Ms),
        fmt(r.http.p99Ms),
        fmt(r.pgbench?.tps),
        fmt(r.pgbench?.p99Ms),
        fmt(r.ratioToPgbench),
        "",
        target,
        r.targetsMet === undefined ? "" : r.targetsMet ? "yes" : "NO",
      ];
      if (!r.bare) return [row];
      const bareRow = [
        "  same SQL on the bare stack (Deno.serve + Hono + Kysely)",
        fmt(r.bare.requestsPerSecond),
        fmt(r.bare.p50Ms),
        fmt(r.bare.p99Ms),
        "",
        "",
        fmt(r.bareRatioToPgbench),
        "",
        "",
        "",
      ];
      return [row, bareRow];
    }),
    ...timed.map((r) => [
      r.name,
      "",
      "",
      "",
      "",
      "",
      "",
      fmt(r.ms),
      r.targets?.ms !== undefined ? `<${r.targets.ms} ms` : "",
      r.targetsMet === undefined ? "" : r.targetsMet ? "yes" : "NO",
    ]),
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)).join("  ");
  console.log(
    `\n${loadGenerator}, concurrency ${CONCURRENCY}, ${DURATION_S} s per measurement in ` +
      `${ROUNDS} alternating rounds (after ${WARMUP_S} s warm-up), ` +
      `${navigator.hardwareConcurrency} cores, ` +
      `load average before the run ${loadAtStart.map((n) => n.toFixed(2)).join(" ")}`,
  );
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  for (const r of results) {
    if (r.http.errors > 0) console.log(`! ${r.name}: ${r.http.errors} unexpected responses`);
    if (r.pgbench?.failed) console.log(`! ${r.name}: ${r.pgbench.failed} failed pgbench runs`);
    for (const note of r.notes) console.log(`- ${r.name}: ${note}`);
    const rounds = r.rounds.map((round) =>
      `${round.httpRequestsPerSecond} req/s p99 ${round.httpP99Ms}` +
      (round.bareRequestsPerSecond === undefined
        ? ""
        : ` (bare ${round.bareRequestsPerSecond} req/s)`) +
      (round.pgbenchTps === undefined
        ? ""
        : ` vs pgbench ${round.pgbenchTps} tps p99 ${round.pgbenchP99Ms}`)
    );
    console.log(`- ${r.name}: rounds: ${rounds.join("; ")}`);
  }
}

async function main(): Promise<void> {
  const loadAtStart = Deno.loadavg();
  const wrk = await findWrk();
  const loadGenerator = wrk.path
    ? `wrk -t${WRK_THREADS} -c${CONCURRENCY}`
    : "Deno fetch load generator (wrk unavailable)";
  if (wrk.note) console.log(`NOTE: ${wrk.note}`);
  const database = await createBenchDatabase();
  const dataDir = await Deno.makeTempDir({ prefix: "shop-bench-" });
  const children: Deno.ChildProcess[] = [];
  const http = SELECTED.filter((s): s is AnyHttp => !isTimed(s));
  const timed = SELECTED.filter(isTimed);
  try {
    console.log(`seeding ${database.name} ...`);
    const states = new Map<unknown, unknown>();
    const plans = new Map<unknown, string>();
    {
      const handle = await openDatabase({ databaseUrl: database.url, poolSize: 4 });
      try {
        await migrateToLatest(handle.db);
        await runSeeds(handle.db);
        const ctx = seedContext(handle.db, dataDir);
        for (const scenario of SELECTED) {
          const started = performance.now();
          states.set(scenario, await scenario.seed(ctx));
          console.log(`  ${scenario.name}: ${Math.round(performance.now() - started)} ms`);
        }
        // As `pgbench -i` does after loading: vacuum (hint bits, visibility map) and write the
        // bulk load out, so no round measures autovacuum or a checkpoint catching up on it.
        await sql`VACUUM ANALYZE`.execute(handle.db);
        await sql`CHECKPOINT`.execute(handle.db);
        for (const scenario of http) {
          if (!scenario.pgbenchScript || !scenario.pgbenchDefines) continue;
          const plan = await explain(handle.db, scenario.pgbenchScript, scenario.pgbenchDefines);
          if (plan) plans.set(scenario, plan);
        }
      } finally {
        await handle.close();
      }
    }

    console.log("measuring the hello-world ceiling ...");
    const helloPort = freePort();
    const hello = spawn("bench/_hello.ts", { PORT: String(helloPort) });
    children.push(hello);
    await waitFor(`http://127.0.0.1:${helloPort}/`);
    const helloCursor: LoadCursor = { offset: 0, wrapped: false };
    const helloUrl = `http://127.0.0.1:${helloPort}`;
    await httpRun(wrk.path, helloUrl, [{ path: "/" }], {}, helloCursor, WARMUP_S);
    const helloResult = await httpRun(
      wrk.path,
      helloUrl,
      [{ path: "/" }],
      {},
      helloCursor,
      DURATION_S,
    );
    await stop(hello);

    const results: HttpScenarioResult[] = [];
    if (http.length > 0) {
      const port = freePort();
      const server = spawn("main.ts", {
        DATABASE_URL: database.url,
        PORT: String(port),
        HOST: "127.0.0.1",
        AUTH_RATE_LIMIT: "off",
        LOG_LEVEL: "warn",
        JWT_SECRET,
        APP_ENV: "development",
        ...POOL_SIZE_ENV,
      });
      children.push(server);
      const baseUrl = `http://127.0.0.1:${port}`;
      await waitFor(`${baseUrl}/v1/health`);
      const bareStack = await startBareStack(http, database.url, children);
      for (const scenario of http) {
        console.log(`measuring ${scenario.name} ...`);
        const state = states.get(scenario);
        const requests = requestsOf(scenario, state);
        const expected = scenario.expectStatus ?? 200;
        const notes = await preflight(baseUrl, requests[0]!, expected);
        if (plans.has(scenario)) notes.push(plans.get(scenario)!);
        const measured = await measureScenario(
          wrk.path,
          baseUrl,
          requests,
          scenario,
          database.url,
          notes,
          bareStack?.endpoints.get(scenario),
        );
        const result: HttpScenarioResult = {
          name: scenario.name,
          http: measured.http,
          rounds: measured.rounds,
          notes,
          targets: scenario.targets,
        };
        if (measured.pgbench) {
          result.pgbench = measured.pgbench;
          result.ratioToPgbench = round2(
            measured.http.requestsPerSecond / measured.pgbench.tps,
          );
          result.pgbenchScript = scenario.pgbenchScript;
          result.pgbenchDefines = scenario.pgbenchDefines;
        }
        if (measured.bare) {
          result.bare = measured.bare;
          if (measured.pgbench) {
            result.bareRatioToPgbench = round2(
              measured.bare.requestsPerSecond / measured.pgbench.tps,
            );
          }
        }
        if (scenario.targets) {
          const { ratioToPgbench, p99Ms } = scenario.targets;
          result.targetsMet = measured.http.errors === 0 &&
            (ratioToPgbench === undefined || (result.ratioToPgbench ?? 0) >= ratioToPgbench) &&
            (p99Ms === undefined || measured.http.p99Ms < p99Ms);
        }
        results.push(result);
      }
      await stop(server);
    }

    const timedResults: TimedScenarioResult[] = [];
    if (timed.length > 0) {
      const handle = await openDatabase({ databaseUrl: database.url, poolSize: 4 });
      try {
        const ctx = seedContext(handle.db, dataDir);
        for (const scenario of timed) {
          console.log(`timing ${scenario.name} ...`);
          const result = await scenario.run(ctx, states.get(scenario));
          timedResults.push({
            name: scenario.name,
            ...result,
            targets: scenario.targets,
            targetsMet: scenario.targets?.ms === undefined
              ? undefined
              : result.ms < scenario.targets.ms,
          });
        }
      } finally {
        await handle.close();
      }
    }

    printSummary(loadGenerator, loadAtStart, helloResult, results, timedResults);
    const report = {
      at: new Date().toISOString(),
      cores: navigator.hardwareConcurrency,
      /** 1/5/15-minute load averages before the run (the run itself adds ~10). */
      loadAtStart,
      loadGenerator,
      notes: wrk.note ? [wrk.note] : [],
      concurrency: CONCURRENCY,
      durationSeconds: DURATION_S,
      rounds: ROUNDS,
      warmupSeconds: WARMUP_S,
      helloWorld: helloResult,
      scenarios: results,
      timed: timedResults,
    };
    await Deno.mkdir(`${ROOT}bench/results`, { recursive: true });
    await Deno.writeTextFile(
      `${ROOT}bench/results/latest.json`,
      JSON.stringify(report, null, 2) + "\n",
    );
    console.log("\nwrote bench/results/latest.json");
  } finally {
    for (const child of children) await stop(child);
    await database.drop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) await main();
