import { assert, assertEquals, assertMatch, assertNotEquals } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp, testConfig } from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import { loadConfig } from "../../app/config.ts";
import { listOutbox } from "../../app/email/outbox_repo.ts";
import {
  mailsTo,
  movableClock,
  PASSWORD,
  registerAndLogin,
  tokenFromMail,
  uniqueEmail,
} from "./_auth_helpers.ts";

let t: TestApp;
const clock = movableClock();

withTestApp((app) => {
  t = app;
}, { env: { AUTH_RATE_LIMIT: "off" }, clock });

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

Deno.test("change-password checks the current password and revokes older tokens", async () => {
  const user = await registerAndLogin(t);
  const wrong = await api(t.app, "POST", "/v1/auth/change-password", {
    token: user.token,
    body: { currentPassword: "wrong password", newPassword: "another password" },
  });
  assertEquals(wrong.status, 400);
  assertEquals(wrong.body.code, "invalid_current_password");
  const short = await api(t.app, "POST", "/v1/auth/change-password", {
    token: user.token,
    body: { currentPassword: PASSWORD, newPassword: "short" },
  });
  assertEquals(short.status, 400);
  const ok = await api(t.app, "POST", "/v1/auth/change-password", {
    token: user.token,
    body: { currentPassword: PASSWORD, newPassword: "another password" },
  });
  assertEquals(ok.status, 204);
  const old = await api(t.app, "GET", "/v1/auth/me", { token: user.token });
  assertEquals(old.status, 401);
  const oldPassword = await api(t.app, "POST", "/v1/auth/login", {
    body: { email: user.email, password: PASSWORD },
  });
  assertEquals(oldPassword.status, 401);
  const fresh = await api(t.app, "POST", "/v1/auth/login", {
    body: { email: user.email, password: "another password" },
  });
  assertEquals(fresh.status, 200);
});

Deno.test("forgot-password answers 202 {} for known and unknown emails alike", async () => {
  const unknown = await api(t.app, "POST", "/v1/auth/forgot-password", {
    body: { email: uniqueEmail("ghost") },
  });
  assertEquals(unknown.status, 202);
  assertEquals(unknown.body, {});
  const user = await registerAndLogin(t);
  const known = await api(t.app, "POST", "/v1/auth/forgot-password", {
    body: { email: user.email.toUpperCase() },
  });
  assertEquals(known.status, 202);
  assertEquals(known.body, {});
  const mails = await mailsTo(t, user.email);
  assertEquals(mails.length, 1);
  assertStringHasLink(mails[0]!);
});

function assertStringHasLink(body: string) {
  assertMatch(body, /http:\/\/shop\.test\/reset-password\?token=/);
}

Deno.test("the reset token is stored only as a hash and the outbox body is encrypted", async () => {
  const user = await registerAndLogin(t);
  await api(t.app, "POST", "/v1/auth/forgot-password", { body: { email: user.email } });
  const token = tokenFromMail((await mailsTo(t, user.email))[0]!);
  const rows = await t.deps.db.selectFrom("password_reset_tokens").select("token_hash")
    .where("user_id", "=", user.id).execute();
  assertEquals(rows.length, 1);
  assertNotEquals(rows[0]!.token_hash, token);
  const outbox = await listOutbox(t.deps.db, { toAddress: user.email });
  assert(!outbox[0]!.bodyEncrypted!.includes(token));
  assert(!t.logLines.some((line) => line.includes(token)), "the token is never logged");
  assert(t.logLines.some((line) => line.includes("email queued") && line.includes(user.email)));
});

Deno.test("reset-password sets the new password once, revokes tokens, and refuses reuse", async () => {
  const user = await registerAndLogin(t);
  await api(t.app, "POST", "/v1/auth/forgot-password", { body: { email: user.email } });
  const token = tokenFromMail((await mailsTo(t, user.email))[0]!);
  const reset = await api(t.app, "POST", "/v1/auth/reset-password", {
    body: { token, newPassword: "brand new password" },
  });
  assertEquals(reset.status, 204, reset.text);
  assertEquals((await api(t.app, "GET", "/v1/auth/me", { token: user.token })).status, 401);
  const again = await api(t.app, "POST", "/v1/auth/reset-password", {
    body: { token, newPassword: "third password!" },
  });
  assertEquals(again.status, 400);
  assertEquals(again.body.code, "invalid_token");
  const login = await api(t.app, "POST", "/v1/auth/login", {
    body: { email: user.email, password: "brand new password" },
  });
  assertEquals(login.status, 200);
  const bogus = await api(t.app, "POST", "/v1/auth/reset-password", {
    body: { token: "not-a-token", newPassword: "whatever password" },
  });
  assertEquals(bogus.body.code, "invalid_token");
});

Deno.test("an emailed token expires after 4 hours", async () => {
  const user = await registerAndLogin(t);
  await api(t.app, "POST", "/v1/auth/forgot-password", { body: { email: user.email } });
  const token = tokenFromMail((await mailsTo(t, user.email))[0]!);
  clock.advance(4 * 60 * 60 * 1000 + 1000);
  try {
    const res = await api(t.app, "POST", "/v1/auth/reset-password", {
      body: { token, newPassword: "brand new password" },
    });
    assertEquals(res.status, 400);
    assertEquals(res.body.code, "invalid_token");
  } finally {
    clock.advance(-(4 * 60 * 60 * 1000 + 1000));
  }
});

Deno.test("forgot-password sends at most 3 emails per hour per address, then nothing", async () => {
  const user = await registerAndLogin(t);
  for (let i = 0; i < 5; i++) {
    const res = await api(t.app, "POST", "/v1/auth/forgot-password", {
      body: { email: user.email },
    });
    assertEquals(res.status, 202);
    assertEquals(res.body, {});
  }
  assertEquals((await mailsTo(t, user.email)).length, 3);
  clock.advance(61 * 60 * 1000);
  try {
    await api(t.app, "POST", "/v1/auth/forgot-password", { body: { email: user.email } });
    assertEquals((await mailsTo(t, user.email)).length, 4);
  } finally {
    clock.advance(-61 * 60 * 1000);
  }
});

Deno.test("an admin reset link (users.admin) is valid 1 hour and works once", async () => {
  const admin = await createUserWithPermissions(t, ["users.admin"]);
  const user = await registerAndLogin(t);
  const res = await api(t.app, "POST", `/v1/auth/reset-password/${user.id}`, {
    token: admin.token,
  });
  assertEquals(res.status, 201, res.text);
  const url = new URL(res.body.url);
  assertEquals(url.origin, "http://shop.test");
  const expires = new Date(res.body.expiresAt).getTime() - clock.now().getTime();
  assert(expires > 59 * 60 * 1000 && expires <= 60 * 60 * 1000);
  const token = url.searchParams.get("token")!;
  const ok = await api(t.app, "POST", "/v1/auth/reset-password", {
    body: { token, newPassword: "admin chosen pw" },
  });
  assertEquals(ok.status, 204);
  const twice = await api(t.app, "POST", "/v1/auth/reset-password", {
    body: { token, newPassword: "admin chosen pw" },
  });
  assertEquals(twice.status, 400);

  const missing = await api(t.app, "POST", `/v1/auth/reset-password/${crypto.randomUUID()}`, {
    token: admin.token,
  });
  assertEquals(missing.status, 404);
  const plain = await createUserWithPermissions(t, ["users.edit"]);
  const forbidden = await api(t.app, "POST", `/v1/auth/reset-password/${user.id}`, {
    token: plain.token,
  });
  assertEquals(forbidden.status, 403);
});

Deno.test("an admin link expires after 1 hour", async () => {
  const admin = await createUserWithPermissions(t, ["users.admin"]);
  const user = await registerAndLogin(t);
  const res = await api(t.app, "POST", `/v1/auth/reset-password/${user.id}`, {
    token: admin.token,
  });
  const token = new URL(res.body.url).searchParams.get("token")!;
  clock.advance(61 * 60 * 1000);
  try {
    const late = await api(t.app, "POST", "/v1/auth/reset-password", {
      body: { token, newPassword: "admin chosen pw" },
    });
    assertEquals(late.status, 400);
  } finally {
    clock.advance(-61 * 60 * 1000);
  }
});

Deno.test("PIN: set, pin-login returns a pos token with lockTimeoutMinutes; a wrong PIN is 401", async () => {
  const user = await registerAndLogin(t);
  const bad = await api(t.app, "POST", "/v1/auth/set-pin", {
    token: user.token,
    body: { pin: "12a4" },
  });
  assertEquals(bad.status, 400);
  const set = await api(t.app, "POST", "/v1/auth/set-pin", {
    token: user.token,
    body: { pin: "4321" },
  });
  assertEquals(set.status, 204);
  const me = await api(t.app, "GET", "/v1/auth/me", { token: user.token });
  assertEquals(me.body.hasPin, true);

  const res = await api(t.app, "POST", "/v1/auth/pin-login", {
    body: { code: `${user.employeeNumber}4321` },
  });
  assertEquals(res.status, 200, res.text);
  assertEquals(res.body.lockTimeoutMinutes, 15);
  assertEquals(res.body.user.id, user.id);
  const payload = JSON.parse(atob(res.body.accessToken.split(".")[1]));
  assertEquals(payload.typ, "pos");

  const wrong = await api(t.app, "POST", "/v1/auth/pin-login", {
    body: { code: `${user.employeeNumber}0000` },
  });
  assertEquals(wrong.status, 401);
  assertEquals(wrong.body.code, "invalid_credentials");
  const nobody = await api(t.app, "POST", "/v1/auth/pin-login", { body: { code: "99991234" } });
  assertEquals(nobody.status, 401);
  const malformed = await api(t.app, "POST", "/v1/auth/pin-login", { body: { code: "1234" } });
  assertEquals(malformed.status, 400);
});

Deno.test("a pos token works where permissions allow but is refused where a full login is needed", async () => {
  const admin = await registerAndLogin(t);
  // Give this user the Admin role through the API so permissions are not the issue.
  const root = await createUserWithPermissions(t, ["users.admin", "users.edit"]);
  const adminRole = (await api(t.app, "GET", "/v1/roles/all", { token: root.token })).body.data
    .find((r: { slug: string }) => r.slug === "admin");
  await api(t.app, "POST", `/v1/users/${admin.id}/roles`, {
    token: root.token,
    body: { roleId: adminRole.id },
  });
  await api(t.app, "POST", "/v1/auth/set-pin", { token: admin.token, body: { pin: "2468" } });
  const pos = (await api(t.app, "POST", "/v1/auth/pin-login", {
    body: { code: `${admin.employeeNumber}2468` },
  })).body.accessToken as string;

  assertEquals((await api(t.app, "GET", "/v1/auth/me", { token: pos })).status, 200);
  assertEquals((await api(t.app, "GET", "/v1/me/permissions", { token: pos })).status, 200);
  assertEquals((await api(t.app, "GET", "/v1/roles", { token: pos })).status, 200);
  assertEquals((await api(t.app, "GET", "/v1/config", { token: pos })).status, 200);

  const refused: Array<[string, string, unknown?]> = [
    ["POST", "/v1/auth/set-pin", { pin: "1111" }],
    ["POST", "/v1/auth/change-password", { currentPassword: PASSWORD, newPassword: "xxxxxxxxx" }],
    ["DELETE", "/v1/auth/pin"],
    ["POST", `/v1/auth/reset-password/${admin.id}`],
    ["GET", "/v1/users"],
    ["GET", `/v1/users/${admin.id}`],
    ["POST", "/v1/roles", { name: "Pos made", permissions: [] }],
    ["PATCH", `/v1/roles/${adminRole.id}`, { description: "x" }],
    ["DELETE", `/v1/roles/${adminRole.id}`],
    ["PATCH", "/v1/modules/vault", { enabled: true }],
    ["PATCH", "/v1/config", { registrationOpen: true }],
  ];
  for (const [method, path, body] of refused) {
    const res = await api(t.app, method, path, { token: pos, body });
    assertEquals(res.status, 403, `${method} ${path}`);
    assertEquals(res.body.code, "full_login_required", `${method} ${path}`);
  }
});

Deno.test("setting or removing a PIN revokes pos tokens only", async () => {
  const user = await registerAndLogin(t);
  await api(t.app, "POST", "/v1/auth/set-pin", { token: user.token, body: { pin: "1357" } });
  const pos = (await api(t.app, "POST", "/v1/auth/pin-login", {
    body: { code: `${user.employeeNumber}1357` },
  })).body.accessToken as string;
  assertEquals((await api(t.app, "GET", "/v1/auth/me", { token: pos })).status, 200);
  await api(t.app, "POST", "/v1/auth/set-pin", { token: user.token, body: { pin: "9753" } });
  assertEquals((await api(t.app, "GET", "/v1/auth/me", { token: pos })).status, 401);
  assertEquals((await api(t.app, "GET", "/v1/auth/me", { token: user.token })).status, 200);

  const pos2 = (await api(t.app, "POST", "/v1/auth/pin-login", {
    body: { code: `${user.employeeNumber}9753` },
  })).body.accessToken as string;
  const removed = await api(t.app, "DELETE", "/v1/auth/pin", { token: user.token });
  assertEquals(removed.status, 204);
  assertEquals((await api(t.app, "GET", "/v1/auth/me", { token: pos2 })).status, 401);
  assertEquals((await api(t.app, "GET", "/v1/auth/me", { token: user.token })).body.hasPin, false);
  const noPin = await api(t.app, "POST", "/v1/auth/pin-login", {
    body: { code: `${user.employeeNumber}9753` },
  });
  assertEquals(noPin.status, 401);
});

Deno.test("after 5 wrong PINs the employee number is locked 15 minutes, even for the right PIN", async () => {
  const user = await registerAndLogin(t);
  await api(t.app, "POST", "/v1/auth/set-pin", { token: user.token, body: { pin: "8642" } });
  for (let i = 0; i < 5; i++) {
    const res = await api(t.app, "POST", "/v1/auth/pin-login", {
      body: { code: `${user.employeeNumber}000${i}` },
    });
    assertEquals(res.status, 401);
  }
  const locked = await api(t.app, "POST", "/v1/auth/pin-login", {
    body: { code: `${user.employeeNumber}8642` },
  });
  assertEquals(locked.status, 429);
  assertEquals(locked.body.code, "rate_limited");
  const retryAfter = Number(locked.headers.get("Retry-After"));
  assert(retryAfter > 14 * 60 && retryAfter <= 15 * 60, `Retry-After ${retryAfter}`);
  clock.advance(15 * 60 * 1000 + 1000);
  try {
    const after = await api(t.app, "POST", "/v1/auth/pin-login", {
      body: { code: `${user.employeeNumber}8642` },
    });
    assertEquals(after.status, 200);
  } finally {
    clock.advance(-(15 * 60 * 1000 + 1000));
  }
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

Deno.test("PIN and password events are audited without secrets", async () => {
  const admin = await createUserWithPermissions(t, ["settings.admin", "users.admin"]);
  const user = await registerAndLogin(t);
  await api(t.app, "POST", "/v1/auth/set-pin", { token: user.token, body: { pin: "3141" } });
  await api(t.app, "POST", "/v1/auth/pin-login", { body: { code: `${user.employeeNumber}2718` } });
  await api(t.app, "DELETE", "/v1/auth/pin", { token: user.token });
  const link = await api(t.app, "POST", `/v1/auth/reset-password/${user.id}`, {
    token: admin.token,
  });
  const token = new URL(link.body.url).searchParams.get("token")!;
  await api(t.app, "POST", "/v1/auth/reset-password", {
    body: { token, newPassword: "audited new password" },
  });
  const res = await api(t.app, "GET", `/v1/audit-log?entityId=${user.id}&limit=100`, {
    token: admin.token,
  });
  const actions = res.body.data.map((e: { action: string }) => e.action);
  for (
    const expected of [
      "user.pin_set",
      "auth.pin_login_failed",
      "user.pin_removed",
      "user.reset_link_created",
      "user.password_reset",
    ]
  ) {
    assert(actions.includes(expected), `${expected} in ${actions}`);
  }
  // Ids are random hex: look for the 4-digit PINs in the details only.
  const details = JSON.stringify(res.body.data.map((e: { details: unknown }) => e.details));
  for (const secret of ["3141", "2718"]) {
    assert(!details.includes(secret), `the audit details do not contain ${secret}`);
  }
  for (const secret of [token, "audited new password", PASSWORD]) {
    assert(!res.text.includes(secret), `the audit log does not contain ${secret}`);
  }
});
