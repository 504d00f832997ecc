/** Folder permissions (API §11): listing, granting and revoking grants, at admin level only. */
import { assertEquals } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp } from "../_helpers/test_app.ts";
import { folder, grant, groupOf, storageSuite, type StorageUsers } from "./_fixtures.ts";

let t: TestApp;
let u: StorageUsers;
storageSuite((s) => ({ t, u } = s));

const permissionsOf = (id: string) => `/v1/storage/folders/${id}/permissions`;

Deno.test("POST grants to a role or a user; GET lists the folder's own grants, oldest first", async () => {
  const root = await folder(t, u.admin);
  const sub = await folder(t, u.admin, { parentId: root.id });
  const role = await groupOf(t, []);
  const onRole = await grant(t, u.admin, root.id, { roleId: role, level: "view" });
  assertEquals(
    [onRole.folderId, onRole.roleId, onRole.userId, onRole.level, onRole.createdBy],
    [root.id, role, null, "view", u.admin.id],
  );
  const onUser = await grant(t, u.admin, root.id, { userId: u.viewer.id, level: "traverse" });
  const list = await api(t.app, "GET", permissionsOf(root.id), { token: u.admin.token });
  assertEquals(list.status, 200);
  assertEquals(Object.keys(list.body), ["data"]);
  assertEquals(list.body.data.map((g: { id: string }) => g.id), [onRole.id, onUser.id]);
  const inherited = await api(t.app, "GET", permissionsOf(sub.id), { token: u.admin.token });
  assertEquals(inherited.body.data, []);
  const audit = await t.deps.db.selectFrom("audit_log").select("action")
    .where("entity_id", "=", root.id).where("action", "=", "storage.permission_granted").execute();
  assertEquals(audit.length, 2);
});

Deno.test("a grant body names exactly one grantee that exists, at a known level", async () => {
  const root = await folder(t, u.admin);
  const post = (body: unknown) =>
    api(t.app, "POST", permissionsOf(root.id), { token: u.admin.token, body });
  const role = await groupOf(t, []);
  for (
    const body of [
      { level: "view" },
      { roleId: role, userId: u.viewer.id, level: "view" },
      { roleId: role, level: "owner" },
      { roleId: role },
      { roleId: "nope", level: "view" },
      { roleId: role, level: "view", folderId: root.id },
    ]
  ) {
    const res = await post(body);
    assertEquals([res.status, res.body.code], [400, "validation_failed"], JSON.stringify(body));
  }
  for (const body of [{ roleId: crypto.randomUUID() }, { userId: crypto.randomUUID() }]) {
    const res = await post({ ...body, level: "view" });
    assertEquals([res.status, res.body.code], [400, "invalid_reference"]);
  }
});

Deno.test("one grant per folder and grantee (409 duplicate), also under parallel requests", async () => {
  const root = await folder(t, u.admin);
  const user = await createUserWithPermissions(t, ["storage.view"]);
  const results = await Promise.all(
    ["traverse", "view", "edit", "admin"].map((level) =>
      api(t.app, "POST", permissionsOf(root.id), {
        token: u.admin.token,
        body: { userId: user.id, level },
      })
    ),
  );
  assertEquals(results.map((r) => r.status).sort(), [201, 409, 409, 409]);
  assertEquals(results.find((r) => r.status === 409)!.body.code, "duplicate");
  // the same user on another folder, or a role on this one: fine
  await grant(t, u.admin, (await folder(t, u.admin)).id, { userId: user.id, level: "view" });
  await grant(t, u.admin, root.id, { roleId: await groupOf(t, [user]), level: "view" });
});

Deno.test("DELETE revokes (204); a grant of another folder or an unknown one → 404", async () => {
  const root = await folder(t, u.admin);
  const other = await folder(t, u.admin);
  const made = await grant(t, u.admin, root.id, { userId: u.viewer.id, level: "view" });
  const wrongFolder = await api(t.app, "DELETE", `${permissionsOf(other.id)}/${made.id}`, {
    token: u.admin.token,
  });
  assertEquals(wrongFolder.status, 404);
  const del = (id: string) =>
    api(t.app, "DELETE", `${permissionsOf(root.id)}/${id}`, { token: u.admin.token });
  assertEquals((await del(made.id)).status, 204);
  assertEquals((await del(made.id)).status, 404);
  assertEquals((await del("not-a-uuid")).status, 404);
  assertEquals(await statusAsViewer(root.id), 404);
});

async function statusAsViewer(folderId: string): Promise<number> {
  return (await api(t.app, "GET", `/v1/storage/folders/${folderId}`, { token: u.viewer.token }))
    .status;
}

Deno.test("managing grants needs admin on the folder: edit → 403, no level → 404", async () => {
  const root = await folder(t, u.admin);
  const editor = await createUserWithPermissions(t, ["storage.edit"]);
  const stranger = await createUserWithPermissions(t, ["storage.edit"]);
  const made = await grant(t, u.admin, root.id, { userId: editor.id, level: "edit" });
  for (const [user, expected] of [[editor, 403], [stranger, 404]] as const) {
    const s = async (method: string, path: string, body?: unknown) =>
      (await api(t.app, method, path, { token: user.token, body })).status;
    assertEquals(await s("GET", permissionsOf(root.id)), expected);
    assertEquals(
      await s("POST", permissionsOf(root.id), { userId: user.id, level: "admin" }),
      expected,
    );
    assertEquals(await s("DELETE", `${permissionsOf(root.id)}/${made.id}`), expected);
  }
  // admin inherited from an ancestor is enough below it
  const sub = await folder(t, u.admin, { parentId: root.id });
  await grant(t, u.admin, root.id, { userId: stranger.id, level: "admin" });
  await grant(t, stranger, sub.id, { userId: editor.id, level: "admin" });
});

Deno.test("deleting a role or a folder takes its grants with it", async () => {
  const root = await folder(t, u.admin);
  const user = await createUserWithPermissions(t, ["storage.edit"]);
  const role = await groupOf(t, [user]);
  await grant(t, u.admin, root.id, { roleId: role, level: "edit" });
  assertEquals(
    (await api(t.app, "GET", `/v1/storage/folders/${root.id}`, { token: user.token })).status,
    200,
  );
  await t.deps.db.deleteFrom("user_roles").where("role_id", "=", role).execute();
  await t.deps.db.deleteFrom("roles").where("id", "=", role).execute();
  const left = await api(t.app, "GET", permissionsOf(root.id), { token: u.admin.token });
  assertEquals(left.body.data.filter((g: { roleId: string }) => g.roleId === role), []);
});
