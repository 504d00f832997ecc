/** Staff users (API §3): create, list, read, update, role grants and their audit entries. */
import { assert, assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import {
  adminSuite,
  PASSWORD,
  registerAndLogin,
  roleBySlug,
  uniqueEmail,
} from "./_auth_helpers.ts";

let t: TestApp;
let admin: TestUser;

adminSuite((s) => ({ t, u: admin } = s));

Deno.test("POST /users creates a staff user with the lowest free employee number and a reset link", async () => {
  const email = uniqueEmail("staff");
  const viewer = await roleBySlug(t, admin.token, "viewer");
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
  const viewer = await roleBySlug(t, admin.token, "viewer");
  // The editor holds the Viewer role's permissions, so it may grant it (API §3).
  const editor = await createUserWithPermissions(t, [
    "users.edit",
    "users.view",
    ...viewer.permissions,
  ]);
  const user = await registerAndLogin(t);
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

Deno.test("audit log records role and user changes, filterable, newest first", async () => {
  const user = await registerAndLogin(t);
  const viewer = await roleBySlug(t, admin.token, "viewer");
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
