/** Accounts test fixtures: users with the three accounts levels, accounts with a member. */
import { assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp, type TestAppOptions, type TestUser } from "../_helpers/test_app.ts";
import {
  type Roles,
  type SuiteReady,
  type UsersOf,
  usersWith,
  withSuite,
} from "../_helpers/suite.ts";

/** The three accounts levels. */
export const ACCOUNT_ROLES = {
  viewer: ["accounts.view"],
  editor: ["accounts.edit"],
  admin: ["accounts.admin"],
} as const satisfies Roles;

export type AccountUsers = UsersOf<typeof ACCOUNT_ROLES>;

/**
 * One app (own database) for the test file with a user per role (by default the three accounts
 * levels), ready before the first test: `accountsSuite((s) => ({ t, u: { viewer } } = s))`.
 */
export function accountsSuite<R extends Roles = typeof ACCOUNT_ROLES>(
  ready: SuiteReady<UsersOf<R>>,
  roles: R = ACCOUNT_ROLES as Roles as R,
  options: TestAppOptions = {},
): void {
  withSuite(usersWith(roles), ready, options);
}

/** An id no record has. */
export const MISSING = "0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";

/** A new account created from a primary contact (by `editor`): its id and its member's. */
export async function newAccountWithMember(t: TestApp, editor: TestUser) {
  const res = await api(t.app, "POST", "/v1/accounts", {
    token: editor.token,
    body: { primaryContact: { firstName: "Sub", lastName: crypto.randomUUID().slice(0, 6) } },
  });
  assertEquals(res.status, 201);
  return { accountId: res.body.id as string, memberId: res.body.primaryMemberId as string };
}
