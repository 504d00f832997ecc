/**
 * The store's time zone across three server processes: each process caches it
 * (app/platform/store.ts), and a change through one process applies to the next request on
 * every process. Observed through the daily report, whose default date is the store's today.
 */
import { assertEquals, assertNotEquals } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestUser } from "../_helpers/test_app.ts";
import { type Cluster, onEveryNode, PROCESSES, testServerUrl, withCluster } from "./_cluster.ts";

let c: Cluster;
let manager: TestUser;
let locationId: string;

withCluster(async (cluster) => {
  c = cluster;
  manager = await createUserWithPermissions(c.t, [
    "settings.edit",
    "settings.view",
    "pos.view",
    "reports.view",
  ]);
  const location = await api(c.node(0), "POST", "/v1/locations", {
    token: manager.token,
    body: { name: "Main street" },
  });
  assertEquals(location.status, 201, location.text);
  locationId = location.body.id;
});

const ignore = !testServerUrl();

/** The store's today as each process sees it (the daily report's default date). */
function todayEverywhere(): Promise<string[]> {
  return onEveryNode(async (i) => {
    const res = await api(c.node(i), "GET", `/v1/reports/daily?locationId=${locationId}`, {
      token: manager.token,
    });
    assertEquals(res.status, 200, res.text);
    return res.body.date;
  });
}

Deno.test({
  name: "a time zone changed through one process applies to the next request on every process",
  ignore,
  async fn() {
    // UTC+14 and UTC−11: 25 hours apart, so the two todays always differ.
    const zones = ["Pacific/Kiritimati", "Pacific/Pago_Pago"];
    const seen: string[] = [];
    for (let round = 0; round < 4; round++) {
      const via = round % PROCESSES;
      const res = await api(c.node(via), "PATCH", "/v1/store", {
        token: manager.token,
        body: { timezone: zones[round % 2] },
      });
      assertEquals(res.status, 200, res.text);
      const todays = await todayEverywhere();
      assertEquals(new Set(todays).size, 1, `round ${round}: ${todays.join(", ")}`);
      seen.push(todays[0]!);
    }
    assertNotEquals(seen[0], seen[1]);
    assertEquals(seen[0], seen[2]);
  },
});
