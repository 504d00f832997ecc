/** Accounts test fixtures: users with the three accounts levels. */
import { createUserWithPermissions, type TestApp, type TestUser } from "../_helpers/test_app.ts";

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
