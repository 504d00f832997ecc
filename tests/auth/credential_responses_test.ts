/**
 * Responses that carry a credential (an access token, a reset link) are never cached: every
 * one answers `Cache-Control: no-store` (issue 15 item 11).
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import {
  api,
  type ApiResponse,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import { ALL_PERMISSIONS, registerAndLogin, uniqueEmail } from "./_auth_helpers.ts";

let t: TestApp;
let admin: TestUser;

withTestApp(async (app) => {
  t = app;
  admin = await createUserWithPermissions(t, ALL_PERMISSIONS);
}, { env: { AUTH_RATE_LIMIT: "off" } });

function assertNoStore(res: ApiResponse, what: string) {
  assert(res.status < 300, `${what}: ${res.status} ${res.text}`);
  const header = res.headers.get("Cache-Control") ?? "";
  assert(/\bno-store\b/.test(header), `${what}: Cache-Control is "${header}"`);
}

Deno.test("login and pin-login answer Cache-Control: no-store", async () => {
  const user = await registerAndLogin(t);
  const login = await api(t.app, "POST", "/v1/auth/login", {
    body: { email: user.email, password: "correct horse battery" },
  });
  assertNoStore(login, "POST /auth/login");
  const pin = await api(t.app, "POST", "/v1/auth/set-pin", {
    token: user.token,
    body: { pin: "7531" },
  });
  assertEquals(pin.status, 204);
  const pinLogin = await api(t.app, "POST", "/v1/auth/pin-login", {
    body: { code: `${user.employeeNumber}7531` },
  });
  assertNoStore(pinLogin, "POST /auth/pin-login");
});

Deno.test("reset links (admin link, POST /users without a password) answer no-store", async () => {
  const created = await api(t.app, "POST", "/v1/users", {
    token: admin.token,
    body: { email: uniqueEmail("linked"), firstName: "Li", lastName: "Nk" },
  });
  assert(created.body.resetLink, "a reset link was returned");
  assertNoStore(created, "POST /users");
  const link = await api(t.app, "POST", `/v1/auth/reset-password/${created.body.user.id}`, {
    token: admin.token,
  });
  assertNoStore(link, "POST /auth/reset-password/:userId");
});
