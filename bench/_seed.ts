/**
 * Seeding the bench database: migrations and the app's seeds, then every selected scenario's
 * own data (timed per scenario), a vacuum and checkpoint, and the query plans of the HTTP
 * scenarios' pgbench statements.
 */
import { sql } from "kysely";
import { openDatabase } from "../app/db/connect.ts";
import { migrateToLatest } from "../app/db/migrate.ts";
import { runSeeds } from "../app/seed.ts";
import { type BenchDatabase, seedContext } from "./_db.ts";
import { explain } from "./_explain.ts";
import type { AnyHttp } from "./_settings.ts";
import type { AnyScenario } from "./scenarios/_scenario.ts";

export interface Seeded {
  /** Each scenario's seed result, handed to its requests or its timed run. */
  states: Map<unknown, unknown>;
  /** The plan note of each HTTP scenario whose pgbench statement could be explained. */
  plans: Map<unknown, string>;
}

export async function seedScenarios(
  database: BenchDatabase,
  dataDir: string,
  selected: readonly AnyScenario[],
  http: readonly AnyHttp[],
): Promise<Seeded> {
  console.log(`seeding ${database.name} ...`);
  const states = new Map<unknown, unknown>();
  const plans = new Map<unknown, string>();
  const handle = await openDatabase({ databaseUrl: database.url, poolSize: 4 });
  try {
    await migrateToLatest(handle.db);
    await runSeeds(handle.db);
    const ctx = seedContext(handle.db, dataDir);
    for (const scenario of selected) {
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
  return { states, plans };
}
