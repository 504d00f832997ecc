/**
 * No change may leave the store without an active user holding `users.admin` (API §3, issue 15
 * item 1) → 409 `last_admin`: disabling that user, removing their role, editing or deleting
 * the role that grants it; also when two admins take each other's rights at once
 * (PostgreSQL).
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  withFreshApp,
} from "../_helpers/test_app.ts";
import { testServerUrl } from "../_helpers/test_db.ts";
import { ALL_PERMISSIONS, createAdmin, roleBySlug } from "./_auth_helpers.ts";

const OFF = { env: { AUTH_RATE_LIMIT: "off" } };

function withApp(fn: (t: TestApp) => Promise<void>): Promise<void> {
  return withFreshApp(OFF, fn);
}

function assertLastAdmin(res: { status: number; body: { code?: string }; text: string }) {
  assertEquals(res.status, 409, res.text);
  assertEquals(res.body.code, "last_admin");
}

/** Active users holding users.admin (through any role), straight from the tables. */
async function activeAdmins(t: TestApp): Promise<string[]> {
  const rows = await t.deps.db.selectFrom("users as u")
    .innerJoin("user_roles as ur", "ur.user_id", "u.id")
    .innerJoin("role_permissions as rp", "rp.role_id", "ur.role_id")
    .where("u.is_active", "=", true).where("rp.permission", "=", "users.admin")
    .select("u.id").distinct().execute();
  return rows.map((r) => r.id);
}

Deno.test("the only admin cannot disable themselves, lose the Admin role, or strip the Admin role", async () => {
  await withApp(async (t) => {
    const owner = await createAdmin(t);
    const admin = await roleBySlug(t, owner.token, "admin");
    assertLastAdmin(
      await api(t.app, "PATCH", `/v1/users/${owner.id}/status`, {
        token: owner.token,
        body: { isActive: false },
      }),
    );
    assertLastAdmin(
      await api(t.app, "DELETE", `/v1/users/${owner.id}/roles/${admin.id}`, { token: owner.token }),
    );
    const withoutUsersAdmin = ALL_PERMISSIONS.filter((p) => p !== "users.admin");
    assertLastAdmin(
      await api(t.app, "PATCH", `/v1/roles/${admin.id}`, {
        token: owner.token,
        body: { permissions: withoutUsersAdmin },
      }),
    );
    assertEquals(await activeAdmins(t), [owner.id]);
    assertEquals((await roleBySlug(t, owner.token, "admin")).permissions.length, 42);

    // Other edits of the Admin role and changes that keep an admin still work.
    const renamed = await api(t.app, "PATCH", `/v1/roles/${admin.id}`, {
      token: owner.token,
      body: { description: "Owners" },
    });
    assertEquals(renamed.status, 200, renamed.text);
    const second = await createAdmin(t);
    const off = await api(t.app, "PATCH", `/v1/users/${owner.id}/status`, {
      token: second.token,
      body: { isActive: false },
    });
    assertEquals(off.status, 200, off.text);
    assertEquals(await activeAdmins(t), [second.id]);
    assertLastAdmin(
      await api(t.app, "PATCH", `/v1/users/${second.id}/status`, {
        token: second.token,
        body: { isActive: false },
      }),
    );
  });
});

Deno.test("deleting the custom role that is the only source of users.admin is 409 last_admin", async () => {
  await withApp(async (t) => {
    const owner = await createUserWithPermissions(t, ALL_PERMISSIONS);
    const roles = await api(t.app, "GET", `/v1/users/${owner.id}/roles`, { token: owner.token });
    const [custom] = roles.body.data;
    assertLastAdmin(await api(t.app, "DELETE", `/v1/roles/${custom.id}`, { token: owner.token }));
    assertLastAdmin(
      await api(t.app, "PATCH", `/v1/roles/${custom.id}`, {
        token: owner.token,
        body: { permissions: ["users.edit"] },
      }),
    );
    assertEquals(await activeAdmins(t), [owner.id]);
  });
});

Deno.test("a store that already has no admin is not blocked by the rule", async () => {
  await withApp(async (t) => {
    const editor = await createUserWithPermissions(t, ["users.edit", "users.view"]);
    const user = await createUserWithPermissions(t, ["users.view"]);
    const roles = await api(t.app, "GET", `/v1/users/${user.id}/roles`, { token: editor.token });
    const res = await api(t.app, "DELETE", `/v1/users/${user.id}/roles/${roles.body.data[0].id}`, {
      token: editor.token,
    });
    assertEquals(res.status, 204, res.text);
  });
});

Deno.test({
  name: "two admins disabling (or un-roling) each other at once leave one admin (PostgreSQL)",
  ignore: !testServerUrl(),
  async fn() {
    await withApp(async (t) => {
      for (let round = 0; round < 6; round++) {
        const a = await createAdmin(t);
        const b = await createAdmin(t);
        // The admins of earlier rounds step down first (a store of exactly two admins).
        for (const id of await activeAdmins(t)) {
          if (id === a.id || id === b.id) continue;
          await t.deps.db.updateTable("users").set({ is_active: false }).where("id", "=", id)
            .execute();
        }
        t.deps.actors.invalidate();
        // Warm the actor cache so both requests pass authentication at once.
        await api(t.app, "GET", "/v1/auth/me", { token: a.token });
        await api(t.app, "GET", "/v1/auth/me", { token: b.token });
        const adminRole = await roleBySlug(t, a.token, "admin");
        const [x, y] = await Promise.all(
          round % 2 === 0
            ? [
              api(t.app, "PATCH", `/v1/users/${b.id}/status`, {
                token: a.token,
                body: { isActive: false },
              }),
              api(t.app, "PATCH", `/v1/users/${a.id}/status`, {
                token: b.token,
                body: { isActive: false },
              }),
            ]
            : [
              api(t.app, "DELETE", `/v1/users/${b.id}/roles/${adminRole.id}`, { token: a.token }),
              api(t.app, "DELETE", `/v1/users/${a.id}/roles/${adminRole.id}`, { token: b.token }),
            ],
        );
        const statuses = [x!.status, y!.status].sort();
        const ok = round % 2 === 0 ? 200 : 204;
        assertEquals(statuses.filter((s) => s === ok).length, 1, `round ${round}: ${statuses}`);
        for (const r of [x!, y!].filter((r) => r.status !== ok)) {
          // 409 last_admin; or, when the other change committed before this request was
          // authenticated, 401 (disabled) or 403 (no longer holds users.edit).
          assert([401, 403, 409].includes(r.status), `round ${round}: ${r.status} ${r.text}`);
        }
        assertEquals((await activeAdmins(t)).length, 1, `round ${round}: one admin remains`);
      }
    });
  },
});
