/** Helpers of the identity tests: register/login through the API, tokens from mails, clocks. */
import { assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { type SuiteReady, withSuite } from "../_helpers/suite.ts";

let counter = 0;

export function uniqueEmail(prefix = "person"): string {
  return `${prefix}${++counter}-${crypto.randomUUID().slice(0, 8)}@example.test`;
}

export const PASSWORD = "correct horse battery";

/**
 * One app (own database, no auth rate limit) for the test file with an admin of users and
 * settings, ready before the first test: `adminSuite((s) => ({ t, u: admin } = s))`.
 */
export function adminSuite(ready: SuiteReady<TestUser>): void {
  withSuite(
    (t) => createUserWithPermissions(t, ["users.admin", "settings.admin"]),
    ready,
    { env: { AUTH_RATE_LIMIT: "off" } },
  );
}

export async function registerAndLogin(
  t: TestApp,
  overrides: { email?: string; password?: string } = {},
): Promise<{ id: string; email: string; token: string; employeeNumber: string }> {
  const email = overrides.email ?? uniqueEmail();
  const password = overrides.password ?? PASSWORD;
  const reg = await api(t.app, "POST", "/v1/auth/register", {
    body: { email, password, firstName: "Pat", lastName: "Doe" },
  });
  assertEquals(reg.status, 201, reg.text);
  const login = await api(t.app, "POST", "/v1/auth/login", { body: { email, password } });
  assertEquals(login.status, 200, login.text);
  return {
    id: reg.body.user.id,
    email,
    token: login.body.accessToken,
    employeeNumber: reg.body.user.employeeNumber,
  };
}

/** A role by its slug, through `GET /roles/all` (the token needs users.view). */
export async function roleBySlug(t: TestApp, token: string, slug: string) {
  const all = await api(t.app, "GET", "/v1/roles/all", { token });
  return all.body.data.find((r: { slug: string }) => r.slug === slug);
}

export function tokenFromMail(body: string): string {
  const match = /token=([A-Za-z0-9_%-]+)/.exec(body);
  if (!match) throw new Error("no token in the mail");
  return decodeURIComponent(match[1]!);
}

/** A clock the test can move forward. */
export function movableClock() {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(ms: number) {
      offsetMs += ms;
    },
  };
}
