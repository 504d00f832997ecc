/**
 * The round runner: one HTTP run (wrk, or the Deno fetch generator without it), and a
 * scenario's HTTP load, bare-stack load and pgbench yardstick warmed up, then measured in
 * alternating rounds and folded into one figure each.
 */
import { type LoadResult, round2, runLoad } from "./_load.ts";
import { type PgbenchResult, runPgbench } from "./_pgbench.ts";
import type { BareEndpoint } from "./_processes.ts";
import {
  type AnyHttp,
  CONCURRENCY,
  DURATION_S,
  ROUNDS,
  WARMUP_S,
  WRK_THREADS,
} from "./_settings.ts";
import { runWrk } from "./_wrk.ts";
import type { BenchRequest } from "./scenarios/_scenario.ts";

/**
 * Where the next HTTP run starts in a scenario's list of distinct requests, and whether the
 * list ran out (requests were sent twice).
 */
export interface LoadCursor {
  offset: number;
  wrapped: boolean;
}

/** One HTTP + pgbench round as measured, for the spread behind the folded figures. */
export interface RoundResult {
  httpRequestsPerSecond: number;
  httpP99Ms: number;
  bareRequestsPerSecond?: number;
  pgbenchTps?: number;
  pgbenchP99Ms?: number;
}

/** One HTTP run of `seconds` (wrk, or the Deno fetch generator without it). */
export async function httpRun(
  wrk: string | undefined,
  baseUrl: string,
  requests: BenchRequest[],
  scenario: Pick<AnyHttp, "expectStatus">,
  cursor: LoadCursor,
  seconds: number,
  concurrency = CONCURRENCY,
): Promise<LoadResult> {
  if (!wrk) {
    const at = cursor.offset;
    const result = await runLoad({
      baseUrl,
      concurrency,
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
    concurrency,
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
export function foldRounds(rounds: LoadResult[]): LoadResult {
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
export async function measureScenario(
  wrk: string | undefined,
  baseUrl: string,
  requests: BenchRequest[],
  scenario: AnyHttp,
  databaseUrl: string,
  notes: string[],
  bare?: BareEndpoint,
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
    bare ? httpRun(wrk, bare.baseUrl, bare.requests, {}, bareCursor, seconds) : undefined;
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
