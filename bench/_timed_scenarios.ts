/** The timed scenarios (no HTTP): each one's work run once in-process on the bench database. */
import { openDatabase } from "../app/db/connect.ts";
import { seedContext } from "./_db.ts";
import { startServer, stop } from "./_processes.ts";
import type { TimedScenarioResult } from "./_report.ts";
import type { Seeded } from "./_seed.ts";
import type { AnyTimed } from "./_settings.ts";

export async function runTimedScenarios(
  databaseUrl: string,
  dataDir: string,
  timed: AnyTimed[],
  { states }: Seeded,
): Promise<TimedScenarioResult[]> {
  const results: TimedScenarioResult[] = [];
  if (timed.length === 0) return results;
  const handle = await openDatabase({ databaseUrl, poolSize: 4 });
  try {
    const ctx = {
      ...seedContext(handle.db, dataDir),
      async startServer() {
        const children: Deno.ChildProcess[] = [];
        const { baseUrl, child } = await startServer(databaseUrl, children);
        return { baseUrl, stop: () => stop(child) };
      },
    };
    for (const scenario of timed) {
      console.log(`timing ${scenario.name} ...`);
      const result = await scenario.run(ctx, states.get(scenario));
      results.push({
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
  return results;
}
