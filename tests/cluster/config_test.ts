/**
 * The runtime config across three server processes: each process caches it
 * (app/platform/runtime_config.ts), and a `PATCH /config` through one process applies to the
 * next request on every process. Observed through the PIN login, which answers the config's
 * `posLockTimeoutMinutes`.
 */
import { assertEquals } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestUser } from "../_helpers/test_app.ts";
import {
  type Cluster,
  freshClientIp,
  onEveryNode,
  PROCESSES,
  testServerUrl,
  withCluster,
} from "./_cluster.ts";

let c: Cluster;
let settings: TestUser;
let clerk: TestUser;

withCluster(async (cluster) => {
  c = cluster;
  settings = await createUserWithPermissions(c.t, ["settings.admin"]);
  clerk = await createUserWithPermissions(c.t, ["pos.view"]);
  const set = await api(c.node(0), "POST", "/v1/auth/set-pin", {
    token: clerk.token,
    body: { pin: "4826" },
  });
  assertEquals(set.status, 204, set.text);
});

/** The POS lock timeout each process answers a PIN login with. */
function lockTimeoutEverywhere(): Promise<number[]> {
  return onEveryNode(async (i) => {
    const res = await api(c.node(i), "POST", "/v1/auth/pin-login", {
      body: { code: `${clerk.employeeNumber}4826` },
      headers: { "X-Forwarded-For": freshClientIp() },
    });
    assertEquals(res.status, 200, res.text);
    return res.body.lockTimeoutMinutes;
  });
}

Deno.test({
  name: "a runtime config changed through one process applies to the next request on every process",
  ignore: !testServerUrl(),
  async fn() {
    // Every process has the value cached before each change.
    assertEquals(await lockTimeoutEverywhere(), [15, 15, 15]);
    for (const [round, minutes] of [7, 42, 15].entries()) {
      const res = await api(c.node(round % PROCESSES), "PATCH", "/v1/config", {
        token: settings.token,
        body: { posLockTimeoutMinutes: minutes },
      });
      assertEquals(res.status, 200, res.text);
      assertEquals(await lockTimeoutEverywhere(), [minutes, minutes, minutes], `round ${round}`);
    }
  },
});
