/**
 * Signed URLs of the storage hub follow the file's access (API §11): a change that narrows it —
 * the folder or an ancestor made private, moved or losing a grant, the file moved — revokes the
 * URLs signed before (403 invalid_signature); a deleted file's URL → 404; URLs signed after the
 * change follow the new rules; other folders' URLs and widening changes revoke nothing.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { folder, grant, storageSuite, type StorageUsers, upload } from "./_fixtures.ts";

let t: TestApp;
let u: StorageUsers;
storageSuite((s) => ({ t, u } = s));

/** POST /storage/files/:id/url as `user`, expecting 200; returns the URL's path and query. */
async function sign(user: TestUser, fileId: string): Promise<string> {
  const res = await api(t.app, "POST", `/v1/storage/files/${fileId}/url`, { token: user.token });
  assertEquals(res.status, 200, res.text);
  const url = new URL(res.body.url);
  return url.pathname + url.search;
}

/** The status (and code) a signed URL answers, without a token. */
async function use(link: string): Promise<[number, string | undefined]> {
  const res = await api(t.app, "GET", link);
  return [res.status, res.status === 200 ? undefined : res.body.code];
}

const OK: [number, undefined] = [200, undefined];
const REVOKED: [number, string] = [403, "invalid_signature"];

async function patchFolder(id: string, body: unknown): Promise<void> {
  const res = await api(t.app, "PATCH", `/v1/storage/folders/${id}`, {
    token: u.admin.token,
    body,
  });
  assertEquals(res.status, 200, res.text);
}

Deno.test("making a folder private revokes the URLs of the files in it and below, not elsewhere", async () => {
  const shared = await folder(t, u.admin, { isPublic: true });
  const below = await folder(t, u.admin, { parentId: shared.id });
  const other = await folder(t, u.admin, { isPublic: true });
  const inShared = (await upload(t, u.admin, shared.id)).body.id;
  const inBelow = (await upload(t, u.admin, below.id)).body.id;
  const inOther = (await upload(t, u.admin, other.id)).body.id;
  // u.viewer sees them through the public flag only
  const links = [await sign(u.viewer, inShared), await sign(u.viewer, inBelow)];
  const otherLink = await sign(u.viewer, inOther);
  const adminLink = await sign(u.admin, inShared);
  for (const link of [...links, otherLink, adminLink]) assertEquals(await use(link), OK);

  await patchFolder(shared.id, { isPublic: false });
  for (const link of [...links, adminLink]) assertEquals(await use(link), REVOKED, link);
  assertEquals(await use(otherLink), OK, "another folder's URL keeps working");
  // signed after the change: the new rules
  assertEquals(
    (await api(t.app, "POST", `/v1/storage/files/${inShared}/url`, { token: u.viewer.token }))
      .status,
    404,
  );
  assertEquals(await use(await sign(u.admin, inBelow)), OK);

  // widening access and renaming revoke nothing
  const again = await sign(u.admin, inShared);
  await patchFolder(shared.id, { isPublic: true, name: `${shared.name} (open)` });
  assertEquals(await use(again), OK);
  await grant(t, u.admin, shared.id, { userId: u.editor.id, level: "view" });
  assertEquals(await use(again), OK);
});

Deno.test("revoking the grant that allowed it revokes the URL; a new grant's URLs work", async () => {
  const root = await folder(t, u.admin);
  const sub = await folder(t, u.admin, { parentId: root.id });
  const elsewhere = await folder(t, u.admin);
  const reader = await createUserWithPermissions(t, ["storage.view"]);
  const allowed = await grant(t, u.admin, root.id, { userId: reader.id, level: "view" });
  await grant(t, u.admin, elsewhere.id, { userId: reader.id, level: "view" });
  const file = (await upload(t, u.admin, sub.id)).body.id;
  const otherFile = (await upload(t, u.admin, elsewhere.id)).body.id;
  const link = await sign(reader, file);
  const otherLink = await sign(reader, otherFile);
  assertEquals(await use(link), OK);

  const revoked = await api(
    t.app,
    "DELETE",
    `/v1/storage/folders/${root.id}/permissions/${allowed.id}`,
    {
      token: u.admin.token,
    },
  );
  assertEquals(revoked.status, 204);
  assertEquals(await use(link), REVOKED);
  assertEquals(await use(otherLink), OK);
  const refused = await api(t.app, "POST", `/v1/storage/files/${file}/url`, {
    token: reader.token,
  });
  assertEquals(refused.status, 404);

  await grant(t, u.admin, sub.id, { userId: reader.id, level: "view" });
  const newLink = await sign(reader, file);
  assertEquals(await use(newLink), OK);
  assertEquals(await use(link), REVOKED, "the old URL stays revoked");
});

Deno.test("moving the folder or an ancestor revokes the URLs below; an Idempotency-Key replay stays revoked", async () => {
  const top = await folder(t, u.admin);
  const middle = await folder(t, u.admin, { parentId: top.id });
  const target = await folder(t, u.admin);
  const file = (await upload(t, u.admin, middle.id)).body.id;
  const call = () =>
    api(t.app, "POST", `/v1/storage/files/${file}/url`, {
      token: u.admin.token,
      headers: { "Idempotency-Key": `revocation-${file}` },
    });
  const first = await call();
  const link = new URL(first.body.url).pathname + new URL(first.body.url).search;
  assertEquals(await use(link), OK);

  await patchFolder(middle.id, { parentId: target.id });
  assertEquals(await use(link), REVOKED);
  const replay = await call();
  assertEquals(replay.body, first.body, "the replay answers the first URL");
  assertEquals(await use(link), REVOKED);

  const fresh = await sign(u.admin, file);
  assertEquals(await use(fresh), OK);
  await patchFolder(target.id, { parentId: top.id });
  assertEquals(await use(fresh), REVOKED, "an ancestor moved");
});

Deno.test("moving the file revokes its URL; deleting it → 404", async () => {
  const from = await folder(t, u.admin);
  const to = await folder(t, u.admin);
  const file = (await upload(t, u.admin, from.id)).body.id;
  const link = await sign(u.admin, file);
  const moved = await api(t.app, "PATCH", `/v1/storage/files/${file}`, {
    token: u.admin.token,
    body: { folderId: to.id },
  });
  assertEquals(moved.status, 200, moved.text);
  assertEquals(await use(link), REVOKED);
  const fresh = await sign(u.admin, file);
  assertEquals(await use(fresh), OK);
  const deleted = await api(t.app, "DELETE", `/v1/storage/files/${file}`, { token: u.admin.token });
  assertEquals(deleted.status, 204);
  const [status, code] = await use(fresh);
  assertEquals([status, code], [404, "not_found"]);
});

Deno.test("URLs signed while a grant is revoked in parallel all stop working once it is gone", async () => {
  const root = await folder(t, u.admin);
  const reader = await createUserWithPermissions(t, ["storage.view"]);
  const allowed = await grant(t, u.admin, root.id, { userId: reader.id, level: "view" });
  const file = (await upload(t, u.admin, root.id)).body.id;
  const before = await sign(reader, file);
  const signing = Array.from(
    { length: 8 },
    () => api(t.app, "POST", `/v1/storage/files/${file}/url`, { token: reader.token }),
  );
  const revoke = api(t.app, "DELETE", `/v1/storage/folders/${root.id}/permissions/${allowed.id}`, {
    token: u.admin.token,
  });
  const [revoked, ...signed] = await Promise.all([revoke, ...signing]);
  assertEquals(revoked!.status, 204);
  const links = signed.filter((res) => res.status === 200).map((res) => new URL(res.body.url));
  assert(signed.every((res) => res.status === 200 || res.status === 404), "signed or refused");
  for (const link of links) assertEquals(await use(link.pathname + link.search), REVOKED);
  assertEquals(await use(before), REVOKED);
});
