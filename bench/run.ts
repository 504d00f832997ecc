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
 * Scenarios that name `embedded` targets are then also measured on the embedded default (a
 * PGlite data directory of their own, `_embedded.ts`), with their req/s ratio to PostgreSQL.
 * HTTP load comes from `wrk` (installed with apt-get when missing; without it, from the Deno
 * fetch generator in `_load.ts`, with a note). Timed scenarios (no HTTP) run last.
 * A fresh database `shop_bench_<random>` is created on BENCH_DATABASE_URL's server
 * (default postgres://postgres@127.0.0.1:5432/postgres), migrated, seeded and dropped.
 *
 * BENCH_DURATION (seconds per measurement, default 10), BENCH_ROUNDS (default 3),
 * BENCH_WARMUP (seconds, default 8), BENCH_DB_POOL_SIZE (default: the server's own),
 * BENCH_CONCURRENCY (default 10), BENCH_WRK_THREADS (default 1), BENCH_ONLY (run only the
 * scenarios whose name contains this text; case-insensitive, `a,b` for either).
 * Results: one table on stdout and bench/results/latest.json.
 *
 * BENCH_SCALE=small|shop10y runs the size bench instead (`_scale.ts`): a whole shop seeded in
 * bulk (`_scale_seed.ts`; shop10y is ten years of a busy shop, a million transactions), then
 * every list route and filter measured on it (`_list_routes.ts`); results in
 * bench/results/scale-<scale>.json.
 *
 * The jobs live beside it: `_settings.ts` (the env above; BENCH_DATABASE_URL in `_db.ts`),
 * `_seed.ts` (+ `_explain.ts`), `_processes.ts` (server, ceiling and bare-stack children),
 * `_http_scenarios.ts` and `_rounds.ts` (the HTTP measurements and their rounds),
 * `_timed_scenarios.ts`, `_report.ts` (the table and latest.json).
 */
import { createBenchDatabase } from "./_db.ts";
import { measureCeiling, measureHttpScenarios } from "./_http_scenarios.ts";
import { stop } from "./_processes.ts";
import { printSummary, writeReport } from "./_report.ts";
import { seedScenarios } from "./_seed.ts";
import { type AnyHttp, CONCURRENCY, isTimed, SELECTED, WRK_THREADS } from "./_settings.ts";
import { runTimedScenarios } from "./_timed_scenarios.ts";
import { findWrk } from "./_wrk.ts";
import { measureEmbeddedScenarios } from "./_embedded.ts";
import { runScaleBench } from "./_scale.ts";
import { scaleFromEnv } from "./_scale_seed.ts";

async function main(): Promise<void> {
  const loadAtStart = Deno.loadavg();
  const wrk = await findWrk();
  const loadGenerator = wrk.path
    ? `wrk -t${WRK_THREADS} -c${CONCURRENCY}`
    : "Deno fetch load generator (wrk unavailable)";
  if (wrk.note) console.log(`NOTE: ${wrk.note}`);
  const scale = scaleFromEnv();
  if (scale) {
    if (!wrk.path) throw new Error("BENCH_SCALE needs wrk (apt-get install wrk)");
    return await runScaleBench(scale, wrk.path);
  }
  const database = await createBenchDatabase();
  const dataDir = await Deno.makeTempDir({ prefix: "shop-bench-" });
  const children: Deno.ChildProcess[] = [];
  const http = SELECTED.filter((s): s is AnyHttp => !isTimed(s));
  const timed = SELECTED.filter(isTimed);
  try {
    const seeded = await seedScenarios(database, dataDir, SELECTED, http);
    const hello = await measureCeiling(wrk.path, children);
    const onPostgres = await measureHttpScenarios(wrk.path, database.url, http, seeded, children);
    const onEmbedded = await measureEmbeddedScenarios(wrk.path, http, onPostgres, children);
    const results = [...onPostgres, ...onEmbedded];
    const timedResults = await runTimedScenarios(database.url, dataDir, timed, seeded);
    const run = {
      loadGenerator,
      loadAtStart,
      notes: wrk.note ? [wrk.note] : [],
      hello,
      results,
      timed: timedResults,
    };
    printSummary(run);
    await writeReport(run);
  } finally {
    for (const child of children) await stop(child);
    await database.drop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) await main();
