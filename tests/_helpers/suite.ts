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
 */
import { createTestApp, type TestApp, type TestAppOptions } from "./test_app.ts";

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
