/** Helpers of the identity tests: register/login through the API, tokens from mails, clocks. */
import { assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { type SuiteReady, withSuite } from "../_helpers/suite.ts";
import { PERMISSIONS } from "../../domain/auth/permissions.ts";
import { SYSTEM_ACTOR } from "../../app/actor.ts";
import { getRuntimeConfig } from "../../app/platform/runtime_config.ts";
import { updateRuntimeConfig } from "../../app/platform/settings.ts";
import { createStaffUser } from "../../app/auth/users.ts";

let counter = 0;

export function uniqueEmail(prefix = "person"): string {
  return `${prefix}${++counter}-${crypto.randomUUID().slice(0, 8)}@example.test`;
}

export const PASSWORD = "correct horse battery";

/** Every permission: a caller that may grant any role (API §3: no privilege beyond one's own). */
export const ALL_PERMISSIONS = PERMISSIONS.map((p) => p.id);

/**
 * One app (own database, no auth rate limit) for the test file with an admin holding every
 * permission (so it may grant any role), ready before the first test:
 * `adminSuite((s) => ({ t, u: admin } = s))`.
 */
export function adminSuite(ready: SuiteReady<TestUser>): void {
  withSuite(
    (t) => createUserWithPermissions(t, ALL_PERMISSIONS),
    ready,
    { env: { AUTH_RATE_LIMIT: "off" } },
  );
}

/**
 * Opens self-registration as the owner would (config `registrationOpen`, default false: API
 * §2), so tests can register more than the first user.
 */
export async function openRegistration(t: TestApp): Promise<void> {
  if ((await getRuntimeConfig(t.deps.db)).registrationOpen) return;
  await updateRuntimeConfig(t.deps, SYSTEM_ACTOR, { registrationOpen: true });
}

/** A user holding the seeded Admin role (as `ops user create --role admin` makes one), logged in. */
export async function createAdmin(t: TestApp): Promise<TestUser> {
  const email = uniqueEmail("admin");
  const { user } = await createStaffUser(t.deps, SYSTEM_ACTOR, {
    email,
    firstName: "Ad",
    lastName: "Min",
    password: PASSWORD,
    roleSlugs: ["admin"],
  });
  const login = await api(t.app, "POST", "/v1/auth/login", { body: { email, password: PASSWORD } });
  assertEquals(login.status, 200, login.text);
  return { id: user.id, email, employeeNumber: user.employeeNumber, token: login.body.accessToken };
}

/** Registers through the API (opening registration first) and logs in. */
export async function registerAndLogin(
  t: TestApp,
  overrides: { email?: string; password?: string } = {},
): Promise<{ id: string; email: string; token: string; employeeNumber: string }> {
  const email = overrides.email ?? uniqueEmail();
  const password = overrides.password ?? PASSWORD;
  await openRegistration(t);
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
