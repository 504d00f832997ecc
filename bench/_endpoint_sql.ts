/**
 * The statements one request of a scenario sends, in order, for the bare-stack yardstick
 * (`_bare.ts`): the request runs twice on an in-process app over the bench database, and the
 * second run is captured (its caches warm, as on the measured server: the actor and the
 * modules are then not read). So the bare stack runs the same SQL as the endpoint, and the gap
 * between the two is only the app's own work (authentication, validation, mapping, JSON).
 */
import { loadConfig } from "../app/config.ts";
import { createDeps } from "../app/create_deps.ts";
import { createMemoryLogger } from "../app/logger.ts";
import { createApp } from "../server/app.ts";
import { TracingDatabase } from "../tests/_helpers/query_plans.ts";
import { JWT_SECRET } from "./_db.ts";
import type { AnyHttp } from "./_settings.ts";
import type { BareStatement } from "./scenarios/_scenario.ts";

export async function endpointStatements(
  databaseUrl: string,
  scenarios: readonly AnyHttp[],
  states: Map<unknown, unknown>,
): Promise<Map<AnyHttp, BareStatement[]>> {
  const traced = new TracingDatabase(databaseUrl);
  const dataDir = await Deno.makeTempDir({ prefix: "shop-bench-capture-" });
  const captured = new Map<AnyHttp, BareStatement[]>();
  try {
    // No notifications: this app is alone, so it caches (app/platform/cluster.ts).
    const deps = createDeps({
      config: loadConfig({ APP_ENV: "test", JWT_SECRET, DATA_DIR: dataDir }),
      db: traced.db,
      dbKind: "postgres",
      logger: createMemoryLogger(),
    });
    const app = createApp(deps);
    for (const scenario of scenarios) {
      const request = scenario.request(0, states.get(scenario) as never);
      const send = async () => {
        const response = await app.request(request.path, {
          method: request.method ?? "GET",
          headers: request.headers,
          body: request.body,
        });
        await response.body?.cancel();
      };
      await send();
      const queries = await traced.queriesOf(send);
      // An endpoint that failed sends no statement: its bare stack would measure nothing.
      if (queries.length === 0) {
        throw new Error(`${scenario.name}: the request sent no statement to capture`);
      }
      captured.set(scenario, queries.map((q) => ({ sql: q.sql, parameters: q.parameters })));
    }
  } finally {
    await traced.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
  return captured;
}
