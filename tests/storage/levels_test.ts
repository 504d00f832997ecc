/**
 * The effective level of API §11 over HTTP: every row of the level table, inheritance through
 * three levels, public folders, user vs role grants, the permission ceiling, 404 vs 403.
 */
import { assertEquals } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp } from "../_helpers/test_app.ts";
import {
  chain,
  folder,
  grant,
  groupOf,
  statusOf,
  storageSuite,
  type StorageUsers,
  upload,
} from "./_fixtures.ts";

let t: TestApp;
let u: StorageUsers;
storageSuite((s) => ({ t, u } = s));

/** A folder with a subfolder and a file, made by the storage admin. */
async function furnished() {
  const root = await folder(t, u.admin);
  const sub = await folder(t, u.admin, { parentId: root.id });
  const file = await upload(t, u.admin, root.id);
  assertEquals(file.status, 201, file.text);
  return { root, sub, fileId: file.body.id as string };
}

Deno.test("traverse: sees the folder and its subfolder names, not its files", async () => {
  const { root, sub, fileId } = await furnished();
  const user = await createUserWithPermissions(t, ["storage.edit"]);
  await grant(t, u.admin, root.id, { userId: user.id, level: "traverse" });
  const got = await api(t.app, "GET", `/v1/storage/folders/${root.id}`, { token: user.token });
  assertEquals([got.status, got.body.effectiveLevel], [200, "traverse"]);
  const children = await api(t.app, "GET", `/v1/storage/folders?parentId=${root.id}`, {
    token: user.token,
  });
  assertEquals(children.body.data.map((f: { id: string }) => f.id), [sub.id]);
  assertEquals(children.body.data[0].effectiveLevel, "traverse");
  const s = (method: string, path: string, body?: unknown) => statusOf(t, user, method, path, body);
  assertEquals(await s("GET", `/v1/storage/folders/${root.id}/files`), 403);
  assertEquals(await s("GET", `/v1/storage/files/${fileId}`), 403);
  assertEquals(await s("POST", `/v1/storage/files/${fileId}/url`), 403);
  assertEquals(await s("GET", `/v1/storage/files/${fileId}/content`), 403);
  assertEquals((await upload(t, user, root.id)).status, 403);
  assertEquals(await s("POST", "/v1/storage/folders", { name: "x", parentId: root.id }), 403);
});

Deno.test("view: lists and downloads files, writes nothing", async () => {
  const { root, fileId } = await furnished();
  const user = await createUserWithPermissions(t, ["storage.edit"]);
  await grant(t, u.admin, root.id, { userId: user.id, level: "view" });
  const files = await api(t.app, "GET", `/v1/storage/folders/${root.id}/files`, {
    token: user.token,
  });
  assertEquals(files.body.data.map((f: { id: string }) => f.id), [fileId]);
  const content = await t.app.request(`/v1/storage/files/${fileId}/content`, {
    headers: { Authorization: `Bearer ${user.token}` },
  });
  assertEquals(content.status, 200);
  await content.body?.cancel();
  assertEquals(await statusOf(t, user, "POST", `/v1/storage/files/${fileId}/url`), 200);
  assertEquals((await upload(t, user, root.id)).status, 403);
  assertEquals(await statusOf(t, user, "PATCH", `/v1/storage/files/${fileId}`, { name: "x" }), 403);
  assertEquals(await statusOf(t, user, "DELETE", `/v1/storage/files/${fileId}`), 403);
  assertEquals(
    await statusOf(t, user, "PATCH", `/v1/storage/folders/${root.id}`, { name: "Renamed" }),
    403,
  );
});

Deno.test("edit: uploads, renames, moves and deletes files, creates subfolders; no grants, no delete", async () => {
  const { root, sub, fileId } = await furnished();
  const user = await createUserWithPermissions(t, ["storage.edit"]);
  await grant(t, u.admin, root.id, { userId: user.id, level: "edit" });
  const s = (method: string, path: string, body?: unknown) => statusOf(t, user, method, path, body);
  assertEquals((await upload(t, user, root.id)).status, 201);
  assertEquals(await s("PATCH", `/v1/storage/files/${fileId}`, { name: "Renamed.pdf" }), 200);
  assertEquals(await s("PATCH", `/v1/storage/files/${fileId}`, { folderId: sub.id }), 200);
  assertEquals(await s("POST", "/v1/storage/folders", { name: "Mine", parentId: root.id }), 201);
  assertEquals(await s("PATCH", `/v1/storage/folders/${sub.id}`, { name: "Sub renamed" }), 200);
  assertEquals(await s("DELETE", `/v1/storage/files/${fileId}`), 204);
  assertEquals(await s("GET", `/v1/storage/folders/${root.id}/permissions`), 403);
  assertEquals(await s("PATCH", `/v1/storage/folders/${root.id}`, { isPublic: true }), 403);
  assertEquals(await s("PATCH", `/v1/storage/folders/${sub.id}`, { parentId: null }), 403);
  assertEquals(await s("DELETE", `/v1/storage/folders/${sub.id}`), 403);
  assertEquals(
    await s("POST", "/v1/storage/folders", { name: "Open", parentId: root.id, isPublic: true }),
    403,
  );
});

Deno.test("admin: manages grants, makes public, deletes the folder", async () => {
  const { root } = await furnished();
  const user = await createUserWithPermissions(t, ["storage.edit"]);
  await grant(t, u.admin, root.id, { userId: user.id, level: "admin" });
  const other = await createUserWithPermissions(t, ["storage.view"]);
  const made = await grant(t, user, root.id, { userId: other.id, level: "view" });
  const list = await api(t.app, "GET", `/v1/storage/folders/${root.id}/permissions`, {
    token: user.token,
  });
  assertEquals(list.body.data.some((g: { id: string }) => g.id === made.id), true);
  const s = (method: string, path: string, body?: unknown) => statusOf(t, user, method, path, body);
  assertEquals(await s("DELETE", `/v1/storage/folders/${root.id}/permissions/${made.id}`), 204);
  assertEquals(await s("PATCH", `/v1/storage/folders/${root.id}`, { isPublic: true }), 200);
  assertEquals(await s("DELETE", `/v1/storage/folders/${root.id}`), 204);
  assertEquals(await s("GET", `/v1/storage/folders/${root.id}`), 404);
});

Deno.test("grants are inherited through three levels, the highest wins", async () => {
  const [a, b, c] = await chain(t, u.admin, 3);
  const user = await createUserWithPermissions(t, ["storage.edit"]);
  await grant(t, u.admin, a.id, { userId: user.id, level: "view" });
  const levelOf = async (id: string) =>
    (await api(t.app, "GET", `/v1/storage/folders/${id}`, { token: user.token })).body
      .effectiveLevel;
  assertEquals([await levelOf(a.id), await levelOf(b.id), await levelOf(c.id)], [
    "view",
    "view",
    "view",
  ]);
  await grant(t, u.admin, b.id, { userId: user.id, level: "edit" });
  assertEquals([await levelOf(a.id), await levelOf(b.id), await levelOf(c.id)], [
    "view",
    "edit",
    "edit",
  ]);
  // a lower grant further down does not lower what is inherited
  await grant(t, u.admin, c.id, { userId: user.id, level: "traverse" });
  assertEquals(await levelOf(c.id), "edit");
  const children = await api(t.app, "GET", `/v1/storage/folders?parentId=${a.id}`, {
    token: user.token,
  });
  assertEquals(children.body.data.map((f: { effectiveLevel: string }) => f.effectiveLevel), [
    "edit",
  ]);
  assertEquals((await upload(t, user, c.id)).status, 201);
});

Deno.test("a grant deep down does not reveal the ancestors", async () => {
  const [a, b, c] = await chain(t, u.admin, 3);
  const user = await createUserWithPermissions(t, ["storage.edit"]);
  await grant(t, u.admin, c.id, { userId: user.id, level: "view" });
  assertEquals(await statusOf(t, user, "GET", `/v1/storage/folders/${c.id}`), 200);
  assertEquals(await statusOf(t, user, "GET", `/v1/storage/folders/${b.id}`), 404);
  assertEquals(await statusOf(t, user, "GET", `/v1/storage/folders?parentId=${b.id}`), 404);
  const roots = await api(t.app, "GET", "/v1/storage/folders?limit=100", { token: user.token });
  assertEquals(roots.body.data.some((f: { id: string }) => f.id === a.id), false);
});

Deno.test("a public folder is a view grant to everyone on it and below, never more", async () => {
  const [a, b] = await chain(t, u.admin, 2);
  const editor = await createUserWithPermissions(t, ["storage.edit"]);
  assertEquals(await statusOf(t, editor, "GET", `/v1/storage/folders/${b.id}`), 404);
  await api(t.app, "PATCH", `/v1/storage/folders/${a.id}`, {
    token: u.admin.token,
    body: { isPublic: true },
  });
  for (const user of [editor, u.viewer]) {
    const got = await api(t.app, "GET", `/v1/storage/folders/${b.id}`, { token: user.token });
    assertEquals([got.status, got.body.effectiveLevel], [200, "view"]);
    assertEquals(await statusOf(t, user, "GET", `/v1/storage/folders/${b.id}/files`), 200);
    assertEquals((await upload(t, user, b.id)).status, 403);
  }
  const roots = await api(t.app, "GET", "/v1/storage/folders?limit=100", { token: u.viewer.token });
  assertEquals(roots.body.data.some((f: { id: string }) => f.id === a.id), true);
  await api(t.app, "PATCH", `/v1/storage/folders/${a.id}`, {
    token: u.admin.token,
    body: { isPublic: false },
  });
  assertEquals(await statusOf(t, u.viewer, "GET", `/v1/storage/folders/${b.id}`), 404);
});

Deno.test("role grants reach every member of the role; user grants only that user; the highest wins", async () => {
  const root = await folder(t, u.admin);
  const first = await createUserWithPermissions(t, ["storage.edit"]);
  const second = await createUserWithPermissions(t, ["storage.edit"]);
  const stranger = await createUserWithPermissions(t, ["storage.edit"]);
  const role = await groupOf(t, [first, second]);
  await grant(t, u.admin, root.id, { roleId: role, level: "view" });
  await grant(t, u.admin, root.id, { userId: second.id, level: "edit" });
  const levelOf = async (token: string) =>
    (await api(t.app, "GET", `/v1/storage/folders/${root.id}`, { token })).body.effectiveLevel;
  assertEquals(await levelOf(first.token), "view");
  assertEquals(await levelOf(second.token), "edit");
  assertEquals(await statusOf(t, stranger, "GET", `/v1/storage/folders/${root.id}`), 404);
  // leaving the role takes its grant away at once
  await t.deps.db.deleteFrom("user_roles").where("user_id", "=", first.id)
    .where("role_id", "=", role).execute();
  assertEquals(await statusOf(t, first, "GET", `/v1/storage/folders/${root.id}`), 404);
});

Deno.test("the global permission caps the level: storage.view stays at view, storage.admin needs no grant", async () => {
  const root = await folder(t, u.admin);
  const viewer = await createUserWithPermissions(t, ["storage.view"]);
  await grant(t, u.admin, root.id, { userId: viewer.id, level: "admin" });
  const got = await api(t.app, "GET", `/v1/storage/folders/${root.id}`, { token: viewer.token });
  assertEquals(got.body.effectiveLevel, "view");
  assertEquals((await upload(t, viewer, root.id)).status, 403);
  assertEquals(await statusOf(t, viewer, "GET", `/v1/storage/folders/${root.id}/permissions`), 403);
  const admin = await createUserWithPermissions(t, ["storage.admin"]);
  const asAdmin = await api(t.app, "GET", `/v1/storage/folders/${root.id}`, { token: admin.token });
  assertEquals(asAdmin.body.effectiveLevel, "admin");
  // a role holding an admin grant: each member is capped by their own permission
  const capped = await createUserWithPermissions(t, ["storage.view"]);
  const full = await createUserWithPermissions(t, ["storage.edit"]);
  const other = await folder(t, u.admin);
  await grant(t, u.admin, other.id, { roleId: await groupOf(t, [capped, full]), level: "admin" });
  const levelOf = async (token: string) =>
    (await api(t.app, "GET", `/v1/storage/folders/${other.id}`, { token })).body.effectiveLevel;
  assertEquals([await levelOf(capped.token), await levelOf(full.token)], ["view", "admin"]);
});

Deno.test("without storage.view nothing is reachable (403 before any lookup)", async () => {
  const root = await folder(t, u.admin, { isPublic: true });
  await grant(t, u.admin, root.id, { userId: u.outsider.id, level: "admin" });
  const s = (method: string, path: string) => statusOf(t, u.outsider, method, path);
  assertEquals(await s("GET", "/v1/storage/folders"), 403);
  assertEquals(await s("GET", `/v1/storage/folders/${root.id}`), 403);
  assertEquals(await s("GET", `/v1/storage/folders/${crypto.randomUUID()}`), 403);
  assertEquals(await s("GET", `/v1/storage/folders/${root.id}/files`), 403);
  assertEquals(await s("DELETE", `/v1/storage/folders/${root.id}`), 403);
});

Deno.test("no level → 404 exactly like a folder or file that does not exist", async () => {
  const { root, fileId } = await furnished();
  const user = await createUserWithPermissions(t, ["storage.edit"]);
  const missing = crypto.randomUUID();
  for (const id of [root.id, missing]) {
    for (
      const [method, path] of [
        ["GET", `/v1/storage/folders/${id}`],
        ["GET", `/v1/storage/folders?parentId=${id}`],
        ["GET", `/v1/storage/folders/${id}/files`],
        ["GET", `/v1/storage/folders/${id}/permissions`],
        ["PATCH", `/v1/storage/folders/${id}`],
        ["DELETE", `/v1/storage/folders/${id}`],
      ] as const
    ) {
      const res = await api(t.app, method, path, {
        token: user.token,
        body: method === "PATCH" ? { name: "x" } : undefined,
      });
      assertEquals([res.status, res.body.code], [404, "not_found"], `${method} ${path}`);
    }
    assertEquals((await upload(t, user, id)).status, 404);
  }
  for (const id of [fileId, missing]) {
    assertEquals(await statusOf(t, user, "GET", `/v1/storage/files/${id}`), 404);
    assertEquals(await statusOf(t, user, "POST", `/v1/storage/files/${id}/url`), 404);
    assertEquals(await statusOf(t, user, "GET", `/v1/storage/files/${id}/content`), 404);
    assertEquals(await statusOf(t, user, "DELETE", `/v1/storage/files/${id}`), 404);
  }
  assertEquals(await statusOf(t, user, "GET", "/v1/storage/folders/not-a-uuid"), 404);
  assertEquals(await statusOf(t, user, "GET", "/v1/storage/files/../../etc/passwd"), 404);
});
