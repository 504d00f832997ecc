/**
 * Walks EVERY registered route (whoever added it): without a token each non-public route
 * answers 401, and for a user without any role each permission-guarded route answers 403.
 * The guard runs before validation and lookups, so made-up ids and empty bodies suffice.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp } from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import type { RegisteredRoute } from "../../server/route.ts";

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
    // Signed-URL downloads carry their own signature.
    /^\/v1\/files\//,
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
  ]);
  const unexpected = t.routes.filter((r) => r.spec.access === "authenticated")
    .map(describe).filter((d) => !allowed.has(d));
  assertEquals(unexpected, []);
});
