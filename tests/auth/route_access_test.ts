/**
 * Walks EVERY registered route (whoever added it): without a token each non-public route
 * answers 401, and for a user without any role each permission-guarded route answers 403.
 * The guard runs before validation and lookups, so made-up ids and empty bodies suffice.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp } from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import type { RegisteredRoute } from "../../server/route.ts";
import { PERMISSIONS } from "../../domain/auth/permissions.ts";
import { hashSecret } from "../../app/auth/passwords.ts";

let t: TestApp;

withTestApp((app) => {
  t = app;
}, { env: { AUTH_RATE_LIMIT: "off" } });

/** A concrete path for a Hono route pattern: every parameter becomes a random UUID. */
function concretePath(route: RegisteredRoute): string {
  return route.fullPath
    .replace(/:[A-Za-z0-9_]+(\{[^}]*\})?\??/g, () => crypto.randomUUID())
    .replace(/\*$/, "x");
}

function describe(route: RegisteredRoute): string {
  return `${route.spec.method.toUpperCase()} ${route.fullPath}`;
}

Deno.test("every route declares its access and the walk covers the identity routes", () => {
  assert(t.routes.length >= 30, `${t.routes.length} routes`);
  for (const route of t.routes) {
    assert(route.spec.access, `${describe(route)} has no access rule`);
  }
  const paths = new Set(t.routes.map(describe));
  for (
    const expected of [
      "POST /v1/auth/login",
      "GET /v1/users",
      "DELETE /v1/users/:id/roles/:roleId",
      "GET /v1/audit-log",
      "GET /v1/permissions",
    ]
  ) {
    assert(paths.has(expected), `${expected} is registered`);
  }
});

Deno.test("every non-public route answers 401 without a token", async () => {
  const failures: string[] = [];
  for (const route of t.routes) {
    if (route.spec.access === "public") continue;
    const res = await api(t.app, route.spec.method.toUpperCase(), concretePath(route));
    if (res.status !== 401 || res.body?.code !== "unauthenticated") {
      failures.push(`${describe(route)} → ${res.status} ${res.body?.code ?? ""}`);
    }
  }
  assertEquals(failures, []);
});

Deno.test("every permission-guarded route answers 403 to a user without roles", async () => {
  const nobody = await createUserWithPermissions(t, []);
  const failures: string[] = [];
  let checked = 0;
  for (const route of t.routes) {
    const access = route.spec.access;
    if (access === "public" || access === "authenticated") continue;
    checked++;
    const res = await api(t.app, route.spec.method.toUpperCase(), concretePath(route), {
      token: nobody.token,
    });
    if (res.status !== 403 || res.body?.code !== "forbidden") {
      failures.push(`${describe(route)} (${access}) → ${res.status} ${res.body?.code ?? ""}`);
    }
  }
  assertEquals(failures, []);
  assert(checked >= 20, `${checked} guarded routes checked`);
});

Deno.test("public routes are exactly the documented ones", () => {
  const allowed = [
    /^\/v1\/health$/,
    /^\/v1\/openapi\.json$/,
    /^\/v1\/auth\/(register|login|forgot-password|reset-password|pin-login)$/,
    // Signed-URL downloads carry their own signature; no other /files route is public.
    /^\/v1\/files\/serve\/\*$/,
    // The storage hub's signed-URL downloads (API §11), likewise.
    /^\/v1\/storage\/files\/:id\/content$/,
    // Printable receipts and shelf labels opened from a signed link (API §17), likewise.
    /^\/v1\/transactions\/:id\/receipt\/print$/,
    /^\/v1\/products\/:id\/label\/print$/,
  ];
  const unexpected = t.routes.filter((r) => r.spec.access === "public")
    .filter((r) => !allowed.some((pattern) => pattern.test(r.fullPath)))
    .map(describe);
  assertEquals(unexpected, []);
});

Deno.test("only the documented routes need a token without a permission", () => {
  const allowed = new Set([
    "GET /v1/auth/me",
    "PATCH /v1/auth/me",
    "GET /v1/me/permissions",
    "POST /v1/auth/change-password",
    "POST /v1/auth/set-pin",
    "DELETE /v1/auth/pin",
    "GET /v1/store",
    // API §17: any signed-in user; each kind of record is searched only with its view permission.
    "GET /v1/scan/:code",
  ]);
  const unexpected = t.routes.filter((r) => r.spec.access === "authenticated")
    .map(describe).filter((d) => !allowed.has(d));
  assertEquals(unexpected, []);
});

/**
 * API §2: a pos token is refused (403 full_login_required) on /auth/set-pin,
 * /auth/change-password, DELETE /auth/pin, /auth/reset-password/:userId, /vault/*, /users/*,
 * and the writes of /roles/*, /modules/* and /config; and the backup download.
 */
function needsFullLogin(method: string, path: string): boolean {
  const write = method !== "get";
  return (method === "post" && path === "/v1/auth/set-pin") ||
    (method === "post" && path === "/v1/auth/change-password") ||
    (method === "delete" && path === "/v1/auth/pin") ||
    (method === "post" && path.startsWith("/v1/auth/reset-password/")) ||
    /^\/v1\/(vault|users)(\/|$)/.test(path) ||
    // The whole shop's archive (API §16, `ops backup`): never on a PIN login.
    (method === "get" && path === "/v1/backup") ||
    (write && /^\/v1\/(roles|modules|config)(\/|$)/.test(path));
}

Deno.test("the routes refusing pos tokens are exactly the API §2 list", () => {
  const flagged = t.routes.filter((r) => r.spec.fullLogin).map(describe).sort();
  const listed = t.routes.filter((r) => needsFullLogin(r.spec.method, r.fullPath))
    .map(describe).sort();
  assertEquals(flagged, listed);
  for (
    const expected of [
      "POST /v1/auth/set-pin",
      "POST /v1/auth/change-password",
      "DELETE /v1/auth/pin",
      "POST /v1/auth/reset-password/:userId",
      "POST /v1/users",
      "PATCH /v1/users/:id/status",
      "POST /v1/users/:id/roles",
      "DELETE /v1/users/:id/roles/:roleId",
      "POST /v1/roles",
      "PATCH /v1/modules/:slug",
      "PATCH /v1/config",
    ]
  ) {
    assert(flagged.includes(expected), `${expected} needs a full login`);
  }
  assert(!flagged.includes("GET /v1/roles"), "reading roles works with a pos token");
  assert(!flagged.includes("GET /v1/config"), "reading the config works with a pos token");
});

Deno.test("every full-login route answers 403 full_login_required to a pos token of an all-powerful user", async () => {
  const user = await createUserWithPermissions(t, PERMISSIONS.map((p) => p.id));
  const pinHash = await hashSecret("8642", t.deps.config.bcryptCost);
  await t.deps.db.updateTable("users").set({ pin_hash: pinHash }).where("id", "=", user.id)
    .execute();
  const login = await api(t.app, "POST", "/v1/auth/pin-login", {
    body: { code: `${user.employeeNumber}8642` },
  });
  assertEquals(login.status, 200, login.text);
  const pos = login.body.accessToken as string;
  assertEquals((await api(t.app, "GET", "/v1/roles", { token: pos })).status, 200);

  const failures: string[] = [];
  let checked = 0;
  for (const route of t.routes) {
    if (!route.spec.fullLogin) continue;
    checked++;
    const method = route.spec.method.toUpperCase();
    const res = await api(t.app, method, concretePath(route), {
      token: pos,
      body: method === "GET" ? undefined : {},
    });
    if (res.status !== 403 || res.body?.code !== "full_login_required") {
      failures.push(`${describe(route)} → ${res.status} ${res.body?.code ?? ""}`);
    }
  }
  assertEquals(failures, []);
  assert(checked >= 15, `${checked} full-login routes checked`);
});
