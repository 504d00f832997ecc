/**
 * No privilege beyond one's own (API §3, issue 15 item 1): assigning or removing a role,
 * creating or editing a role's permissions, deleting a role, creating a user with roles, an
 * admin reset link for a user and disabling a user all need every permission involved (the
 * role's, or the target user's) → 403 `forbidden`, audited; the system actor holds them all.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import { SYSTEM_ACTOR } from "../../app/actor.ts";
import { createAdminResetLink } from "../../app/auth/password_reset.ts";
import { createAdmin, roleBySlug, uniqueEmail } from "./_auth_helpers.ts";

let t: TestApp;
/** Holds the seeded Admin role: every permission. */
let owner: TestUser;
let auditor: TestUser;

withTestApp(async (app) => {
  t = app;
  owner = await createAdmin(t);
  auditor = await createUserWithPermissions(t, ["settings.admin"]);
}, { env: { AUTH_RATE_LIMIT: "off" } });

async function auditActions(entityId: string): Promise<string[]> {
  const res = await api(t.app, "GET", `/v1/audit-log?entityId=${entityId}`, {
    token: auditor.token,
  });
  assertEquals(res.status, 200, res.text);
  return res.body.data.map((e: { action: string }) => e.action);
}

function assertForbidden(res: { status: number; body: { code?: string }; text: string }) {
  assertEquals(res.status, 403, res.text);
  assertEquals(res.body.code, "forbidden");
}

Deno.test("a users.edit holder cannot assign the Admin role to anyone, the caller included", async () => {
  const editor = await createUserWithPermissions(t, ["users.edit"]);
  const other = await createUserWithPermissions(t, []);
  const admin = await roleBySlug(t, owner.token, "admin");
  for (const target of [editor, other]) {
    const res = await api(t.app, "POST", `/v1/users/${target.id}/roles`, {
      token: editor.token,
      body: { roleId: admin.id },
    });
    assertForbidden(res);
    const roles = await api(t.app, "GET", `/v1/users/${target.id}/roles`, { token: owner.token });
    assert(
      !roles.body.data.some((r: { slug: string }) => r.slug === "admin"),
      "nothing was assigned",
    );
  }
  // A role within the caller's own permissions may be assigned.
  const small = await api(t.app, "POST", "/v1/roles", {
    token: owner.token,
    body: { name: `Small ${crypto.randomUUID().slice(0, 6)}`, permissions: ["users.view"] },
  });
  const ok = await api(t.app, "POST", `/v1/users/${other.id}/roles`, {
    token: editor.token,
    body: { roleId: small.body.id },
  });
  assertEquals(ok.status, 201, ok.text);
  assert((await auditActions(other.id)).includes("user.role_assign_denied"));
});

Deno.test("a users.edit holder cannot remove a role from a user more powerful than itself", async () => {
  const editor = await createUserWithPermissions(t, ["users.edit"]);
  const second = await createAdmin(t);
  const admin = await roleBySlug(t, owner.token, "admin");
  const res = await api(t.app, "DELETE", `/v1/users/${second.id}/roles/${admin.id}`, {
    token: editor.token,
  });
  assertForbidden(res);
  const roles = await api(t.app, "GET", `/v1/users/${second.id}/roles`, { token: owner.token });
  assertEquals(roles.body.data.map((r: { slug: string }) => r.slug), ["admin"]);
  assert((await auditActions(second.id)).includes("user.role_remove_denied"));
});

Deno.test("a users.admin holder cannot take over an Admin account through a reset link", async () => {
  const userAdmin = await createUserWithPermissions(t, ["users.admin"]);
  const res = await api(t.app, "POST", `/v1/auth/reset-password/${owner.id}`, {
    token: userAdmin.token,
  });
  assertForbidden(res);
  assert(!res.text.includes("token="), "no link in the refusal");
  assert((await auditActions(owner.id)).includes("user.reset_link_denied"));
  // A user whose permissions the caller holds is fine, and the system actor may do anything.
  const clerk = await createUserWithPermissions(t, ["users.view"]);
  const ok = await api(t.app, "POST", `/v1/auth/reset-password/${clerk.id}`, {
    token: userAdmin.token,
  });
  assertEquals(ok.status, 201, ok.text);
  const system = await createAdminResetLink(t.deps, SYSTEM_ACTOR, owner.id);
  assert(system.url.includes("token="));
});

Deno.test("a users.admin holder cannot disable a user holding more than itself", async () => {
  const userAdmin = await createUserWithPermissions(t, ["users.admin"]);
  const second = await createAdmin(t);
  const res = await api(t.app, "PATCH", `/v1/users/${second.id}/status`, {
    token: userAdmin.token,
    body: { isActive: false },
  });
  assertForbidden(res);
  const me = await api(t.app, "GET", "/v1/auth/me", { token: second.token });
  assertEquals(me.status, 200, "still active, token still valid");
  assert((await auditActions(second.id)).includes("user.disable_denied"));
  const peer = await createUserWithPermissions(t, ["users.view"]);
  const ok = await api(t.app, "PATCH", `/v1/users/${peer.id}/status`, {
    token: userAdmin.token,
    body: { isActive: false },
  });
  assertEquals(ok.status, 200, ok.text);
});

Deno.test("roles: creating, editing or deleting one needs every permission it holds or gets", async () => {
  const userAdmin = await createUserWithPermissions(t, ["users.admin", "pos.view"]);
  const create = await api(t.app, "POST", "/v1/roles", {
    token: userAdmin.token,
    body: { name: `Escalate ${crypto.randomUUID().slice(0, 6)}`, permissions: ["pos.admin"] },
  });
  assertForbidden(create);
  const mine = await api(t.app, "POST", "/v1/roles", {
    token: userAdmin.token,
    body: { name: `Mine ${crypto.randomUUID().slice(0, 6)}`, permissions: ["pos.view"] },
  });
  assertEquals(mine.status, 201, mine.text);
  const grow = await api(t.app, "PATCH", `/v1/roles/${mine.body.id}`, {
    token: userAdmin.token,
    body: { permissions: ["pos.view", "vault.admin"] },
  });
  assertForbidden(grow);
  assert((await auditActions(mine.body.id)).includes("role.update_denied"));

  // The Admin role holds more than this caller: no edit of its permissions, no deletion of a
  // role holding more than the caller.
  const admin = await roleBySlug(t, owner.token, "admin");
  const shrink = await api(t.app, "PATCH", `/v1/roles/${admin.id}`, {
    token: userAdmin.token,
    body: { permissions: ["users.admin"] },
  });
  assertForbidden(shrink);
  assertEquals((await roleBySlug(t, owner.token, "admin")).permissions.length, 42);
  const big = await api(t.app, "POST", "/v1/roles", {
    token: owner.token,
    body: { name: `Big ${crypto.randomUUID().slice(0, 6)}`, permissions: ["inventory.admin"] },
  });
  const del = await api(t.app, "DELETE", `/v1/roles/${big.body.id}`, { token: userAdmin.token });
  assertForbidden(del);
  assertEquals(
    (await api(t.app, "GET", `/v1/roles/${big.body.id}`, { token: owner.token }))
      .status,
    200,
  );
  const delMine = await api(t.app, "DELETE", `/v1/roles/${mine.body.id}`, {
    token: userAdmin.token,
  });
  assertEquals(delMine.status, 204);
});

Deno.test("POST /users with roles needs every permission of those roles", async () => {
  const userAdmin = await createUserWithPermissions(t, ["users.admin"]);
  const admin = await roleBySlug(t, owner.token, "admin");
  const email = uniqueEmail("crony");
  const res = await api(t.app, "POST", "/v1/users", {
    token: userAdmin.token,
    body: { email, firstName: "Cr", lastName: "Ony", roleIds: [admin.id] },
  });
  assertForbidden(res);
  assert(!res.text.includes("resetLink"));
  const list = await api(t.app, "GET", `/v1/users?q=${encodeURIComponent(email)}`, {
    token: owner.token,
  });
  assertEquals(list.body.pagination.total, 0, "no user was created");
  const ok = await api(t.app, "POST", "/v1/users", {
    token: owner.token,
    body: { email, firstName: "Cr", lastName: "Ony", roleIds: [admin.id] },
  });
  assertEquals(ok.status, 201, ok.text);
});
