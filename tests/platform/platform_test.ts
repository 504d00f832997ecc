import { assert, assertEquals, assertMatch } from "../_helpers/assert.ts";
import type { AppDeps } from "../../app/deps.ts";
import { ApiRouter } from "../../server/route.ts";
import {
  api,
  createTestApp,
  createUserWithPermissions,
  type TestApp,
} from "../_helpers/test_app.ts";

let t: TestApp;

/** A stand-in route in the inventory module's area, to watch the module gate at work. */
function gatedProbe(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/products-gate-probe", "Probe").route({
    method: "get",
    path: "/",
    summary: "probe",
    access: "inventory.view",
    responses: { 200: { description: "ok" } },
  }, (c) => c.json({ ok: true }));
}

Deno.test.beforeAll(async () => {
  t = await createTestApp({ extraRouters: [gatedProbe] });
});
Deno.test.afterAll(async () => {
  await t.close();
});

Deno.test("GET /v1/health answers ok with version and uptime, without a token", async () => {
  const res = await api(t.app, "GET", "/v1/health");
  assertEquals(res.status, 200);
  assertEquals(res.body.status, "ok");
  assertEquals(res.body.database, "ok");
  assertEquals(typeof res.body.uptimeSeconds, "number");
  assert(res.headers.get("X-Request-Id"));
});

Deno.test("every response echoes a valid client X-Request-Id and replaces an invalid one", async () => {
  const mine = await api(t.app, "GET", "/v1/health", {
    headers: { "X-Request-Id": "abc.DEF_1-2" },
  });
  assertEquals(mine.headers.get("X-Request-Id"), "abc.DEF_1-2");
  const bad = await api(t.app, "GET", "/v1/store", { headers: { "X-Request-Id": "has space" } });
  const generated = bad.headers.get("X-Request-Id")!;
  assert(generated !== "has space");
  assertEquals(bad.body.requestId, generated);
});

Deno.test("a protected route without a token → 401 problem+json with WWW-Authenticate", async () => {
  const res = await api(t.app, "GET", "/v1/store");
  assertEquals(res.status, 401);
  assertEquals(res.headers.get("Content-Type"), "application/problem+json");
  assertEquals(res.headers.get("WWW-Authenticate"), "Bearer");
  assertEquals(res.body.code, "unauthenticated");
  assertEquals(res.body.type, "about:blank");
  assertEquals(res.body.status, 401);
});

Deno.test("a forged or alg=none token is refused", async () => {
  const header = btoa(JSON.stringify({ alg: "none", typ: "JWT" })).replace(/=+$/, "");
  const user = await createUserWithPermissions(t, ["settings.view"]);
  const payload = btoa(
    JSON.stringify({ sub: user.id, typ: "access", ver: 0, iat: 1, exp: 9999999999, jti: "x" }),
  )
    .replace(/=+$/, "");
  const res = await api(t.app, "GET", "/v1/config", { token: `${header}.${payload}.` });
  assertEquals(res.status, 401);
});

Deno.test("unknown routes answer 404 problem+json", async () => {
  const res = await api(t.app, "GET", "/v1/nope");
  assertEquals(res.status, 404);
  assertEquals(res.body.code, "not_found");
});

Deno.test("store: any authenticated user reads; settings.edit updates with a validated time zone", async () => {
  const anyone = await createUserWithPermissions(t, []);
  const editor = await createUserWithPermissions(t, ["settings.edit"]);
  assertEquals((await api(t.app, "GET", "/v1/store", { token: anyone.token })).status, 200);
  const refused = await api(t.app, "PATCH", "/v1/store", {
    token: anyone.token,
    body: { name: "X" },
  });
  assertEquals(refused.status, 403);
  assertEquals(refused.body.code, "forbidden");
  const badZone = await api(t.app, "PATCH", "/v1/store", {
    token: editor.token,
    body: { timezone: "Mars/Base" },
  });
  assertEquals(badZone.status, 400);
  assertEquals(badZone.body.code, "validation_failed");
  assertEquals(badZone.body.errors[0].path, "timezone");
  const ok = await api(t.app, "PATCH", "/v1/store", {
    token: editor.token,
    body: { name: "Melody Music", timezone: "America/Chicago" },
  });
  assertEquals(ok.status, 200);
  assertEquals(ok.body.name, "Melody Music");
  assertEquals(ok.body.timezone, "America/Chicago");
});

Deno.test("unknown body fields and malformed JSON are refused with 400", async () => {
  const editor = await createUserWithPermissions(t, ["settings.edit"]);
  const unknown = await api(t.app, "PATCH", "/v1/store", {
    token: editor.token,
    body: { name: "A", id: 5 },
  });
  assertEquals(unknown.status, 400);
  assertEquals(unknown.body.code, "validation_failed");
  assertEquals(unknown.body.errors, [{ path: "id", message: 'Unknown field "id"' }]);
  const malformed = await api(t.app, "POST", "/v1/locations", {
    token: editor.token,
    body: "{not json",
  });
  assertEquals(malformed.status, 400);
  assertEquals(malformed.body.code, "bad_request");
});

Deno.test("a missing amount says Required like any other missing field", async () => {
  const editor = await createUserWithPermissions(t, ["inventory.edit"]);
  const res = await api(t.app, "POST", "/v1/products", {
    token: editor.token,
    body: { sku: "NO-PRICE" },
  });
  assertEquals(res.status, 400);
  assertEquals(res.body.code, "validation_failed");
  assertEquals(res.body.errors, [
    { path: "name", message: "Required" },
    { path: "price", message: "Required" },
  ]);
  // A value of the wrong kind still says what is wrong with it.
  const wrong = await api(t.app, "POST", "/v1/products", {
    token: editor.token,
    body: { name: "Strings", sku: "NO-PRICE", price: true },
  });
  assertEquals(wrong.status, 400);
  assertEquals(wrong.body.errors, [
    { path: "price", message: "Not one of the accepted forms of this field" },
  ]);
});

Deno.test("locations: CRUD, list contract, malformed id → 404", async () => {
  const viewer = await createUserWithPermissions(t, ["settings.view"]);
  const editor = await createUserWithPermissions(t, ["settings.edit"]);
  const created = await api(t.app, "POST", "/v1/locations", {
    token: editor.token,
    body: { name: "Main St" },
  });
  assertEquals(created.status, 201);
  assertEquals(created.body.isActive, true);
  await api(t.app, "POST", "/v1/locations", { token: editor.token, body: { name: "Annex 100%" } });
  const id = created.body.id;
  assertEquals(
    (await api(t.app, "GET", `/v1/locations/${id}`, { token: viewer.token })).body.name,
    "Main St",
  );
  assertEquals(
    (await api(t.app, "GET", "/v1/locations/not-a-uuid", { token: viewer.token })).status,
    404,
  );
  const patched = await api(t.app, "PATCH", `/v1/locations/${id}`, {
    token: editor.token,
    body: { isActive: false },
  });
  assertEquals(patched.body.isActive, false);

  const page = await api(t.app, "GET", "/v1/locations?limit=500&sort=name&order=desc", {
    token: viewer.token,
  });
  assertEquals(page.status, 200);
  assertEquals(page.body.pagination.limit, 100);
  assertEquals(page.body.data.map((l: { name: string }) => l.name), ["Main St", "Annex 100%"]);
  const literal = await api(t.app, "GET", "/v1/locations?q=0%25", { token: viewer.token });
  assertEquals(literal.body.data.map((l: { name: string }) => l.name), ["Annex 100%"]);
  const wildcard = await api(t.app, "GET", "/v1/locations?q=%25", { token: viewer.token });
  assertEquals(wildcard.body.pagination.total, 1);
  for (const bad of ["sort=secret", "order=up", "page=0", "limit=0", "limit=abc", "unknown=1"]) {
    const res = await api(t.app, "GET", `/v1/locations?${bad}`, { token: viewer.token });
    assertEquals(res.status, 400, bad);
  }
  const beyond = await api(t.app, "GET", "/v1/locations?page=9", { token: viewer.token });
  assertEquals(beyond.body.data, []);
  assertEquals(beyond.body.pagination.total, 2);
  assertEquals(
    (await api(t.app, "DELETE", `/v1/locations/${id}`, { token: editor.token })).status,
    204,
  );
  assertEquals(
    (await api(t.app, "GET", `/v1/locations/${id}`, { token: viewer.token })).status,
    404,
  );
});

Deno.test("config: defaults, nested merge on PATCH, settings.admin required", async () => {
  const viewer = await createUserWithPermissions(t, ["settings.view"]);
  const admin = await createUserWithPermissions(t, ["settings.admin"]);
  const initial = await api(t.app, "GET", "/v1/config", { token: viewer.token });
  assertEquals(initial.body.upload, { maxBytes: 10485760, maxFilesPerEntity: 20 });
  assertEquals(initial.body.discountApprovalThresholdPercent, "10.00");
  assertEquals(
    (await api(t.app, "PATCH", "/v1/config", { token: viewer.token, body: {} })).status,
    403,
  );
  const patched = await api(t.app, "PATCH", "/v1/config", {
    token: admin.token,
    body: { upload: { maxBytes: 1000 }, taxRates: { goods: 8.25 } },
  });
  assertEquals(patched.status, 200);
  assertEquals(patched.body.upload, { maxBytes: 1000, maxFilesPerEntity: 20 });
  assertEquals(patched.body.taxRates, { goods: "8.25", service: "0.00" });
  const bad = await api(t.app, "PATCH", "/v1/config", {
    token: admin.token,
    body: { upload: { bogus: 1 } },
  });
  assertEquals(bad.status, 400);
});

Deno.test("modules: list 14, core cannot be disabled, a disabled module gates its routes with 403", async () => {
  const admin = await createUserWithPermissions(t, ["settings.admin", "inventory.view"]);
  const list = await api(t.app, "GET", "/v1/modules", { token: admin.token });
  assertEquals(list.body.data.length, 14);
  const core = await api(t.app, "PATCH", "/v1/modules/accounts", {
    token: admin.token,
    body: { enabled: false },
  });
  assertEquals(core.status, 409);
  assertEquals(core.body.code, "core_module");
  const off = await api(t.app, "PATCH", "/v1/modules/inventory", {
    token: admin.token,
    body: { enabled: false },
  });
  assertEquals(off.status, 200);
  assertEquals(off.body.enabled, false);
  const gated = await api(t.app, "GET", "/v1/products-gate-probe", { token: admin.token });
  assertEquals(gated.status, 403);
  assertEquals(gated.body.code, "module_disabled");
  await api(t.app, "PATCH", "/v1/modules/inventory", {
    token: admin.token,
    body: { enabled: true },
  });
  assertEquals(
    (await api(t.app, "GET", "/v1/products-gate-probe", { token: admin.token })).status,
    200,
  );
  const missing = await api(t.app, "PATCH", "/v1/modules/nothing", {
    token: admin.token,
    body: { enabled: true },
  });
  assertEquals(missing.status, 404);
});

Deno.test("GET /v1/openapi.json is OpenAPI 3.1 and documents every registered route", async () => {
  const res = await api(t.app, "GET", "/v1/openapi.json");
  assertEquals(res.status, 200);
  assertEquals(res.body.openapi, "3.1.0");
  for (const route of t.routes) {
    const path = route.fullPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}").replace(/\/\*$/, "/{path}");
    assert(res.body.paths[path]?.[route.spec.method], `${route.spec.method} ${path} is documented`);
  }
  const docs = await t.app.request("/docs");
  assertEquals(docs.status, 200);
  assertMatch(await docs.text(), /openapi\.json/);
});

Deno.test("request log lines carry the request id and never the query string", async () => {
  await api(t.app, "GET", "/v1/locations?q=secret-token-value", {
    headers: { "X-Request-Id": "log-check-1" },
  });
  const line = t.logLines.map((l) => JSON.parse(l)).find((l) => l.requestId === "log-check-1");
  assert(line);
  assertEquals(line.level, "warn");
  assertEquals(line.status, 401);
  assert(!JSON.stringify(t.logLines).includes("secret-token-value"));
});
