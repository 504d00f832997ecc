/**
 * The per-user lockout of master passwords (API §12): 5 wrong within 15 minutes (unlock and
 * change-master-password together) → 429 `rate_limited` with `Retry-After` for the rest of the
 * window, even with the right password; counted in the database (another process over the
 * same database refuses too); parallel wrong attempts cannot get more than five tries.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  testConfig,
  type TestUser,
} from "../_helpers/test_app.ts";
import { onPostgres } from "../_helpers/query_plans.ts";
import { createDeps } from "../../app/create_deps.ts";
import { createMemoryLogger } from "../../app/logger.ts";
import { createApp } from "../../server/app.ts";
import {
  assertProblem,
  initVault,
  MASTER,
  VAULT_ENV,
  vaultSuite,
  type VaultUsers,
} from "./_fixtures.ts";

/**
 * The app's clock: stands still unless the tests move it (a loaded machine taking seconds
 * over five unlock attempts must not change the Retry-After they expect).
 */
const START = Date.now();
const clock = { offsetMs: 0, now: () => new Date(START + clock.offsetMs) };

let t: TestApp;
let u: VaultUsers;
vaultSuite(async (s) => {
  ({ t, u } = s);
  await initVault(t, u.admin);
}, { clock });

function tryUnlock(user: TestUser, masterPassword: string, app = t.app) {
  return api(app, "POST", "/v1/vault/unlock", { token: user.token, body: { masterPassword } });
}

function tryChange(user: TestUser, currentPassword: string) {
  return api(t.app, "POST", "/v1/vault/change-master-password", {
    token: user.token,
    body: { currentPassword, newPassword: "the next long master password" },
  });
}

async function failures(user: TestUser): Promise<number> {
  const row = await t.deps.db.selectFrom("vault_unlock_failures").select("failures")
    .where("user_id", "=", user.id).executeTakeFirst();
  return row?.failures ?? 0;
}

Deno.test("five wrong master passwords lock the user out for the rest of the window, even with the right one", async () => {
  const user = await createUserWithPermissions(t, ["vault.view"]);
  for (let i = 1; i <= 5; i++) {
    assertProblem(await tryUnlock(user, `wrong password ${i}`), 400, "invalid_master_password");
  }
  assertEquals(await failures(user), 5);
  clock.offsetMs += 60_000;
  const refused = await tryUnlock(user, MASTER);
  assertProblem(refused, 429, "rate_limited");
  assertEquals(refused.headers.get("Retry-After"), String(15 * 60 - 60));
  assert(/Too many wrong master passwords/.test(refused.body.detail), refused.text);
  assertEquals(await failures(user), 5, "a refused attempt is not tried, nor counted");

  // Other users are not affected.
  assertEquals((await tryUnlock(u.viewer, MASTER)).status, 204);

  clock.offsetMs += 14 * 60_000;
  assertEquals((await tryUnlock(user, MASTER)).status, 204, "the window has passed");
});

Deno.test("the counter lives in the database: another server process over it refuses as well", async () => {
  const user = await createUserWithPermissions(t, ["vault.view"]);
  for (let i = 0; i < 5; i++) assertEquals((await tryUnlock(user, "nope nope nope")).status, 400);
  const other = createDeps({
    config: testConfig(VAULT_ENV),
    db: t.deps.db,
    dbKind: t.deps.dbKind,
    logger: createMemoryLogger(),
    clock,
  });
  const otherApp = createApp(other);
  assertProblem(await tryUnlock(user, MASTER, otherApp), 429, "rate_limited");
  // Each process holds its own key: the other one is still locked.
  const status = await api(otherApp, "GET", "/v1/vault/status", { token: u.viewer.token });
  assertEquals(status.body, { initialized: true, locked: true });
  clock.offsetMs += 15 * 60_000;
});

Deno.test("wrong current passwords of change-master-password count on the same counter", async () => {
  const admin = await createUserWithPermissions(t, ["vault.admin"]);
  assertEquals((await tryUnlock(admin, MASTER)).status, 204);
  for (let i = 0; i < 3; i++) {
    assertProblem(await tryChange(admin, `wrong ${i} wrong ${i}`), 400, "invalid_master_password");
  }
  for (let i = 0; i < 2; i++) assertEquals((await tryUnlock(admin, "still wrong!!")).status, 400);
  assertProblem(await tryChange(admin, MASTER), 429, "rate_limited");
  assertProblem(await tryUnlock(admin, MASTER), 429, "rate_limited");
  clock.offsetMs += 15 * 60_000;
});

Deno.test("a right password gives its own attempt back, not the earlier failures", async () => {
  const user = await createUserWithPermissions(t, ["vault.view"]);
  for (let i = 0; i < 4; i++) assertEquals((await tryUnlock(user, "wrong wrong")).status, 400);
  assertEquals((await tryUnlock(user, MASTER)).status, 204);
  assertEquals(await failures(user), 4);
  assertEquals((await tryUnlock(user, "wrong wrong")).status, 400, "the fifth failure");
  assertProblem(await tryUnlock(user, MASTER), 429, "rate_limited");
  clock.offsetMs += 15 * 60_000;
});

Deno.test({
  name:
    "parallel wrong attempts cannot exceed the lockout: 5 are tried, the rest refused (PostgreSQL)",
  ignore: !onPostgres,
  async fn() {
    const user = await createUserWithPermissions(t, ["vault.view"]);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => tryUnlock(user, `parallel wrong ${i}`)),
    );
    const statuses = results.map((r) => r.status).sort();
    assertEquals(
      statuses,
      [...Array(5).fill(400), ...Array(7).fill(429)],
      results.map((r) => r.text).join("\n"),
    );
    assertEquals(await failures(user), 5);
    const audited = await t.deps.db.selectFrom("audit_log").select("id")
      .where("action", "=", "vault.unlock_failed").where("actor_id", "=", user.id).execute();
    assertEquals(audited.length, 5, "exactly five passwords were tried");
    // The right password in parallel with wrong ones: never more than five tries either.
    const other = await createUserWithPermissions(t, ["vault.view"]);
    const mixed = await Promise.all(
      Array.from({ length: 10 }, (_, i) => tryUnlock(other, i === 9 ? MASTER : `wrong ${i}!!!!`)),
    );
    const tried = mixed.filter((r) => r.status !== 429).length;
    assert(tried <= 6, `at most five failures plus the right one were tried: ${tried}`);
    assert((await failures(other)) <= 5);
    clock.offsetMs += 15 * 60_000;
  },
});
