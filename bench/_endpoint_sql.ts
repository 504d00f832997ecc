/**
 * The statements each of a scenario's requests sends (those `requestsOf` gives, the ones the
 * measured runs send: `_http_scenarios.ts` sentRequests), in order, for the bare-stack
 * yardstick (`_bare.ts`): each request runs twice on an in-process app over the bench
 * database, and the second run is captured (its caches warm, as on the measured server: the
 * actor and the modules are then not read). So the bare stack runs the same SQL with the same
 * values as the endpoint (a scan's SKU, UPC and serial lookups alike, in the same turn), and
 * the gap between the two is only the app's own work (authentication, validation, mapping,
 * JSON).
 */
import { loadConfig } from "../app/config.ts";
import { createDeps } from "../app/create_deps.ts";
import { createMemoryLogger } from "../app/logger.ts";
import { createApp } from "../server/app.ts";
import { TracingDatabase } from "../tests/_helpers/query_plans.ts";
import { JWT_SECRET } from "./_db.ts";
import type { AnyHttp } from "./_settings.ts";
import type { BareStatement, BenchRequest } from "./scenarios/_scenario.ts";

export async function endpointStatements(
  databaseUrl: string,
  scenarios: readonly AnyHttp[],
  requestsOf: (scenario: AnyHttp) => readonly BenchRequest[],
): Promise<Map<AnyHttp, BareStatement[][]>> {
  const traced = new TracingDatabase(databaseUrl);
  const dataDir = await Deno.makeTempDir({ prefix: "shop-bench-capture-" });
  const captured = new Map<AnyHttp, BareStatement[][]>();
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
      const perRequest: BareStatement[][] = [];
      for (const request of requestsOf(scenario)) {
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
        perRequest.push(queries.map((q) => ({ sql: q.sql, parameters: q.parameters })));
      }
      captured.set(scenario, perRequest);
    }
  } finally {
    await traced.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
  return captured;
}
