/**
 * The bench's report: the results of a run, printed as one table (then errors, notes and each
 * round) and written to bench/results/latest.json.
 */
import { serverTransport } from "./_db.ts";
import type { LoadResult } from "./_load.ts";
import type { PgbenchResult } from "./_pgbench.ts";
import type { RoundResult } from "./_rounds.ts";
import {
  type AnyHttp,
  type AnyTimed,
  CONCURRENCY,
  DURATION_S,
  ROOT,
  ROUNDS,
  WARMUP_S,
} from "./_settings.ts";
import type { EmbeddedRun, TimedResult } from "./scenarios/_scenario.ts";

export interface HttpScenarioResult {
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
  targets?: AnyHttp["targets"] | EmbeddedRun;
  targetsMet?: boolean;
  /** Set on the embedded default's run of a scenario (PostgreSQL otherwise). */
  engine?: "embedded";
  /** Embedded req/s / PostgreSQL req/s of the same scenario in this run. */
  ratioToPostgres?: number;
  notes: string[];
  pgbenchScript?: string;
  pgbenchDefines?: Record<string, string>;
}

export interface TimedScenarioResult extends TimedResult {
  name: string;
  targets?: AnyTimed["targets"];
  targetsMet?: boolean;
}

/** Everything a run measured, with what it ran on. */
export interface BenchRun {
  loadGenerator: string;
  /** 1/5/15-minute load averages before the run (the run itself adds ~10). */
  loadAtStart: number[];
  notes: string[];
  hello: LoadResult;
  results: HttpScenarioResult[];
  timed: TimedScenarioResult[];
}

function fmt(value: unknown): string {
  return value === undefined || value === null ? "" : String(value);
}

export function printSummary(
  { loadGenerator, loadAtStart, hello, results, timed }: BenchRun,
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
      const ratioTarget = r.targets && "ratioToPgbench" in r.targets
        ? r.targets.ratioToPgbench
        : undefined;
      const postgresRatioTarget = r.targets && "ratioToPostgres" in r.targets
        ? r.targets.ratioToPostgres
        : undefined;
      const target = [
        ratioTarget !== undefined ? `≥${ratioTarget}×` : "",
        postgresRatioTarget !== undefined ? `≥${postgresRatioTarget}× PG` : "",
        r.targets?.p50Ms !== undefined ? `p50<${r.targets.p50Ms}` : "",
        r.targets?.p99Ms !== undefined ? `p99<${r.targets.p99Ms}` : "",
      ].filter(Boolean).join(", ");
      const row = [
        r.name,
        fmt(r.http.requestsPerSecond),
        fmt(r.http.p50Ms),
        fmt(r.http.p99Ms),
        fmt(r.pgbench?.tps),
        fmt(r.pgbench?.p99Ms),
        r.ratioToPostgres !== undefined ? `${r.ratioToPostgres} of PG` : fmt(r.ratioToPgbench),
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
      `load average before the run ${loadAtStart.map((n) => n.toFixed(2)).join(" ")}, ` +
      serverTransport(),
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

/** Writes the run to bench/results/latest.json. */
export async function writeReport(
  { loadGenerator, loadAtStart, notes, hello, results, timed }: BenchRun,
): Promise<void> {
  const report = {
    at: new Date().toISOString(),
    cores: navigator.hardwareConcurrency,
    loadAtStart,
    loadGenerator,
    database: serverTransport(),
    notes,
    concurrency: CONCURRENCY,
    durationSeconds: DURATION_S,
    rounds: ROUNDS,
    warmupSeconds: WARMUP_S,
    helloWorld: hello,
    scenarios: results,
    timed,
  };
  await Deno.mkdir(`${ROOT}bench/results`, { recursive: true });
  await Deno.writeTextFile(
    `${ROOT}bench/results/latest.json`,
    JSON.stringify(report, null, 2) + "\n",
  );
  console.log("\nwrote bench/results/latest.json");
}
