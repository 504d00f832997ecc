/** Passwords: change, forgot (emailed single-use token), reset, admin reset links and their expiry. */
import { assert, assertEquals, assertMatch, assertNotEquals } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp } from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import { mailsTo, outboxTo } from "../email/_outbox.ts";
import {
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
  const outbox = await outboxTo(t, user.email);
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
