/** Accounts test fixtures: users with the three accounts levels, accounts with a member. */
import { assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";

export interface AccountUsers {
  viewer: TestUser;
  editor: TestUser;
  admin: TestUser;
}

export async function accountUsers(t: TestApp): Promise<AccountUsers> {
  return {
    viewer: await createUserWithPermissions(t, ["accounts.view"]),
    editor: await createUserWithPermissions(t, ["accounts.edit"]),
    admin: await createUserWithPermissions(t, ["accounts.admin"]),
  };
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
