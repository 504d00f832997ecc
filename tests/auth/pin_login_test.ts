/** PIN login: setting and removing a PIN, `pos` tokens and where they are refused, the lockout, auditing. */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp } from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import { testServerUrl } from "../_helpers/test_db.ts";
import { ALL_PERMISSIONS, movableClock, PASSWORD, registerAndLogin } from "./_auth_helpers.ts";

let t: TestApp;
const clock = movableClock();

withTestApp((app) => {
  t = app;
}, { env: { AUTH_RATE_LIMIT: "off" }, clock });

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
  // API §3: only a caller holding every permission of the Admin role may grant it.
  const root = await createUserWithPermissions(t, ALL_PERMISSIONS);
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

Deno.test({
  name: "100 parallel wrong PIN logins for one employee number: at most 5 are evaluated",
  ignore: !testServerUrl(),
  async fn() {
    const user = await registerAndLogin(t);
    await api(t.app, "POST", "/v1/auth/set-pin", { token: user.token, body: { pin: "9182" } });
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        api(t.app, "POST", "/v1/auth/pin-login", {
          body: { code: `${user.employeeNumber}${String(1000 + i).padStart(4, "0")}` },
        })),
    );
    const statuses = results.map((r) => r.status);
    const wrong = statuses.filter((s) => s === 401).length;
    assertEquals(wrong + statuses.filter((s) => s === 429).length, 100, String(statuses));
    assert(wrong <= 5, `${wrong} wrong PINs were evaluated (at most 5)`);
    // Every evaluated wrong PIN is audited: count them there as well.
    const audited = await t.deps.db.selectFrom("audit_log").select("id")
      .where("action", "=", "auth.pin_login_failed").where("entity_id", "=", user.id).execute();
    assertEquals(audited.length, wrong);
    const right = await api(t.app, "POST", "/v1/auth/pin-login", {
      body: { code: `${user.employeeNumber}9182` },
    });
    assertEquals(right.status, 429, "locked, even for the right PIN");
  },
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
