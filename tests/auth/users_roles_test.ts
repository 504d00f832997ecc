import { assert, assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import { PASSWORD, registerAndLogin, uniqueEmail } from "./_auth_helpers.ts";

let t: TestApp;
let admin: TestUser;

withTestApp(async (app) => {
  t = app;
  admin = await createUserWithPermissions(t, ["users.admin", "settings.admin"]);
}, { env: { AUTH_RATE_LIMIT: "off" } });

async function roleBySlug(slug: string) {
  const all = await api(t.app, "GET", "/v1/roles/all", { token: admin.token });
  return all.body.data.find((r: { slug: string }) => r.slug === slug);
}

Deno.test("GET /permissions lists exactly the 42 permissions", async () => {
  const res = await api(t.app, "GET", "/v1/permissions", { token: admin.token });
  assertEquals(res.status, 200);
  assertEquals(res.body.data.length, 42);
  assertEquals(Object.keys(res.body), ["data"]);
  assertEquals(Object.keys(res.body.data[0]).sort(), ["action", "description", "domain", "id"]);
  assertEquals(new Set(res.body.data.map((p: { domain: string }) => p.domain)).size, 13);
});

Deno.test("POST /users creates a staff user with the lowest free employee number and a reset link", async () => {
  const email = uniqueEmail("staff");
  const viewer = await roleBySlug("viewer");
  const res = await api(t.app, "POST", "/v1/users", {
    token: admin.token,
    body: { email, firstName: "Sam", lastName: "Staff", roleIds: [viewer.id] },
  });
  assertEquals(res.status, 201, res.text);
  assertEquals(res.body.user.employeeNumber, "0001");
  assertEquals(res.body.user.roles, [{ id: viewer.id, slug: "viewer", name: "Viewer" }]);
  const link = new URL(res.body.resetLink.url);
  const reset = await api(t.app, "POST", "/v1/auth/reset-password", {
    body: { token: link.searchParams.get("token"), newPassword: "chosen by sam" },
  });
  assertEquals(reset.status, 204);
  const login = await api(t.app, "POST", "/v1/auth/login", {
    body: { email, password: "chosen by sam" },
  });
  assertEquals(login.status, 200);

  const withPassword = await api(t.app, "POST", "/v1/users", {
    token: admin.token,
    body: { email: uniqueEmail(), firstName: "A", lastName: "B", password: PASSWORD },
  });
  assertEquals(withPassword.status, 201);
  assertEquals(withPassword.body.resetLink, undefined);
  assertEquals(withPassword.body.user.employeeNumber, "0002");

  const chosen = await api(t.app, "POST", "/v1/users", {
    token: admin.token,
    body: { email: uniqueEmail(), firstName: "A", lastName: "B", employeeNumber: "0004" },
  });
  assertEquals(chosen.body.user.employeeNumber, "0004");
  const next = await api(t.app, "POST", "/v1/users", {
    token: admin.token,
    body: { email: uniqueEmail(), firstName: "A", lastName: "B" },
  });
  assertEquals(next.body.user.employeeNumber, "0003");
  const taken = await api(t.app, "POST", "/v1/users", {
    token: admin.token,
    body: { email: uniqueEmail(), firstName: "A", lastName: "B", employeeNumber: "0004" },
  });
  assertEquals(taken.status, 409);
  assertEquals(taken.body.code, "duplicate");
  const dupEmail = await api(t.app, "POST", "/v1/users", {
    token: admin.token,
    body: { email: email.toUpperCase(), firstName: "A", lastName: "B" },
  });
  assertEquals(dupEmail.status, 409);
  const badRole = await api(t.app, "POST", "/v1/users", {
    token: admin.token,
    body: { email: uniqueEmail(), firstName: "A", lastName: "B", roleIds: [crypto.randomUUID()] },
  });
  assertEquals(badRole.status, 400);
  assertEquals(badRole.body.code, "invalid_reference");
  const massAssign = await api(t.app, "POST", "/v1/users", {
    token: admin.token,
    body: { email: uniqueEmail(), firstName: "A", lastName: "B", isActive: false },
  });
  assertEquals(massAssign.status, 400);
});

Deno.test("GET /users lists with roles inline, searches and sorts; GET /users/:id", async () => {
  const viewer = await createUserWithPermissions(t, ["users.view"]);
  const marker = `zq${crypto.randomUUID().slice(0, 6)}`;
  for (const last of ["Charlie", "Alpha", "Bravo"]) {
    await api(t.app, "POST", "/v1/users", {
      token: admin.token,
      body: {
        email: `${marker}.${last.toLowerCase()}@example.test`,
        firstName: "Q",
        lastName: last,
      },
    });
  }
  const res = await api(t.app, "GET", `/v1/users?q=${marker}&sort=lastName`, {
    token: viewer.token,
  });
  assertEquals(res.status, 200);
  assertEquals(res.body.data.map((u: { lastName: string }) => u.lastName), [
    "Alpha",
    "Bravo",
    "Charlie",
  ]);
  assertEquals(res.body.pagination.total, 3);
  assert(Array.isArray(res.body.data[0].roles));
  const desc = await api(
    t.app,
    "GET",
    `/v1/users?q=${marker.toUpperCase()}&sort=email&order=desc`,
    {
      token: viewer.token,
    },
  );
  assertEquals(desc.body.data[0].lastName, "Charlie");
  const literal = await api(t.app, "GET", "/v1/users?q=%25", { token: viewer.token });
  assertEquals(literal.body.pagination.total, 0);
  const badSort = await api(t.app, "GET", "/v1/users?sort=password", { token: viewer.token });
  assertEquals(badSort.status, 400);
  const one = await api(t.app, "GET", `/v1/users/${res.body.data[0].id}`, { token: viewer.token });
  assertEquals(one.status, 200);
  assertEquals(one.body.lastName, "Alpha");
  const missing = await api(t.app, "GET", `/v1/users/${crypto.randomUUID()}`, {
    token: viewer.token,
  });
  assertEquals(missing.status, 404);
  const malformed = await api(t.app, "GET", "/v1/users/not-a-uuid", { token: viewer.token });
  assertEquals(malformed.status, 404);
});

Deno.test("PATCH /users/:id (users.edit) changes names and employee number", async () => {
  const editor = await createUserWithPermissions(t, ["users.edit"]);
  const user = await registerAndLogin(t);
  const res = await api(t.app, "PATCH", `/v1/users/${user.id}`, {
    token: editor.token,
    body: { firstName: "New", employeeNumber: "0777" },
  });
  assertEquals(res.status, 200);
  assertEquals(res.body.firstName, "New");
  assertEquals(res.body.employeeNumber, "0777");
  const bad = await api(t.app, "PATCH", `/v1/users/${user.id}`, {
    token: editor.token,
    body: { employeeNumber: "77" },
  });
  assertEquals(bad.status, 400);
  const other = await registerAndLogin(t);
  const clash = await api(t.app, "PATCH", `/v1/users/${other.id}`, {
    token: editor.token,
    body: { employeeNumber: "0777" },
  });
  assertEquals(clash.status, 409);
  const status = await api(t.app, "PATCH", `/v1/users/${user.id}/status`, {
    token: editor.token,
    body: { isActive: false },
  });
  assertEquals(status.status, 403, "status needs users.admin");
});

Deno.test("a role assigned or removed applies to the user's existing token at once", async () => {
  const editor = await createUserWithPermissions(t, ["users.edit", "users.view"]);
  const user = await registerAndLogin(t);
  const viewer = await roleBySlug("viewer");
  // Warm the actor cache with the role-less state.
  assertEquals((await api(t.app, "GET", "/v1/modules", { token: user.token })).status, 403);
  const assigned = await api(t.app, "POST", `/v1/users/${user.id}/roles`, {
    token: editor.token,
    body: { roleId: viewer.id },
  });
  assertEquals(assigned.status, 201);
  assertEquals(assigned.body, { id: viewer.id, slug: "viewer", name: "Viewer" });
  assertEquals((await api(t.app, "GET", "/v1/modules", { token: user.token })).status, 200);
  const again = await api(t.app, "POST", `/v1/users/${user.id}/roles`, {
    token: editor.token,
    body: { roleId: viewer.id },
  });
  assertEquals(again.status, 409);
  assertEquals(again.body.code, "duplicate");
  const list = await api(t.app, "GET", `/v1/users/${user.id}/roles`, { token: editor.token });
  assertEquals(list.body, { data: [{ id: viewer.id, slug: "viewer", name: "Viewer" }] });
  const removed = await api(t.app, "DELETE", `/v1/users/${user.id}/roles/${viewer.id}`, {
    token: editor.token,
  });
  assertEquals(removed.status, 204);
  assertEquals((await api(t.app, "GET", "/v1/modules", { token: user.token })).status, 403);
  const notAssigned = await api(t.app, "DELETE", `/v1/users/${user.id}/roles/${viewer.id}`, {
    token: editor.token,
  });
  assertEquals(notAssigned.status, 404);
  const unknownRole = await api(t.app, "POST", `/v1/users/${user.id}/roles`, {
    token: editor.token,
    body: { roleId: crypto.randomUUID() },
  });
  assertEquals(unknownRole.status, 400);
  const unknownUser = await api(t.app, "POST", `/v1/users/${crypto.randomUUID()}/roles`, {
    token: editor.token,
    body: { roleId: viewer.id },
  });
  assertEquals(unknownUser.status, 404);
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
  const viewer = await roleBySlug("viewer");
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

Deno.test("audit log records role and user changes, filterable, newest first", async () => {
  const user = await registerAndLogin(t);
  const viewer = await roleBySlug("viewer");
  await api(t.app, "POST", `/v1/users/${user.id}/roles`, {
    token: admin.token,
    body: { roleId: viewer.id },
  });
  await api(t.app, "DELETE", `/v1/users/${user.id}/roles/${viewer.id}`, { token: admin.token });
  await api(t.app, "PATCH", `/v1/users/${user.id}/status`, {
    token: admin.token,
    body: { isActive: false },
  });
  const res = await api(t.app, "GET", `/v1/audit-log?entityType=user&entityId=${user.id}`, {
    token: admin.token,
  });
  assertEquals(res.status, 200);
  const actions = res.body.data.map((e: { action: string }) => e.action);
  assertEquals(actions.slice(0, 3), ["user.disabled", "user.role_removed", "user.role_assigned"]);
  const entry = res.body.data[0];
  assertEquals(entry.actorId, admin.id);
  assertEquals(entry.actorEmail, admin.email);
  assertEquals(Object.keys(entry).sort(), [
    "action",
    "actorEmail",
    "actorId",
    "at",
    "details",
    "entityId",
    "entityType",
    "id",
  ]);
  const byActor = await api(
    t.app,
    "GET",
    `/v1/audit-log?actorId=${admin.id}&action=user.disabled`,
    {
      token: admin.token,
    },
  );
  assert(byActor.body.data.length >= 1);
  const future = await api(t.app, "GET", "/v1/audit-log?from=2999-01-01T00:00:00Z", {
    token: admin.token,
  });
  assertEquals(future.body.data, []);
  const badFrom = await api(t.app, "GET", "/v1/audit-log?from=yesterday", { token: admin.token });
  assertEquals(badFrom.status, 400);
  const forbidden = await api(t.app, "GET", "/v1/audit-log", {
    token: (await createUserWithPermissions(t, ["settings.edit"])).token,
  });
  assertEquals(forbidden.status, 403);
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

Deno.test("GET /users q treats % and _ literally", async () => {
  const viewer = await createUserWithPermissions(t, ["users.view"]);
  const marker = `lq${crypto.randomUUID().slice(0, 6)}`;
  const ids: Record<string, string> = {};
  for (const lastName of [`${marker}O_Neil`, `${marker}OxNeil`, `${marker}100%`, `${marker}1000`]) {
    const res = await api(t.app, "POST", "/v1/users", {
      token: admin.token,
      body: { email: `${crypto.randomUUID().slice(0, 8)}@example.test`, firstName: "L", lastName },
    });
    assertEquals(res.status, 201, res.text);
    ids[lastName] = res.body.user.id;
  }
  const search = async (q: string) =>
    (await api(t.app, "GET", `/v1/users?q=${encodeURIComponent(q)}`, { token: viewer.token }))
      .body.data.map((u: { id: string }) => u.id);
  assertEquals(await search(`${marker}o_n`), [ids[`${marker}O_Neil`]]);
  assertEquals(await search(`${marker}100%`), [ids[`${marker}100%`]]);
  assertEquals((await search(marker)).length, 4);
  assertEquals(await search(`${marker}_`), []);
  assertEquals(await search(`${marker}%`), []);
});
