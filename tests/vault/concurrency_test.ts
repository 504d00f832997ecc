/**
 * The vault under parallel requests (PostgreSQL): initializations at once leave one vault
 * (one 201, the rest 409 already_initialized, the winner's key held); two changes of the master
 * password at once cannot both win (the loser gets 409 concurrent_update, or 400 when it read
 * the new wrap, and only the winner's password opens the vault); edits and deletes of one entry run one after another.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import { onPostgres } from "../_helpers/query_plans.ts";
import {
  assertProblem,
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

const onPg = { ignore: !onPostgres };

Deno.test({
  name: "parallel initializations: exactly one vault, and the key held is the one stored",
  ...onPg,
  async fn() {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        api(t.app, "POST", "/v1/vault/initialize", {
          token: u.admin.token,
          body: { masterPassword: i === 0 ? MASTER : `${MASTER} #${i}` },
        })),
    );
    const statuses = results.map((r) => r.status).sort();
    assertEquals(statuses, [201, 409, 409, 409, 409, 409], results.map((r) => r.text).join("\n"));
    for (const r of results.filter((r) => r.status === 409)) {
      assertEquals(r.body.code, "already_initialized");
    }
    const configs = await t.deps.db.selectFrom("vault_config").selectAll().execute();
    assertEquals(configs.length, 1);
    // Whatever password won, entries sealed now open after a lock and unlock with it.
    const winner = results.findIndex((r) => r.status === 201);
    const password = winner === 0 ? MASTER : `${MASTER} #${winner}`;
    const category = await createCategory(t, u.admin);
    const entry = await createEntry(t, u.admin, { categoryId: category.id, secret: "one vault" });
    await lock(t, u.admin);
    await unlock(t, u.admin, password);
    assertEquals(await reveal(t, u.admin, entry.id), "one vault");
    if (password !== MASTER) {
      await api(t.app, "POST", "/v1/vault/change-master-password", {
        token: u.admin.token,
        body: { currentPassword: password, newPassword: MASTER },
      });
    }
  },
});

Deno.test({
  name:
    "two changes of the master password at once: one wins, the other is refused and its password opens nothing",
  ...onPg,
  async fn() {
    const category = await createCategory(t, u.admin);
    const entry = await createEntry(t, u.admin, { categoryId: category.id, secret: "kept" });
    const [a, b] = await Promise.all(
      ["first new password", "second new password"].map((next) =>
        api(t.app, "POST", "/v1/vault/change-master-password", {
          token: u.admin.token,
          body: { currentPassword: MASTER, newPassword: next },
        })
      ),
    );
    // Both read the old wrap: one replaces it, the other's swap fails (409); or the other read
    // it after the first committed, and its current password no longer opens it (400).
    const won = [a!, b!].filter((r) => r.status === 204);
    const lost = [a!, b!].filter((r) => r.status !== 204);
    assertEquals(won.length, 1, `${a!.text} ${b!.text}`);
    assert(
      ["concurrent_update", "invalid_master_password"].includes(lost[0]!.body.code),
      lost[0]!.text,
    );
    const winner = a!.status === 204 ? "first new password" : "second new password";
    const loser = winner === "first new password" ? "second new password" : "first new password";
    await lock(t, u.admin);
    assertProblem(
      await api(t.app, "POST", "/v1/vault/unlock", {
        token: u.admin.token,
        body: { masterPassword: loser },
      }),
      400,
      "invalid_master_password",
    );
    await unlock(t, u.admin, winner);
    assertEquals(await reveal(t, u.admin, entry.id), "kept");
  },
});

Deno.test({
  name: "parallel edits and a delete of one entry run one after another (row lock)",
  ...onPg,
  async fn() {
    const category = await createCategory(t, u.admin);
    const entry = await createEntry(t, u.admin, { categoryId: category.id, secret: "v0" });
    const edits = Array.from(
      { length: 8 },
      (_, i) =>
        api(t.app, "PATCH", `/v1/vault/entries/${entry.id}`, {
          token: u.admin.token,
          body: { secret: `v${i + 1}`, name: `name ${i + 1}` },
        }),
    );
    const results = await Promise.all(edits);
    assert(results.every((r) => r.status === 200), results.map((r) => r.text).join("\n"));
    const secret = await reveal(t, u.admin, entry.id);
    const detail = await api(t.app, "GET", `/v1/vault/entries/${entry.id}`, {
      token: u.admin.token,
    });
    assertEquals(detail.body.name.replace("name ", "v"), secret, "secret and name of one edit");
    const [edit, del] = await Promise.all([
      api(t.app, "PATCH", `/v1/vault/entries/${entry.id}`, {
        token: u.admin.token,
        body: { secret: "late" },
      }),
      api(t.app, "DELETE", `/v1/vault/entries/${entry.id}`, { token: u.admin.token }),
    ]);
    assertEquals(del!.status, 204);
    assert(edit!.status === 200 || edit!.status === 404, edit!.text);
    assertProblem(
      await api(t.app, "POST", `/v1/vault/entries/${entry.id}/reveal`, { token: u.admin.token }),
      404,
      "not_found",
    );
  },
});
