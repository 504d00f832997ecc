/**
 * The embedded default's measurements: the scenarios that ask for it (`embedded` targets) are
 * seeded into a PGlite data directory of their own (`engine: "embedded"`), served by the real
 * server on that directory (no DATABASE_URL), and loaded like the PostgreSQL runs (warm-up,
 * then ROUNDS runs folded). There is no pgbench yardstick for PGlite: the report gives each
 * scenario's req/s as a ratio to its PostgreSQL run in the same bench run instead.
 */
import { sql } from "kysely";
import { openDatabase } from "../app/db/connect.ts";
import { migrateToLatest } from "../app/db/migrate.ts";
import { runSeeds } from "../app/seed.ts";
import { seedContext } from "./_db.ts";
import { latencyTargetsMet, preflight, sentRequests } from "./_http_scenarios.ts";
import { round2 } from "./_load.ts";
import { startServer, stop } from "./_processes.ts";
import type { HttpScenarioResult } from "./_report.ts";
import { foldRounds, httpRun, type LoadCursor } from "./_rounds.ts";
import { type AnyHttp, CONCURRENCY, DURATION_S, ROUNDS, WARMUP_S } from "./_settings.ts";

export async function measureEmbeddedScenarios(
  wrk: string | undefined,
  http: readonly AnyHttp[],
  postgresResults: readonly HttpScenarioResult[],
  children: Deno.ChildProcess[],
): Promise<HttpScenarioResult[]> {
  const selected = http.filter((s) => s.embedded?.length);
  if (selected.length === 0) return [];
  const dataDir = await Deno.makeTempDir({ prefix: "shop-bench-embedded-" });
  const results: HttpScenarioResult[] = [];
  try {
    console.log(`seeding the embedded default in ${dataDir} ...`);
    const states = new Map<AnyHttp, unknown>();
    const handle = await openDatabase({ dataDir });
    try {
      await migrateToLatest(handle.db);
      await runSeeds(handle.db);
      const ctx = seedContext(handle.db, dataDir, "embedded");
      for (const scenario of selected) {
        const started = performance.now();
        states.set(scenario, await scenario.seed(ctx));
        console.log(`  ${scenario.name}: ${Math.round(performance.now() - started)} ms`);
      }
      await sql`VACUUM ANALYZE`.execute(handle.db);
    } finally {
      await handle.close();
    }
    const server = await startServer({ dataDir }, children);
    for (const scenario of selected) {
      for (const embeddedRun of scenario.embedded!) {
        const clients = embeddedRun.concurrency ?? CONCURRENCY;
        const label = `${clients} client${clients === 1 ? "" : "s"}`;
        console.log(`measuring ${scenario.name} on the embedded default, ${label} ...`);
        const requests = sentRequests(scenario, states.get(scenario));
        const notes = await preflight(server.baseUrl, requests[0]!, scenario.expectStatus ?? 200);
        const cursor: LoadCursor = { offset: requests.length > 1 ? 1 : 0, wrapped: false };
        const run = (seconds: number) =>
          httpRun(wrk, server.baseUrl, requests, scenario, cursor, seconds, clients);
        await run(WARMUP_S);
        const rounds = [];
        for (let round = 0; round < ROUNDS; round++) rounds.push(await run(DURATION_S / ROUNDS));
        if (cursor.wrapped) notes.push("requests repeated: the distinct requests ran out");
        const measured = foldRounds(rounds);
        const onPostgres = postgresResults.find((r) => r.name === scenario.name && !r.engine);
        const ratioToPostgres = onPostgres
          ? round2(measured.requestsPerSecond / onPostgres.http.requestsPerSecond)
          : undefined;
        results.push({
          name: `${scenario.name} [embedded, ${label}]`,
          engine: "embedded",
          http: measured,
          rounds: rounds.map((r) => ({
            httpRequestsPerSecond: r.requestsPerSecond,
            httpP99Ms: r.p99Ms,
          })),
          notes,
          targets: embeddedRun,
          ratioToPostgres,
          targetsMet: latencyTargetsMet(measured, embeddedRun) &&
            (embeddedRun.ratioToPostgres === undefined ||
              (ratioToPostgres ?? 0) >= embeddedRun.ratioToPostgres),
        });
      }
    }
    await stop(server.child);
  } finally {
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
  return results;
}
