/** Registration, email/password login, the caller's own user and permissions, disabled users. */
import { assert, assertEquals, assertMatch } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp, testConfig } from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import { loadConfig } from "../../app/config.ts";
import { openRegistration, PASSWORD, registerAndLogin, uniqueEmail } from "./_auth_helpers.ts";

let t: TestApp;

withTestApp((app) => {
  t = app;
}, { env: { AUTH_RATE_LIMIT: "off" } });

Deno.test("the first registered user becomes Admin; later ones get no role", async () => {
  const first = await api(t.app, "POST", "/v1/auth/register", {
    body: { email: "Owner@Example.test", password: PASSWORD, firstName: "Ow", lastName: "Ner" },
    headers: { "X-Company-ID": "ignored" },
  });
  assertEquals(first.status, 201, first.text);
  const user = first.body.user;
  assertEquals(Object.keys(user).sort(), [
    "createdAt",
    "email",
    "employeeNumber",
    "firstName",
    "hasPin",
    "id",
    "isActive",
    "lastName",
    "roles",
  ]);
  assertEquals(user.roles.map((r: { slug: string }) => r.slug), ["admin"]);
  assertEquals(user.employeeNumber, "0001");
  assertEquals(user.isActive, true);
  assertEquals(user.hasPin, false);

  // After the first user, registration is open only when the owner opens it (API §2).
  await openRegistration(t);
  const second = await api(t.app, "POST", "/v1/auth/register", {
    body: { email: uniqueEmail(), password: PASSWORD, firstName: "Se", lastName: "Cond" },
  });
  assertEquals(second.status, 201);
  assertEquals(second.body.user.roles, []);
  assertEquals(second.body.user.employeeNumber, "0002");
});

Deno.test("register refuses a duplicate email (any case), short or long passwords and unknown fields", async () => {
  const email = uniqueEmail();
  await registerAndLogin(t, { email });
  const dup = await api(t.app, "POST", "/v1/auth/register", {
    body: { email: email.toUpperCase(), password: PASSWORD, firstName: "A", lastName: "B" },
  });
  assertEquals(dup.status, 409);
  assertEquals(dup.body.code, "duplicate");
  for (const password of ["short", "x".repeat(73), "é".repeat(37)]) {
    const res = await api(t.app, "POST", "/v1/auth/register", {
      body: { email: uniqueEmail(), password, firstName: "A", lastName: "B" },
    });
    assertEquals(res.status, 400);
    assertEquals(res.body.code, "validation_failed");
  }
  const extra = await api(t.app, "POST", "/v1/auth/register", {
    body: { email: uniqueEmail(), password: PASSWORD, firstName: "A", lastName: "B", roles: [] },
  });
  assertEquals(extra.status, 400);
});

Deno.test("register answers 403 registration_closed when the config closes it", async () => {
  const admin = await createUserWithPermissions(t, ["settings.admin"]);
  const close = await api(t.app, "PATCH", "/v1/config", {
    token: admin.token,
    body: { registrationOpen: false },
  });
  assertEquals(close.status, 200, close.text);
  const res = await api(t.app, "POST", "/v1/auth/register", {
    body: { email: uniqueEmail(), password: PASSWORD, firstName: "A", lastName: "B" },
  });
  assertEquals(res.status, 403);
  assertEquals(res.body.code, "registration_closed");
  await api(t.app, "PATCH", "/v1/config", { token: admin.token, body: { registrationOpen: true } });
});

Deno.test("login: case-insensitive email, token works; a wrong email or password answer alike", async () => {
  const email = uniqueEmail("Mixed");
  await registerAndLogin(t, { email });
  const ok = await api(t.app, "POST", "/v1/auth/login", {
    body: { email: email.toUpperCase(), password: PASSWORD },
  });
  assertEquals(ok.status, 200);
  assertEquals(ok.body.tokenType, "Bearer");
  assertEquals(ok.body.expiresIn, t.deps.config.tokenTtlSeconds);
  assertEquals(ok.body.user.email, email);
  const me = await api(t.app, "GET", "/v1/auth/me", { token: ok.body.accessToken });
  assertEquals(me.status, 200);
  assertEquals(me.body.email, email);

  const wrongPassword = await api(t.app, "POST", "/v1/auth/login", {
    body: { email, password: "not the password" },
  });
  const wrongEmail = await api(t.app, "POST", "/v1/auth/login", {
    body: { email: uniqueEmail("nobody"), password: "not the password" },
  });
  assertEquals(wrongPassword.status, 401);
  assertEquals(wrongEmail.status, 401);
  assertEquals(wrongPassword.body.code, "invalid_credentials");
  const strip = (b: Record<string, unknown>) => ({ ...b, requestId: "" });
  assertEquals(strip(wrongPassword.body), strip(wrongEmail.body));
});

Deno.test("login is audited when it fails, without the password", async () => {
  const admin = await createUserWithPermissions(t, ["settings.admin"]);
  const email = uniqueEmail("audited");
  await api(t.app, "POST", "/v1/auth/login", { body: { email, password: "secret-guess-1" } });
  const log = await api(t.app, "GET", `/v1/audit-log?action=auth.login_failed`, {
    token: admin.token,
  });
  assertEquals(log.status, 200);
  const entry = log.body.data.find((e: { actorEmail: string }) => e.actorEmail === email);
  assert(entry, "the failed login is in the audit log");
  assert(!JSON.stringify(entry).includes("secret-guess-1"));
});

Deno.test("GET/PATCH /auth/me shows and renames the caller; other fields are refused", async () => {
  const user = await registerAndLogin(t);
  const patched = await api(t.app, "PATCH", "/v1/auth/me", {
    token: user.token,
    body: { firstName: "Renamed", lastName: "Person" },
  });
  assertEquals(patched.status, 200);
  assertEquals(patched.body.firstName, "Renamed");
  assertEquals(patched.body.lastName, "Person");
  const refused = await api(t.app, "PATCH", "/v1/auth/me", {
    token: user.token,
    body: { email: "x@y.test" },
  });
  assertEquals(refused.status, 400);
  const noToken = await api(t.app, "GET", "/v1/auth/me");
  assertEquals(noToken.status, 401);
});

Deno.test("GET /me/permissions lists expanded permissions and roles", async () => {
  const user = await createUserWithPermissions(t, ["accounts.admin", "lessons.edit"]);
  const res = await api(t.app, "GET", "/v1/me/permissions", { token: user.token });
  assertEquals(res.status, 200);
  assertEquals(res.body.permissions, [
    "accounts.admin",
    "accounts.approve",
    "accounts.edit",
    "accounts.view",
    "lessons.edit",
    "lessons.teach",
    "lessons.view",
  ]);
  assertEquals(res.body.roles.length, 1);
});

Deno.test("a disabled user gets 401 user_disabled on requests and on login", async () => {
  const admin = await createUserWithPermissions(t, ["users.admin"]);
  const user = await registerAndLogin(t);
  const off = await api(t.app, "PATCH", `/v1/users/${user.id}/status`, {
    token: admin.token,
    body: { isActive: false },
  });
  assertEquals(off.status, 200);
  assertEquals(off.body.isActive, false);
  const req = await api(t.app, "GET", "/v1/auth/me", { token: user.token });
  assertEquals(req.status, 401);
  assertEquals(req.body.code, "user_disabled");
  const login = await api(t.app, "POST", "/v1/auth/login", {
    body: { email: user.email, password: PASSWORD },
  });
  assertEquals(login.status, 401);
  assertEquals(login.body.code, "user_disabled");
  // Re-enabling does not revive the old token; a new login works.
  await api(t.app, "PATCH", `/v1/users/${user.id}/status`, {
    token: admin.token,
    body: { isActive: true },
  });
  const old = await api(t.app, "GET", "/v1/auth/me", { token: user.token });
  assertEquals(old.status, 401);
  assertEquals(old.body.code, "unauthenticated");
  const fresh = await api(t.app, "POST", "/v1/auth/login", {
    body: { email: user.email, password: PASSWORD },
  });
  assertEquals(fresh.status, 200);
});

Deno.test("production refuses to start without JWT_SECRET", () => {
  let message = "";
  try {
    loadConfig({ APP_ENV: "production" });
  } catch (error) {
    message = (error as Error).message;
  }
  assertMatch(message, /JWT_SECRET/);
  // With a secret of 32+ bytes it starts; the test config has one.
  assertEquals(
    loadConfig({ APP_ENV: "production", JWT_SECRET: "x".repeat(32) }).env,
    "production",
  );
  assertEquals(testConfig().authRateLimit?.max, 10);
});
