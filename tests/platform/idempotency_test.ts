/**
 * `Idempotency-Key` on POST (API §1.4): a retry replays the first response without acting
 * twice; another body with the same key → 409; keys belong to one user; concurrent
 * duplicates act once; a 5xx is not remembered.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import type { AppDeps } from "../../app/deps.ts";
import { runHousekeeping } from "../../app/housekeeping.ts";
import { ApiRouter } from "../../server/route.ts";
import {
  api,
  createTestApp,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let flakyCalls = 0;
let slowCalls = 0;

/** Fails with a 500 on its first call, answers 201 afterwards. */
function flakyProbe(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/idempotency-probe", "Probe").route({
    method: "post",
    path: "/",
    summary: "probe",
    access: "authenticated",
    responses: { 201: { description: "ok" } },
  }, (c) => {
    flakyCalls++;
    if (flakyCalls === 1) throw new Error("transient failure");
    return c.json({ calls: flakyCalls }, 201);
  }).route({
    method: "post",
    path: "/slow-failure",
    summary: "probe",
    access: "authenticated",
    responses: { 201: { description: "ok" } },
  }, async (c) => {
    slowCalls++;
    if (slowCalls === 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      throw new Error("slow transient failure");
    }
    return c.json({ calls: slowCalls }, 201);
  });
}

Deno.test.beforeAll(async () => {
  t = await createTestApp({ extraRouters: [flakyProbe] });
  alice = await createUserWithPermissions(t, ["settings.edit", "settings.view"]);
  bob = await createUserWithPermissions(t, ["settings.edit", "settings.view"]);
});
Deno.test.afterAll(async () => {
  await t.close();
});

async function countLocations(name: string): Promise<number> {
  const rows = await t.deps.db.selectFrom("locations").select("id").where("name", "=", name)
    .execute();
  return rows.length;
}

function createLocation(user: TestUser, key: string, name: string) {
  return api(t.app, "POST", "/v1/locations", {
    token: user.token,
    headers: { "Idempotency-Key": key },
    body: { name },
  });
}

Deno.test("a retry with the same key and body replays the first response and acts once", async () => {
  const first = await createLocation(alice, "key-replay", "Replay Street");
  assertEquals(first.status, 201);
  assertEquals(first.headers.get("Idempotent-Replayed"), null);
  const second = await createLocation(alice, "key-replay", "Replay Street");
  assertEquals(second.status, 201);
  assertEquals(second.text, first.text);
  assertEquals(second.headers.get("Idempotent-Replayed"), "true");
  assertEquals(second.headers.get("Content-Type"), first.headers.get("Content-Type"));
  assertEquals(await countLocations("Replay Street"), 1);
});

Deno.test("the same key with a different body is refused with 409 idempotency_key_reused", async () => {
  assertEquals((await createLocation(alice, "key-reused", "First Body")).status, 201);
  const other = await createLocation(alice, "key-reused", "Second Body");
  assertEquals(other.status, 409);
  assertEquals(other.body.code, "idempotency_key_reused");
  assertEquals(await countLocations("Second Body"), 0);
});

Deno.test("keys are scoped per user: another user's identical request acts on its own", async () => {
  const mine = await createLocation(alice, "key-shared", "Scoped Lane");
  const theirs = await createLocation(bob, "key-shared", "Scoped Lane");
  assertEquals(mine.status, 201);
  assertEquals(theirs.status, 201);
  assertEquals(theirs.headers.get("Idempotent-Replayed"), null);
  assert(mine.body.id !== theirs.body.id);
  assertEquals(await countLocations("Scoped Lane"), 2);
});

Deno.test("parallel identical requests with one key act once and all get the same response", async () => {
  const responses = await Promise.all(
    Array.from({ length: 6 }, () => createLocation(alice, "key-parallel", "Parallel Plaza")),
  );
  assertEquals(responses.map((r) => r.status), Array(6).fill(201));
  assertEquals(new Set(responses.map((r) => r.text)).size, 1);
  assertEquals(responses.filter((r) => r.headers.get("Idempotent-Replayed") === null).length, 1);
  assertEquals(await countLocations("Parallel Plaza"), 1);
});

Deno.test("a 5xx response is not stored: the retry runs again and its success is replayed", async () => {
  const call = () =>
    api(t.app, "POST", "/v1/idempotency-probe", {
      token: alice.token,
      headers: { "Idempotency-Key": "key-flaky" },
      body: {},
    });
  const failed = await call();
  assertEquals(failed.status, 500);
  const retried = await call();
  assertEquals(retried.status, 201);
  assertEquals(retried.body, { calls: 2 });
  assertEquals(retried.headers.get("Idempotent-Replayed"), null);
  const replayed = await call();
  assertEquals(replayed.body, { calls: 2 });
  assertEquals(replayed.headers.get("Idempotent-Replayed"), "true");
  assertEquals(flakyCalls, 2);
});

Deno.test("a duplicate waiting for a first attempt that fails runs itself, once", async () => {
  const call = () =>
    api(t.app, "POST", "/v1/idempotency-probe/slow-failure", {
      token: alice.token,
      headers: { "Idempotency-Key": "key-slow" },
      body: {},
    });
  const first = call();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const [failed, waited] = await Promise.all([first, call()]);
  assertEquals(failed.status, 500);
  assertEquals(waited.status, 201);
  assertEquals(waited.body, { calls: 2 });
  assertEquals((await call()).headers.get("Idempotent-Replayed"), "true");
  assertEquals(slowCalls, 2);
});

Deno.test("requests without a key act every time, and an empty key is refused with 400", async () => {
  assertEquals((await createLocation(alice, "", "Empty Key")).status, 400);
  const plain = await api(t.app, "POST", "/v1/locations", {
    token: alice.token,
    body: { name: "No Key" },
  });
  const again = await api(t.app, "POST", "/v1/locations", {
    token: alice.token,
    body: { name: "No Key" },
  });
  assertEquals([plain.status, again.status], [201, 201]);
  assertEquals(await countLocations("No Key"), 2);
});

Deno.test("housekeeping deletes keys older than 24 hours and keeps fresh ones", async () => {
  await createLocation(alice, "key-old", "Old Key Road");
  await t.deps.db.updateTable("idempotency_keys")
    .set({ created_at: new Date(Date.now() - 25 * 3600 * 1000) })
    .where("key", "=", "key-old").execute();
  await runHousekeeping(t.deps);
  const keys = await t.deps.db.selectFrom("idempotency_keys").select("key")
    .where("key", "in", ["key-old", "key-replay"]).execute();
  assertEquals(keys.map((k) => k.key), ["key-replay"]);
  // An expired key no longer replays: the request acts again.
  const fresh = await createLocation(alice, "key-old", "Old Key Road");
  assertEquals(fresh.headers.get("Idempotent-Replayed"), null);
  assertEquals(await countLocations("Old Key Road"), 2);
});

Deno.test("a revoked token never gets a stored response replayed", async () => {
  const user = await createUserWithPermissions(t, ["settings.edit"]);
  const headers = { "Idempotency-Key": "revoke-then-retry" };
  const first = await api(t.app, "POST", "/v1/locations", {
    token: user.token,
    body: { name: "Before revocation" },
    headers,
  });
  assertEquals(first.status, 201);
  await t.deps.db.updateTable("users").set({ token_version: 1 }).where("id", "=", user.id)
    .execute();
  t.deps.actors.invalidate();
  const retry = await api(t.app, "POST", "/v1/locations", {
    token: user.token,
    body: { name: "Before revocation" },
    headers,
  });
  assertEquals(retry.status, 401);
  assertEquals(retry.headers.get("Idempotent-Replayed"), null);
});
