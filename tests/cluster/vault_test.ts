/**
 * The vault across three server processes on one PostgreSQL (app/vault/vault_peers.ts): an
 * unlock or a lock through any process applies to the next request on every process, a
 * process restarted while the others are unlocked gets the key, a forged `server_processes`
 * row gets nothing, and once every process has stopped the vault is locked.
 */
import postgres from "postgres";
import { assert, assertEquals, assertMatch } from "../_helpers/assert.ts";
import { api } from "../_helpers/test_app.ts";
import { removeDir, runOps } from "../_helpers/processes.ts";
import { createPeerIdentity, deriveClusterKey } from "../../domain/platform/peer_keys.ts";
import {
  assertProblem,
  createCategory,
  createEntry,
  initVault,
  lock,
  reveal,
  unlock,
  VAULT_ENV,
  type VaultUsers,
  vaultUsers,
} from "../vault/_fixtures.ts";
import {
  type Cluster,
  eventually,
  NODES,
  onEveryNode,
  PROCESSES,
  testServerUrl,
  withCluster,
} from "./_cluster.ts";

let c: Cluster;
let users: VaultUsers;
let entryId: string;
let secret: string;

withCluster(async (cluster) => {
  c = cluster;
  users = await vaultUsers(c.t);
}, VAULT_ENV);

const ignore = !testServerUrl();

async function lockedEverywhere(): Promise<boolean[]> {
  return await onEveryNode(async (i) => {
    const res = await api(c.node(i), "GET", "/v1/vault/status", { token: users.viewer.token });
    assertEquals(res.status, 200, res.text);
    return res.body.locked;
  });
}

Deno.test({
  name: "every process is a member: one fresh row each in server_processes, with its host and pid",
  ignore,
  async fn() {
    const rows = await eventually("three members", async () => {
      const found = await c.t.database.db.selectFrom("server_processes")
        .select(["id", "public_key", "proof", "host", "pid"]).execute();
      return found.length === PROCESSES ? found : undefined;
    });
    assertEquals(new Set(rows.map((r) => r.public_key)).size, PROCESSES);
    assertEquals(rows.map((r) => r.pid).sort(), c.nodes.map((n) => n.pid).sort());
    assert(rows.every((r) => r.host === Deno.hostname()));
  },
});

Deno.test({
  name: "initialize and unlock through one process unlock every process; a lock locks them all",
  ignore,
  async fn() {
    await initVault(c.on(0), users.admin);
    assertEquals(await lockedEverywhere(), [false, false, false]);
    const category = await createCategory(c.on(1), users.admin);
    const entry = await createEntry(c.on(1), users.admin, { categoryId: category.id });
    entryId = entry.id;
    secret = await reveal(c.on(1), users.admin, entryId);
    for (const i of NODES) assertEquals(await reveal(c.on(i), users.admin, entryId), secret);

    for (let round = 0; round < PROCESSES; round++) {
      await lock(c.on(round), users.admin);
      assertEquals(await lockedEverywhere(), [true, true, true], `locked through ${round}`);
      for (const i of NODES) {
        const res = await api(c.node(i), "POST", `/v1/vault/entries/${entryId}/reveal`, {
          token: users.admin.token,
        });
        assertProblem(res, 423, "vault_locked");
      }
      const via = (round + 1) % PROCESSES;
      await unlock(c.on(via), users.viewer);
      assertEquals(await lockedEverywhere(), [false, false, false], `unlocked through ${via}`);
      for (const i of NODES) assertEquals(await reveal(c.on(i), users.admin, entryId), secret);
    }
  },
});

/** `ops status` on the cluster's database, as an operator runs it with DATABASE_URL. */
async function opsStatus(...args: string[]) {
  const dataDir = await Deno.makeTempDir({ prefix: "shop-cluster-status-" });
  try {
    const result = await runOps(["status", ...args], {
      dataDir,
      env: { DATABASE_URL: c.databaseUrl, JWT_SECRET: c.t.deps.config.jwtSecret! },
    });
    assertEquals(result.code, 0, result.stderr);
    return result.stdout;
  } finally {
    await removeDir(dataDir);
  }
}

Deno.test({
  name: "ops status lists every running process and reports the vault as they do",
  ignore,
  async fn() {
    assertEquals(await lockedEverywhere(), [false, false, false]);
    const unlocked = JSON.parse(await opsStatus("--json"));
    assertEquals(unlocked.serverRunning, true);
    assertEquals(
      unlocked.servers.map((s: { url: string; pid: number }) => [s.url, s.pid]).sort(),
      c.nodes.map((n) => [n.url, n.pid]).sort(),
    );
    assertEquals(unlocked.vault, { initialized: true, locked: false });
    const table = await opsStatus();
    for (const node of c.nodes) {
      assertMatch(
        table,
        new RegExp(`^server +${node.url} \\(pid ${node.pid}, running since `, "m"),
      );
    }
    assertMatch(table, /^vault +unlocked$/m);

    await lock(c.on(1), users.admin);
    const locked = JSON.parse(await opsStatus("--json"));
    assertEquals(locked.vault, { initialized: true, locked: true });
    assertEquals(locked.servers.map((s: { vaultUnlocked: boolean }) => s.vaultUnlocked), [
      false,
      false,
      false,
    ]);
    await unlock(c.on(0), users.viewer);
    assertEquals(JSON.parse(await opsStatus("--json")).vault.locked, false);
  },
});

Deno.test({
  name: "a process restarted while the others are unlocked is handed the key",
  ignore,
  async fn() {
    assertEquals(await lockedEverywhere(), [false, false, false]);
    await c.restart(2);
    await eventually("the restarted process unlocked", async () => {
      const res = await api(c.node(2), "GET", "/v1/vault/status", { token: users.viewer.token });
      return res.body?.locked === false ? true : undefined;
    }, 5000);
    assertEquals(await reveal(c.on(2), users.admin, entryId), secret);
  },
});

Deno.test({
  name: "a forged server_processes row (no cluster secret, or a copied key) is handed nothing",
  ignore,
  async fn() {
    assertEquals(await lockedEverywhere(), [false, false, false]);
    // The attacker can write to the database and listen on it, but lacks JWT_SECRET.
    const forged = await createPeerIdentity(
      crypto.randomUUID(),
      await deriveClusterKey("an attacker's guess at the secret, 32+ bytes"),
    );
    const [real] = await c.t.database.db.selectFrom("server_processes")
      .select(["public_key", "proof"]).limit(1).execute();
    const copied = crypto.randomUUID();
    const heard: Array<Record<string, unknown>> = [];
    const spy = postgres(c.databaseUrl, { max: 1, onnotice: () => {} });
    try {
      await spy.listen("shop_cluster", (payload) => {
        heard.push(payload === "end" ? { end: true } : JSON.parse(payload));
      });
      await spy`
        INSERT INTO server_processes (id, public_key, proof, started_at, seen_at) VALUES
          (${forged.processId}, ${forged.publicKey}, ${forged.proof}, now(), now()),
          (${copied}, ${real!.public_key}, ${real!.proof}, now(), now())`;
      // Ask for the key as a new member would, then make every process hand it out again.
      for (const from of [forged.processId, copied]) {
        await spy`SELECT pg_notify('shop_cluster', ${
          JSON.stringify({ t: "vault_hello", from, seq: 1 })
        })`;
      }
      await lock(c.on(0), users.admin);
      await unlock(c.on(1), users.viewer);
      assertEquals(await lockedEverywhere(), [false, false, false]);
      // Give any straggling notification time to arrive before looking.
      await spy`SELECT pg_notify('shop_cluster', 'end')`;
      await eventually(
        "the spy's own marker",
        () => Promise.resolve(heard.some((m) => m.end) ? true : undefined),
      );
      const keysSent = heard.filter((m) => m?.t === "vault_key");
      assert(keysSent.length >= PROCESSES - 1, "the real processes got the key");
      assertEquals(
        keysSent.filter((m) => m.to === forged.processId || m.to === copied),
        [],
        "nothing was sealed for a forged row",
      );
    } finally {
      await spy`DELETE FROM server_processes WHERE id IN (${forged.processId}, ${copied})`;
      await spy.end();
    }
  },
});

Deno.test({
  name: "when every process has stopped, the vault is locked: nothing is left to open it",
  ignore,
  async fn() {
    assertEquals(await lockedEverywhere(), [false, false, false]);
    for (const i of NODES) await c.stopNode(i);
    await c.restart(0);
    const res = await api(c.node(0), "GET", "/v1/vault/status", { token: users.viewer.token });
    assertEquals(res.body, { initialized: true, locked: true });
    await unlock(c.on(0), users.viewer);
    assertEquals(await reveal(c.on(0), users.admin, entryId), secret);
    for (const i of [1, 2]) await c.restart(i);
  },
});
