/**
 * Folders (API §11): creation rules, listing one level, renames, moves with the cycle check
 * (also under concurrency), sibling name clashes (also under concurrency), subtree deletion,
 * and the listing's constant query count.
 */
import { sql } from "kysely";
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp } from "../_helpers/test_app.ts";
import type { Actor } from "../../app/actor.ts";
import { listFolders } from "../../app/storage/folders.ts";
import { folderListQuery } from "../../app/storage/storage_schemas.ts";
import {
  chain,
  folder,
  grant,
  storageSuite,
  type StorageUsers,
  uniqueName,
  upload,
} from "./_fixtures.ts";

let t: TestApp;
let u: StorageUsers;
storageSuite((s) => ({ t, u } = s));

const post = (token: string, body: unknown) =>
  api(t.app, "POST", "/v1/storage/folders", { token, body });
const patch = (token: string, id: string, body: unknown) =>
  api(t.app, "PATCH", `/v1/storage/folders/${id}`, { token, body });

Deno.test("root folders need storage.edit; their creator gets an admin grant on them", async () => {
  assertEquals((await post(u.viewer.token, { name: uniqueName() })).status, 403);
  const editor = await createUserWithPermissions(t, ["storage.edit"]);
  const made = await post(editor.token, { name: uniqueName() });
  assertEquals([made.status, made.body.parentId, made.body.isPublic], [201, null, false]);
  assertEquals([made.body.effectiveLevel, made.body.createdBy], ["admin", editor.id]);
  const grants = await api(t.app, "GET", `/v1/storage/folders/${made.body.id}/permissions`, {
    token: editor.token,
  });
  assertEquals(
    grants.body.data.map((g: { userId: string; level: string }) => [g.userId, g.level]),
    [
      [editor.id, "admin"],
    ],
  );
  const roots = await api(t.app, "GET", "/v1/storage/folders?limit=100", { token: editor.token });
  assertEquals(roots.body.data.map((f: { id: string }) => f.id), [made.body.id]);
});

Deno.test("subfolders need edit on the parent; an invisible parent is an invalid reference", async () => {
  const root = await folder(t, u.admin);
  const editor = await createUserWithPermissions(t, ["storage.edit"]);
  const hidden = await post(editor.token, { name: "x", parentId: root.id });
  assertEquals([hidden.status, hidden.body.code], [400, "invalid_reference"]);
  const unknown = await post(editor.token, { name: "x", parentId: crypto.randomUUID() });
  assertEquals([unknown.status, unknown.body.code], [400, "invalid_reference"]);
  await grant(t, u.admin, root.id, { userId: editor.id, level: "view" });
  assertEquals((await post(editor.token, { name: "x", parentId: root.id })).status, 403);
  const sub = await folder(t, u.admin, { parentId: root.id });
  await grant(t, u.admin, sub.id, { userId: editor.id, level: "edit" });
  const made = await post(editor.token, { name: "Mine", parentId: sub.id });
  assertEquals([made.status, made.body.parentId, made.body.effectiveLevel], [201, sub.id, "edit"]);
});

Deno.test("names: trimmed, 1–255 characters, no control characters, slashes or NUL", async () => {
  for (const name of ["", "   ", "a/b", "a\\b", "..", "a\u0000b", "tab\there", "x".repeat(256)]) {
    const res = await post(u.admin.token, { name });
    assertEquals(res.status, 400, JSON.stringify(name));
  }
  assertEquals((await post(u.admin.token, { name: "x", id: crypto.randomUUID() })).status, 400);
  const made = await post(u.admin.token, { name: `  ${uniqueName("Spaced")}  ` });
  assertEquals(made.body.name.startsWith("Spaced"), true);
});

Deno.test("sibling names are unique case-insensitively, root folders included (409 duplicate)", async () => {
  const name = uniqueName("Manuals");
  await folder(t, u.admin, { name });
  const clash = await post(u.admin.token, { name: name.toUpperCase() });
  assertEquals([clash.status, clash.body.code], [409, "duplicate"]);
  const parent = await folder(t, u.admin);
  await folder(t, u.admin, { name, parentId: parent.id }); // another level: fine
  const other = await folder(t, u.admin, { parentId: parent.id });
  const renamed = await patch(u.admin.token, other.id, { name: name.toLowerCase() });
  assertEquals([renamed.status, renamed.body.code], [409, "duplicate"]);
});

Deno.test("parallel creates of one name: exactly one 201, the rest 409 duplicate", async () => {
  const name = uniqueName("Race");
  for (const parentId of [null, (await folder(t, u.admin)).id]) {
    const results = await Promise.all(
      Array.from(
        { length: 8 },
        (_, i) => post(u.admin.token, { name: i % 2 ? name.toUpperCase() : name, parentId }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    assertEquals(statuses, [201, 409, 409, 409, 409, 409, 409, 409]);
    assert(results.filter((r) => r.status === 409).every((r) => r.body.code === "duplicate"));
  }
  // parallel renames (and a move) of siblings into one name: one wins
  const parent = await folder(t, u.admin);
  const siblings = await Promise.all(
    [1, 2, 3].map(() => folder(t, u.admin, { parentId: parent.id })),
  );
  const outsider = await folder(t, u.admin);
  const target = uniqueName("Target");
  const renames = await Promise.all([
    ...siblings.map((s) => patch(u.admin.token, s.id, { name: target })),
    patch(u.admin.token, outsider.id, { name: target, parentId: parent.id }),
  ]);
  assertEquals(renames.map((r) => r.status).sort(), [200, 409, 409, 409]);
  const named = await t.deps.db.selectFrom("storage_folders").select("id")
    .where("parent_id", "=", parent.id).where("name", "=", target).execute();
  assertEquals(named.length, 1);
});

Deno.test("listing: one level, paginated, sorted by name or createdAt, searchable", async () => {
  const parent = await folder(t, u.admin);
  for (const name of ["beta", "Alpha", "gamma 100%", "Delta"]) {
    await folder(t, u.admin, { name, parentId: parent.id });
  }
  await folder(t, u.admin, { name: "deep", parentId: (await folder(t, u.admin)).id });
  const list = (query: string) =>
    api(t.app, "GET", `/v1/storage/folders?parentId=${parent.id}&${query}`, {
      token: u.admin.token,
    });
  const names = (res: { body: { data: { name: string }[] } }) => res.body.data.map((f) => f.name);
  assertEquals(names(await list("")), ["Alpha", "beta", "Delta", "gamma 100%"]);
  assertEquals(names(await list("order=desc")), ["gamma 100%", "Delta", "beta", "Alpha"]);
  assertEquals(names(await list("sort=createdAt")), ["beta", "Alpha", "gamma 100%", "Delta"]);
  const page = await list("limit=3&page=2");
  assertEquals([names(page), page.body.pagination], [["gamma 100%"], {
    page: 2,
    limit: 3,
    total: 4,
    totalPages: 2,
    totalExact: true,
  }]);
  assertEquals(names(await list("q=ALP")), ["Alpha"]);
  assertEquals(names(await list("q=%25")), ["gamma 100%"]);
  const past = await list("page=9");
  assertEquals([past.body.data, past.body.pagination.total], [[], 4]);
  assertEquals((await list("sort=size")).status, 400);
  assertEquals((await list("parentId=nope")).status, 400);
});

Deno.test("the root listing counts only the folders the caller can see", async () => {
  const user = await createUserWithPermissions(t, ["storage.edit"]);
  const mine = await folder(t, u.admin, { name: uniqueName("Zz visible") });
  await folder(t, u.admin); // invisible to the user
  await grant(t, u.admin, mine.id, { userId: user.id, level: "traverse" });
  const res = await api(t.app, "GET", `/v1/storage/folders?q=Zz visible`, { token: user.token });
  assertEquals(res.body.data.map((f: { id: string }) => f.id), [mine.id]);
  const all = await api(t.app, "GET", "/v1/storage/folders?limit=100", { token: user.token });
  assertEquals(all.body.pagination.total, all.body.data.length);
  assert(all.body.data.every((f: { effectiveLevel: string }) => f.effectiveLevel !== "none"));
});

Deno.test("moves: into itself or a descendant → 400, across the tree the level follows", async () => {
  const [a, b, c] = await chain(t, u.admin, 3);
  for (const target of [a.id, b.id, c.id]) {
    const res = await patch(u.admin.token, a.id, { parentId: target });
    assertEquals([res.status, res.body.code], [400, "validation_failed"], target);
  }
  const other = await folder(t, u.admin);
  const moved = await patch(u.admin.token, c.id, { parentId: other.id });
  assertEquals([moved.status, moved.body.parentId], [200, other.id]);
  const toRoot = await patch(u.admin.token, c.id, { parentId: null });
  assertEquals([toRoot.status, toRoot.body.parentId], [200, null]);
  // an editor's level on the moved folder follows its new place
  const user = await createUserWithPermissions(t, ["storage.edit"]);
  await grant(t, u.admin, a.id, { userId: user.id, level: "admin" });
  await grant(t, u.admin, other.id, { userId: user.id, level: "edit" });
  const mv = await patch(user.token, b.id, { parentId: other.id });
  assertEquals([mv.status, mv.body.effectiveLevel], [200, "edit"]);
  assertEquals((await patch(user.token, b.id, { parentId: a.id })).status, 403); // admin needed
});

Deno.test("moves: the target needs edit (invisible → 400 invalid_reference), the root storage.edit", async () => {
  const source = await folder(t, u.admin);
  const moving = await folder(t, u.admin, { parentId: source.id });
  const target = await folder(t, u.admin);
  const viewer = await createUserWithPermissions(t, ["storage.view"]);
  const user = await createUserWithPermissions(t, ["storage.edit"]);
  await grant(t, u.admin, source.id, { userId: user.id, level: "admin" });
  const invisible = await patch(user.token, moving.id, { parentId: target.id });
  assertEquals([invisible.status, invisible.body.code], [400, "invalid_reference"]);
  await grant(t, u.admin, target.id, { userId: user.id, level: "view" });
  assertEquals((await patch(user.token, moving.id, { parentId: target.id })).status, 403);
  await grant(t, u.admin, source.id, { userId: viewer.id, level: "admin" });
  assertEquals((await patch(viewer.token, moving.id, { parentId: null })).status, 403);
  const clashName = (await folder(t, u.admin, { name: uniqueName() })).name;
  await patch(u.admin.token, moving.id, { name: clashName });
  const clash = await patch(u.admin.token, moving.id, { parentId: null });
  assertEquals([clash.status, clash.body.code], [409, "duplicate"]);
});

Deno.test("two concurrent moves cannot make a cycle: one wins, the other is refused", async () => {
  for (let round = 0; round < 5; round++) {
    const parent = await folder(t, u.admin);
    const a = await folder(t, u.admin, { parentId: parent.id });
    const b = await folder(t, u.admin, { parentId: parent.id });
    const [first, second] = await Promise.all([
      patch(u.admin.token, a.id, { parentId: b.id }),
      patch(u.admin.token, b.id, { parentId: a.id }),
    ]);
    assertEquals([first.status, second.status].sort(), [200, 400]);
    const { rows } = await sql<{ id: string; parent_id: string }>`
      SELECT id, parent_id FROM storage_folders WHERE id IN (${a.id}, ${b.id})`.execute(t.deps.db);
    const parentOf = new Map(rows.map((r) => [r.id, r.parent_id]));
    const cycle = parentOf.get(a.id) === b.id && parentOf.get(b.id) === a.id;
    assertEquals(cycle, false);
  }
});

Deno.test("PATCH checks only what changes: unchanged fields need nothing, isPublic needs admin", async () => {
  const root = await folder(t, u.admin);
  const user = await createUserWithPermissions(t, ["storage.edit"]);
  await grant(t, u.admin, root.id, { userId: user.id, level: "edit" });
  const same = await patch(user.token, root.id, {
    name: root.name,
    isPublic: false,
    parentId: null,
  });
  assertEquals([same.status, same.body.updatedAt], [200, root.updatedAt]);
  assertEquals((await patch(user.token, root.id, { isPublic: true })).status, 403);
  const renamed = await patch(user.token, root.id, { name: uniqueName("Renamed") });
  assertEquals([renamed.status, renamed.body.effectiveLevel], [200, "edit"]);
  assertEquals((await patch(user.token, root.id, { color: "red" })).status, 400);
});

Deno.test("deleting a folder removes its subtree, files, grants and bytes (admin level)", async () => {
  const [a, b, c] = await chain(t, u.admin, 3);
  const sibling = await folder(t, u.admin, { parentId: a.id });
  const files = [await upload(t, u.admin, b.id), await upload(t, u.admin, c.id)];
  const user = await createUserWithPermissions(t, ["storage.edit"]);
  await grant(t, u.admin, c.id, { userId: user.id, level: "admin" });
  const paths = (await t.deps.db.selectFrom("storage_files").select("path")
    .where("id", "in", files.map((f) => f.body.id)).execute()).map((r) => r.path);
  assertEquals(paths.length, 2);
  assertEquals(
    (await api(t.app, "DELETE", `/v1/storage/folders/${a.id}`, { token: user.token })).status,
    404,
  );
  const res = await api(t.app, "DELETE", `/v1/storage/folders/${b.id}`, { token: u.admin.token });
  assertEquals(res.status, 204);
  const ids = [b.id, c.id];
  const left = await t.deps.db.selectFrom("storage_folders").select("id")
    .where("id", "in", [...ids, a.id, sibling.id]).execute();
  assertEquals(left.map((r) => r.id).sort(), [a.id, sibling.id].sort());
  const grants = await t.deps.db.selectFrom("storage_folder_permissions").select("id")
    .where("folder_id", "in", ids).execute();
  const rows = await t.deps.db.selectFrom("storage_files").select("id")
    .where("folder_id", "in", ids).execute();
  assertEquals([grants.length, rows.length], [0, 0]);
  for (const path of paths) assertEquals(await t.deps.files.get(path), undefined);
  const audit = await t.deps.db.selectFrom("audit_log").select(["action", "details"])
    .where("entity_id", "=", b.id).where("action", "=", "storage.folder_deleted").execute();
  assertEquals(audit.length, 1);
});

/** The keys of the hub's stored bytes (`storage/<id>.<ext>`), partial writes included. */
function storedKeys(): string[] {
  try {
    return [...Deno.readDirSync(`${t.deps.config.filesDir}/storage`)].map((e) => e.name);
  } catch {
    return [];
  }
}

Deno.test("a delete racing uploads into the folder leaves no row and no bytes behind", async () => {
  const before = storedKeys().length;
  const root = await folder(t, u.admin);
  const sub = await folder(t, u.admin, { parentId: root.id });
  const [deleted, ...uploads] = await Promise.all([
    api(t.app, "DELETE", `/v1/storage/folders/${root.id}`, { token: u.admin.token }),
    ...Array.from({ length: 6 }, (_, i) => upload(t, u.admin, i % 2 ? sub.id : root.id)),
  ]);
  assertEquals(deleted.status, 204, deleted.text);
  for (const res of uploads) assert([201, 404].includes(res.status), res.text);
  const rows = await t.deps.db.selectFrom("storage_files").select("id")
    .where("folder_id", "in", [root.id, sub.id]).execute();
  assertEquals(rows, []);
  assertEquals(storedKeys().length, before);
});

// ---------------------------------------------------------------- query count

function actorOf(userId: string): Actor {
  return {
    userId,
    email: null,
    kind: "access",
    permissions: new Set(["storage.view", "storage.edit"]),
  };
}

async function countedListing(parentId: string, userId: string): Promise<number> {
  const counter = { queries: 0 };
  // Counted as results come back: that sees precompiled statements too (transformQuery only
  // sees the ones built with the query builder).
  const db = t.deps.db.withPlugin({
    transformQuery(args) {
      return args.node;
    },
    transformResult(args) {
      counter.queries++;
      return Promise.resolve(args.result);
    },
  });
  const page = await listFolders(
    { ...t.deps, db },
    actorOf(userId),
    folderListQuery.parse({
      parentId,
    }),
  );
  assertEquals(page.data.length, 3);
  return counter.queries;
}

Deno.test("listing a folder's children takes one query, whatever the depth of the tree", async () => {
  const user = await createUserWithPermissions(t, ["storage.edit"]);
  const shallow = await chain(t, u.admin, 2);
  const deep = await chain(t, u.admin, 12);
  for (const folders of [shallow, deep]) {
    await grant(t, u.admin, folders[0].id, { userId: user.id, level: "traverse" });
    await grant(t, u.admin, folders.at(-1).id, { userId: user.id, level: "view" });
    for (let i = 0; i < 3; i++) await folder(t, u.admin, { parentId: folders.at(-1).id });
  }
  const small = await countedListing(shallow.at(-1).id, user.id);
  const large = await countedListing(deep.at(-1).id, user.id);
  assertEquals([small, large], [1, 1]);
});
