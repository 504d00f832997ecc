/**
 * The set-up every HTTP test file repeats: one application (own database) for the whole file,
 * created before the first test and closed after the last.
 *
 * ```ts
 * let t: TestApp;
 * let editor: TestUser;
 * withTestApp(async (app) => {
 *   t = app;
 *   editor = await createUserWithPermissions(t, ["accounts.edit"]);
 * });
 * ```
 *
 * Most folders also make the same users in every file; their `_fixtures.ts` turns the function
 * that makes them into the folder's suite helper with `suiteOf`, so a file's set-up is a line:
 *
 * ```ts
 * export const posSuite = suiteOf(posUsers); // tests/pos/_fixtures.ts
 *
 * let t: TestApp;
 * let u: PosUsers;
 * posSuite((s) => ({ t, u } = s)); // a test file
 * ```
 */
import type { Permission } from "../../domain/auth/permissions.ts";
import {
  createTestApp,
  createUserWithPermissions,
  type TestApp,
  type TestAppOptions,
  type TestUser,
} from "./test_app.ts";

/** Registers `beforeAll` (create the app, then `setup(app)`) and `afterAll` (close it). */
export function withTestApp(
  setup: (t: TestApp) => void | Promise<void>,
  options: TestAppOptions = {},
): void {
  let t: TestApp | undefined;
  Deno.test.beforeAll(async () => {
    t = await createTestApp(options);
    await setup(t);
  });
  Deno.test.afterAll(async () => {
    await t?.close();
  });
}

/** A test file's app and the users (or other fixtures) made in it before the first test. */
export interface Suite<U> {
  t: TestApp;
  u: U;
}

/**
 * Takes the suite once it is ready (in `beforeAll`), typically into the file's variables; may go
 * on setting up (a promise it returns is awaited).
 */
export type SuiteReady<U> = (suite: Suite<U>) => unknown;

/** `withTestApp` that makes the file's users with `users(app)` and hands both to `ready`. */
export function withSuite<U>(
  users: (t: TestApp) => Promise<U>,
  ready: SuiteReady<U>,
  options: TestAppOptions = {},
): void {
  withTestApp(async (t) => {
    await ready({ t, u: await users(t) });
  }, options);
}

/** A folder's suite helper: `withSuite` with the folder's `users`. */
export function suiteOf<U>(
  users: (t: TestApp) => Promise<U>,
): (ready: SuiteReady<U>, options?: TestAppOptions) => void {
  return (ready, options) => withSuite(users, ready, options);
}

/** Named users, each holding exactly the permissions listed for it. */
export type Roles = Readonly<Record<string, readonly Permission[]>>;

export type UsersOf<R extends Roles> = { [K in keyof R]: TestUser };

/** Makes one user per entry of `roles`, in their order. */
export function usersWith<R extends Roles>(roles: R): (t: TestApp) => Promise<UsersOf<R>> {
  return async (t) => {
    const users: Partial<UsersOf<R>> = {};
    for (const name of Object.keys(roles) as (keyof R & string)[]) {
      users[name] = await createUserWithPermissions(t, roles[name]!);
    }
    return users as UsersOf<R>;
  };
}
