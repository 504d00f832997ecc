/** Roles and permissions (API §3), and the audit entries of role, module and config changes. */
import { assert, assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { adminSuite, registerAndLogin, roleBySlug } from "./_auth_helpers.ts";

let t: TestApp;
let admin: TestUser;

adminSuite((s) => ({ t, u: admin } = s));

Deno.test("GET /permissions lists exactly the 42 permissions", async () => {
  const res = await api(t.app, "GET", "/v1/permissions", { token: admin.token });
  assertEquals(res.status, 200);
  assertEquals(res.body.data.length, 42);
  assertEquals(Object.keys(res.body), ["data"]);
  assertEquals(Object.keys(res.body.data[0]).sort(), ["action", "description", "domain", "id"]);
  assertEquals(new Set(res.body.data.map((p: { domain: string }) => p.domain)).size, 13);
});

Deno.test("editing a role's permissions applies to its holders' existing tokens at once", async () => {
  const user = await registerAndLogin(t);
  const role = await api(t.app, "POST", "/v1/roles", {
    token: admin.token,
    body: { name: `Cache Probe ${crypto.randomUUID().slice(0, 4)}`, permissions: [] },
  });
  await api(t.app, "POST", `/v1/users/${user.id}/roles`, {
    token: admin.token,
    body: { roleId: role.body.id },
  });
  assertEquals((await api(t.app, "GET", "/v1/config", { token: user.token })).status, 403);
  await api(t.app, "PATCH", `/v1/roles/${role.body.id}`, {
    token: admin.token,
    body: { permissions: ["settings.view"] },
  });
  assertEquals((await api(t.app, "GET", "/v1/config", { token: user.token })).status, 200);
  await api(t.app, "DELETE", `/v1/roles/${role.body.id}`, { token: admin.token });
  assertEquals((await api(t.app, "GET", "/v1/config", { token: user.token })).status, 403);
});

Deno.test("roles: create derives the slug, duplicates are 409, unknown permissions 400", async () => {
  const suffix = crypto.randomUUID().slice(0, 4);
  const res = await api(t.app, "POST", "/v1/roles", {
    token: admin.token,
    body: {
      name: `Front Desk ${suffix}`,
      description: "Greets",
      permissions: ["accounts.view", "pos.edit"],
    },
  });
  assertEquals(res.status, 201, res.text);
  assertEquals(res.body.slug, `front-desk-${suffix}`);
  assertEquals(res.body.isSystem, false);
  assertEquals(res.body.permissions, ["accounts.view", "pos.edit"]);
  const dup = await api(t.app, "POST", "/v1/roles", {
    token: admin.token,
    body: { name: `front  desk ${suffix}!`, permissions: [] },
  });
  assertEquals(dup.status, 409);
  assertEquals(dup.body.code, "duplicate");
  const unknown = await api(t.app, "POST", "/v1/roles", {
    token: admin.token,
    body: { name: "Odd", permissions: ["accounts.fly"] },
  });
  assertEquals(unknown.status, 400);
  const noLetters = await api(t.app, "POST", "/v1/roles", {
    token: admin.token,
    body: { name: "!!!", permissions: [] },
  });
  assertEquals(noLetters.status, 400);

  const got = await api(t.app, "GET", `/v1/roles/${res.body.id}`, { token: admin.token });
  assertEquals(got.body, res.body);
  const patched = await api(t.app, "PATCH", `/v1/roles/${res.body.id}`, {
    token: admin.token,
    body: { name: `Back Office ${suffix}`, permissions: ["inventory.admin"] },
  });
  assertEquals(patched.status, 200);
  assertEquals(patched.body.slug, `back-office-${suffix}`);
  assertEquals(patched.body.permissions, ["inventory.admin"]);
  const deleted = await api(t.app, "DELETE", `/v1/roles/${res.body.id}`, { token: admin.token });
  assertEquals(deleted.status, 204);
  assertEquals(
    (await api(t.app, "GET", `/v1/roles/${res.body.id}`, { token: admin.token })).status,
    404,
  );
});

Deno.test("system roles cannot be deleted but their permissions can be edited", async () => {
  const viewer = await roleBySlug(t, admin.token, "viewer");
  const del = await api(t.app, "DELETE", `/v1/roles/${viewer.id}`, { token: admin.token });
  assertEquals(del.status, 409);
  assertEquals(del.body.code, "system_role");
  const patched = await api(t.app, "PATCH", `/v1/roles/${viewer.id}`, {
    token: admin.token,
    body: { name: "Viewer (renamed)", permissions: [...viewer.permissions, "email.view"] },
  });
  assertEquals(patched.status, 200);
  assertEquals(patched.body.slug, "viewer");
  assert(patched.body.permissions.includes("email.view"));
  await api(t.app, "PATCH", `/v1/roles/${viewer.id}`, {
    token: admin.token,
    body: { name: "Viewer", permissions: viewer.permissions },
  });
});

Deno.test("GET /roles is paginated and sortable; /roles/all is { data } only", async () => {
  const reader = await createUserWithPermissions(t, ["users.view"]);
  const page = await api(t.app, "GET", "/v1/roles?limit=2&sort=slug", { token: reader.token });
  assertEquals(page.status, 200);
  assertEquals(page.body.data.length, 2);
  assert(page.body.pagination.total >= 6);
  const all = await api(t.app, "GET", "/v1/roles/all", { token: reader.token });
  assertEquals(Object.keys(all.body), ["data"]);
  const system = all.body.data.filter((r: { isSystem: boolean }) => r.isSystem)
    .map((r: { slug: string }) => r.slug).sort();
  assertEquals(system, [
    "admin",
    "instructor",
    "manager",
    "sales-associate",
    "technician",
    "viewer",
  ]);
  const q = await api(t.app, "GET", "/v1/roles?q=SALES", { token: reader.token });
  assertEquals(q.body.data.map((r: { slug: string }) => r.slug), ["sales-associate"]);
  const write = await api(t.app, "POST", "/v1/roles", {
    token: reader.token,
    body: { name: "Nope", permissions: [] },
  });
  assertEquals(write.status, 403);
});

Deno.test("module and config changes are audited with their actor", async () => {
  await api(t.app, "PATCH", "/v1/modules/rentals", {
    token: admin.token,
    body: { enabled: false },
  });
  await api(t.app, "PATCH", "/v1/modules/rentals", { token: admin.token, body: { enabled: true } });
  await api(t.app, "PATCH", "/v1/config", { token: admin.token, body: { currency: "EUR" } });
  const modules = await api(t.app, "GET", "/v1/audit-log?action=module.updated", {
    token: admin.token,
  });
  assertEquals(modules.body.data.slice(0, 2).map((e: { details: unknown }) => e.details), [
    { enabled: true },
    { enabled: false },
  ]);
  assertEquals(modules.body.data[0].entityId, "rentals");
  const config = await api(t.app, "GET", "/v1/audit-log?action=config.updated", {
    token: admin.token,
  });
  assertEquals(config.body.data[0].details, { changes: { currency: "EUR" } });
  assertEquals(config.body.data[0].actorId, admin.id);
});

Deno.test("role changes are audited with the permissions added and removed", async () => {
  const role = await api(t.app, "POST", "/v1/roles", {
    token: admin.token,
    body: { name: `Audit Me ${crypto.randomUUID().slice(0, 4)}`, permissions: ["pos.view"] },
  });
  await api(t.app, "PATCH", `/v1/roles/${role.body.id}`, {
    token: admin.token,
    body: { permissions: ["pos.edit"] },
  });
  await api(t.app, "DELETE", `/v1/roles/${role.body.id}`, { token: admin.token });
  const res = await api(t.app, "GET", `/v1/audit-log?entityType=role&entityId=${role.body.id}`, {
    token: admin.token,
  });
  assertEquals(res.body.data.map((e: { action: string }) => e.action), [
    "role.deleted",
    "role.updated",
    "role.created",
  ]);
  assertEquals(res.body.data[1].details.permissionsAdded, ["pos.edit"]);
  assertEquals(res.body.data[1].details.permissionsRemoved, ["pos.view"]);
});
