/**
 * The vault's lifecycle over HTTP (API §12, the spec's state table): not initialized →
 * initialize (unlocked) → lock → unlock → change the master password; who may do each; the
 * 423 answers; KDF settings stored and raised; every step audited. The tests of this file run
 * in order on one vault.
 */
import { assert, assertEquals, assertMatch } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp } from "../_helpers/test_app.ts";
import { sql } from "../_helpers/test_db.ts";
import {
  assertProblem,
  call,
  createCategory,
  createEntry,
  lock,
  MASTER,
  reveal,
  unlock,
  vaultSuite,
  type VaultUsers,
} from "./_fixtures.ts";

let t: TestApp;
let u: VaultUsers;
vaultSuite((s) => ({ t, u } = s));

const NEW_MASTER = "a completely different passphrase";

async function status() {
  return await call(t, u.viewer, "GET", "/v1/vault/status");
}

async function auditActions(): Promise<string[]> {
  const rows = await t.deps.db.selectFrom("audit_log").select("action")
    .where("action", "like", "vault.%").orderBy("at").orderBy("id").execute();
  return rows.map((r) => r.action);
}

Deno.test("before initialization: status says so, and unlock, lock and entries answer 423 vault_not_initialized", async () => {
  assertEquals(await status(), { initialized: false, locked: true });
  const unlockRes = await api(t.app, "POST", "/v1/vault/unlock", {
    token: u.viewer.token,
    body: { masterPassword: MASTER },
  });
  assertProblem(unlockRes, 423, "vault_not_initialized");
  assertMatch(unlockRes.body.detail, /ops vault init/);
  assertProblem(
    await api(t.app, "POST", "/v1/vault/lock", { token: u.admin.token }),
    423,
    "vault_not_initialized",
  );
  for (
    const [method, path] of [
      ["GET", "/v1/vault/entries"],
      ["GET", `/v1/vault/entries/${crypto.randomUUID()}`],
      ["POST", `/v1/vault/entries/${crypto.randomUUID()}/reveal`],
      ["DELETE", `/v1/vault/entries/${crypto.randomUUID()}`],
    ] as const
  ) {
    assertProblem(
      await api(t.app, method, path, { token: u.admin.token }),
      423,
      "vault_not_initialized",
    );
  }
  const change = await api(t.app, "POST", "/v1/vault/change-master-password", {
    token: u.admin.token,
    body: { currentPassword: MASTER, newPassword: NEW_MASTER },
  });
  assertProblem(change, 423, "vault_not_initialized");
});

Deno.test("initialize needs vault.admin, a full login and 12 characters", async () => {
  const body = { masterPassword: MASTER };
  assertProblem(
    await api(t.app, "POST", "/v1/vault/initialize", { token: u.editor.token, body }),
    403,
    "forbidden",
  );
  assertProblem(
    await api(t.app, "GET", "/v1/vault/status", { token: u.outsider.token }),
    403,
    "forbidden",
  );
  const posToken = await t.deps.tokens.sign(
    { userId: u.admin.id, type: "pos", version: 0 },
    600,
    t.deps.clock.now(),
  );
  assertProblem(
    await api(t.app, "POST", "/v1/vault/initialize", { token: posToken, body }),
    403,
    "full_login_required",
  );
  for (const masterPassword of ["elevenchars", "ééééééééééé", "", "x".repeat(1025)]) {
    const res = await api(t.app, "POST", "/v1/vault/initialize", {
      token: u.admin.token,
      body: { masterPassword },
    });
    assertProblem(res, 400, "validation_failed");
    assertEquals(res.body.errors[0].path, "masterPassword");
  }
  assertProblem(
    await api(t.app, "POST", "/v1/vault/initialize", {
      token: u.admin.token,
      body: { masterPassword: MASTER, iterations: 1 },
    }),
    400,
    "validation_failed",
  );
  assertEquals(await status(), { initialized: false, locked: true });
});

Deno.test("initialize → 201 unlocked; the KDF and its parameters are stored, no key in clear", async () => {
  const res = await api(t.app, "POST", "/v1/vault/initialize", {
    token: u.admin.token,
    body: { masterPassword: MASTER },
  });
  assertEquals(res.status, 201, res.text);
  assertEquals(res.body, { initialized: true, locked: false });
  assertEquals(await status(), { initialized: true, locked: false });
  const config = await t.deps.db.selectFrom("vault_config").selectAll().executeTakeFirstOrThrow();
  assertEquals(config.kdf.algorithm, "PBKDF2-SHA256");
  assertEquals(config.kdf.iterations, 600_000);
  assertEquals(config.initialized_by, u.admin.id);
  assertMatch(config.wrapped_key, /^v1\.[A-Za-z0-9+/=]{16}\.[A-Za-z0-9+/=]{64}$/);

  assertProblem(
    await api(t.app, "POST", "/v1/vault/initialize", {
      token: u.admin.token,
      body: { masterPassword: "another long password" },
    }),
    409,
    "already_initialized",
  );
});

Deno.test("lock (vault.admin) → 204; entries answer 423 vault_locked; lock again is a no-op", async () => {
  const category = await createCategory(t, u.admin);
  const entry = await createEntry(t, u.admin, { categoryId: category.id, secret: "alarm 4711" });
  assertProblem(
    await api(t.app, "POST", "/v1/vault/lock", { token: u.editor.token }),
    403,
    "forbidden",
  );
  await lock(t, u.admin);
  await lock(t, u.admin);
  assertEquals(await status(), { initialized: true, locked: true });
  for (
    const [method, path, body] of [
      ["GET", "/v1/vault/entries", undefined],
      ["GET", `/v1/vault/entries/${entry.id}`, undefined],
      ["POST", `/v1/vault/entries/${entry.id}/reveal`, undefined],
      ["PATCH", `/v1/vault/entries/${entry.id}`, { name: "x" }],
      ["DELETE", `/v1/vault/entries/${entry.id}`, undefined],
      ["POST", "/v1/vault/entries", { categoryId: category.id, name: "n", secret: "s" }],
    ] as const
  ) {
    const res = await api(t.app, method, path, { token: u.admin.token, body });
    assertProblem(res, 423, "vault_locked");
    assertMatch(res.body.detail, /ops vault unlock/);
  }
  // Categories hold no secret: they answer while locked.
  await call(t, u.admin, "GET", `/v1/vault/categories/${category.id}`);
});

Deno.test("unlock: a wrong master password → 400 invalid_master_password; any vault.view holder unlocks", async () => {
  const wrong = await api(t.app, "POST", "/v1/vault/unlock", {
    token: u.viewer.token,
    body: { masterPassword: "not the password" },
  });
  assertProblem(wrong, 400, "invalid_master_password");
  assertEquals(await status(), { initialized: true, locked: true });
  await unlock(t, u.viewer);
  assertEquals(await status(), { initialized: true, locked: false });
  await unlock(t, u.viewer); // unlocking an unlocked vault checks the password again
  assertProblem(
    await api(t.app, "POST", "/v1/vault/unlock", {
      token: u.outsider.token,
      body: { masterPassword: MASTER },
    }),
    403,
    "forbidden",
  );
});

Deno.test("change-master-password: vault.admin, unlocked, current password checked; entries stay readable", async () => {
  const category = await createCategory(t, u.admin);
  const entry = await createEntry(t, u.admin, { categoryId: category.id, secret: "s3cr3t" });
  const before = await t.deps.db.selectFrom("vault_entries").select("secret_sealed")
    .where("id", "=", entry.id).executeTakeFirstOrThrow();
  const body = { currentPassword: MASTER, newPassword: NEW_MASTER };
  assertProblem(
    await api(t.app, "POST", "/v1/vault/change-master-password", {
      token: u.editor.token,
      body,
    }),
    403,
    "forbidden",
  );
  assertProblem(
    await api(t.app, "POST", "/v1/vault/change-master-password", {
      token: u.admin.token,
      body: { currentPassword: "wrong password", newPassword: NEW_MASTER },
    }),
    400,
    "invalid_master_password",
  );
  assertProblem(
    await api(t.app, "POST", "/v1/vault/change-master-password", {
      token: u.admin.token,
      body: { currentPassword: MASTER, newPassword: "short" },
    }),
    400,
    "validation_failed",
  );
  await lock(t, u.admin);
  assertProblem(
    await api(t.app, "POST", "/v1/vault/change-master-password", { token: u.admin.token, body }),
    423,
    "vault_locked",
  );
  await unlock(t, u.admin);
  await call(t, u.admin, "POST", "/v1/vault/change-master-password", body, 204);
  assertEquals(await status(), { initialized: true, locked: false }, "stays unlocked");
  assertEquals(await reveal(t, u.admin, entry.id), "s3cr3t");
  const after = await t.deps.db.selectFrom("vault_entries").select("secret_sealed")
    .where("id", "=", entry.id).executeTakeFirstOrThrow();
  assertEquals(after.secret_sealed, before.secret_sealed, "only the data key was re-wrapped");

  await lock(t, u.admin);
  assertProblem(
    await api(t.app, "POST", "/v1/vault/unlock", {
      token: u.admin.token,
      body: { masterPassword: MASTER },
    }),
    400,
    "invalid_master_password",
  );
  await unlock(t, u.admin, NEW_MASTER);
  assertEquals(await reveal(t, u.admin, entry.id), "s3cr3t");
});

Deno.test("unlock re-wraps a vault whose KDF cost is below the configured one (raised later)", async () => {
  const config = t.deps.config as { vaultKdfIterations: number };
  config.vaultKdfIterations = 700_000;
  try {
    const category = await createCategory(t, u.admin);
    const entry = await createEntry(t, u.admin, { categoryId: category.id, secret: "kept" });
    await lock(t, u.admin);
    await unlock(t, u.admin, NEW_MASTER);
    const stored = await t.deps.db.selectFrom("vault_config").select("kdf")
      .executeTakeFirstOrThrow();
    assertEquals(stored.kdf.iterations, 700_000);
    await lock(t, u.admin);
    await unlock(t, u.admin, NEW_MASTER);
    assertEquals(await reveal(t, u.admin, entry.id), "kept");
  } finally {
    config.vaultKdfIterations = 600_000;
  }
});

Deno.test("the module switch and a PIN token close every vault route", async () => {
  const posToken = await t.deps.tokens.sign(
    { userId: u.admin.id, type: "pos", version: 0 },
    600,
    t.deps.clock.now(),
  );
  assertProblem(
    await api(t.app, "GET", "/v1/vault/status", { token: posToken }),
    403,
    "full_login_required",
  );
  const settings = await createUserWithPermissions(t, ["settings.admin", "vault.admin"]);
  await call(t, settings, "PATCH", "/v1/modules/vault", { enabled: false });
  try {
    assertProblem(
      await api(t.app, "GET", "/v1/vault/status", { token: u.admin.token }),
      403,
      "module_disabled",
    );
    assertProblem(
      await api(t.app, "GET", "/v1/vault/categories", { token: u.admin.token }),
      403,
      "module_disabled",
    );
  } finally {
    await call(t, settings, "PATCH", "/v1/modules/vault", { enabled: true });
  }
});

Deno.test("every step is audited as vault.*, with no password or key in the details", async () => {
  const actions = await auditActions();
  for (
    const action of [
      "vault.initialized",
      "vault.locked",
      "vault.unlock_failed",
      "vault.unlocked",
      "vault.master_password_changed",
      "vault.kdf_upgraded",
      "vault.category_created",
      "vault.entry_created",
      "vault.entry_revealed",
    ]
  ) {
    assert(actions.includes(action), `${action} in ${actions.join(", ")}`);
  }
  const { rows } = await sql<{ dump: string }>`
    SELECT coalesce(string_agg(row_to_json(a)::text, E'\n'), '') AS dump FROM audit_log a`
    .execute(t.deps.db);
  for (const secret of [MASTER, NEW_MASTER, "s3cr3t", "alarm 4711"]) {
    assert(!rows[0]!.dump.includes(secret), `the audit log holds "${secret}"`);
  }
  const failed = await t.deps.db.selectFrom("audit_log").select(["actor_id", "details"])
    .where("action", "=", "vault.unlock_failed").orderBy("at").executeTakeFirstOrThrow();
  assertEquals(failed.actor_id, u.viewer.id);
  assertEquals(failed.details, { during: "unlock", failuresInWindow: 1 });
});
