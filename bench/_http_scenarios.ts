/**
 * The HTTP measurements: the hello-world ceiling, then every HTTP scenario against the real
 * server (next to its pgbench yardstick and, when it names its statement, the bare stack),
 * with ratios and targets worked out.
 */
import { endpointStatements } from "./_endpoint_sql.ts";
import { type LoadResult, round2 } from "./_load.ts";
import { startBareStack, startHello, startServer, stop } from "./_processes.ts";
import type { HttpScenarioResult } from "./_report.ts";
import { httpRun, type LoadCursor, measureScenario } from "./_rounds.ts";
import type { Seeded } from "./_seed.ts";
import { type AnyHttp, DURATION_S, WARMUP_S } from "./_settings.ts";
import type { BenchRequest } from "./scenarios/_scenario.ts";

/** Distinct requests prepared for a scenario whose requests differ (pages, ids). */
const MAX_DISTINCT_REQUESTS = 120_000;

const same = (a: BenchRequest, b: BenchRequest) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The requests to send: one (every request alike) or the first MAX_DISTINCT_REQUESTS of the
 * scenario's sequence (each sent once).
 */
export function requestsOf(scenario: AnyHttp, state: unknown): BenchRequest[] {
  const first = scenario.request(0, state);
  const second = scenario.request(1, state);
  if (same(first, second)) return [first];
  const list = [first, second];
  for (let i = 2; i < MAX_DISTINCT_REQUESTS; i++) list.push(scenario.request(i, state));
  return list;
}

/**
 * Requests the bare stack replays per scenario, in turn (their statements captured by
 * `_endpoint_sql.ts`). A thousand scans cover a counter's day of distinct items.
 */
const REPLAYED_REQUESTS = 1_000;

/**
 * The requests a scenario's measured runs send: with a bare-stack yardstick, only those the
 * bare stack replays (its first REPLAYED_REQUESTS), so the two sides find the same rows in
 * memory. Sent its 120,000 distinct scans, each code new, the app read pages the yardstick,
 * cycling through its captured codes, had in memory: 3,319 against 4,858 req/s in the same
 * rounds; sent the same 1,000 codes, 6,471 against 6,768.
 */
export function sentRequests(scenario: AnyHttp, state: unknown): BenchRequest[] {
  const requests = requestsOf(scenario, state);
  return scenario.bareStatement ? requests.slice(0, REPLAYED_REQUESTS) : requests;
}

/** Sends one request and describes the answer (status, rows matched). */
export async function preflight(baseUrl: string, req: BenchRequest, expected: number) {
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

/** No errors, and p50/p99 under their targets (when set). */
export function latencyTargetsMet(
  http: LoadResult,
  targets: { p50Ms?: number; p99Ms?: number },
): boolean {
  return http.errors === 0 &&
    (targets.p50Ms === undefined || http.p50Ms < targets.p50Ms) &&
    (targets.p99Ms === undefined || http.p99Ms < targets.p99Ms);
}

/** The ceiling: a bare `Deno.serve` answering "ok", warmed up, then measured for DURATION. */
export async function measureCeiling(
  wrk: string | undefined,
  children: Deno.ChildProcess[],
): Promise<LoadResult> {
  console.log("measuring the hello-world ceiling ...");
  const hello = await startHello(children);
  const cursor: LoadCursor = { offset: 0, wrapped: false };
  await httpRun(wrk, hello.baseUrl, [{ path: "/" }], {}, cursor, WARMUP_S);
  const result = await httpRun(wrk, hello.baseUrl, [{ path: "/" }], {}, cursor, DURATION_S);
  await stop(hello.child);
  return result;
}

/** Every HTTP scenario on one server (and one bare stack) over the seeded bench database. */
export async function measureHttpScenarios(
  wrk: string | undefined,
  databaseUrl: string,
  http: AnyHttp[],
  { states, plans }: Seeded,
  children: Deno.ChildProcess[],
): Promise<HttpScenarioResult[]> {
  const results: HttpScenarioResult[] = [];
  if (http.length === 0) return results;
  const server = await startServer(databaseUrl, children);
  const requestsFor = (scenario: AnyHttp) => sentRequests(scenario, states.get(scenario));
  const bareStack = await startBareStack(
    http,
    databaseUrl,
    children,
    await endpointStatements(databaseUrl, http.filter((s) => s.bareStatement), requestsFor),
  );
  for (const scenario of http) {
    console.log(`measuring ${scenario.name} ...`);
    const requests = requestsFor(scenario);
    const expected = scenario.expectStatus ?? 200;
    const notes = await preflight(server.baseUrl, requests[0]!, expected);
    if (plans.has(scenario)) notes.push(plans.get(scenario)!);
    const measured = await measureScenario(
      wrk,
      server.baseUrl,
      requests,
      scenario,
      databaseUrl,
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
      result.ratioToPgbench = round2(measured.http.requestsPerSecond / measured.pgbench.tps);
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
      const { ratioToPgbench } = scenario.targets;
      result.targetsMet = latencyTargetsMet(measured.http, scenario.targets) &&
        (ratioToPgbench === undefined || (result.ratioToPgbench ?? 0) >= ratioToPgbench);
    }
    results.push(result);
  }
  await stop(server.child);
  return results;
}
