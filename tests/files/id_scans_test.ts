/**
 * ID scans (API §6, issue 15 item 11): files of entityType `member_identifier` need
 * accounts.view besides files.* for every read (list, metadata, signed URL, content), upload and
 * delete; without it they behave as if absent. Served files carry `Content-Security-Policy:
 * sandbox` and nosniff.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { local, PNG, text, uploadAs, withFilesApp } from "./_fixtures.ts";

let t: TestApp;
let accounts: TestUser;
let uploader: TestUser;
let viewer: TestUser;
let memberId: string;

withFilesApp((context) => {
  ({ t, accounts, uploader, viewer, memberId } = context);
});

async function newIdentifier(): Promise<string> {
  const res = await api(t.app, "POST", `/v1/members/${memberId}/identifiers`, {
    token: accounts.token,
    body: { idType: "passport", idNumber: `P${crypto.randomUUID().slice(0, 8)}` },
  });
  assertEquals(res.status, 201, res.text);
  return res.body.id;
}

Deno.test("uploading an ID scan needs accounts.view as well (403 without it)", async () => {
  const identifierId = await newIdentifier();
  const fields = { entityType: "member_identifier", entityId: identifierId };
  const refused = await uploadAs(t, uploader.token, PNG, fields);
  assertEquals(refused.status, 403, refused.text);
  assertEquals(refused.body.code, "forbidden");
  const idUploader = await createUserWithPermissions(t, ["files.upload", "accounts.view"]);
  const stored = await uploadAs(t, idUploader.token, PNG, fields);
  assertEquals(stored.status, 201, stored.text);
  const rows = await t.deps.db.selectFrom("files").select("id")
    .where("entity_type", "=", "member_identifier").where("entity_id", "=", identifierId)
    .execute();
  assertEquals(rows.length, 1, "the refused upload stored nothing");
});

Deno.test("without accounts.view an ID scan is absent: list, metadata, url, content, delete", async () => {
  const identifierId = await newIdentifier();
  const idStaff = await createUserWithPermissions(t, [
    "files.delete",
    "files.view",
    "accounts.view",
  ]);
  const scan = await uploadAs(t, idStaff.token, PNG, {
    entityType: "member_identifier",
    entityId: identifierId,
  });
  assertEquals(scan.status, 201, scan.text);
  const { id, path } = scan.body;
  const list = `/v1/files?entityType=member_identifier&entityId=${identifierId}`;
  const deleter = await createUserWithPermissions(t, ["files.delete", "files.view"]);

  // files.view alone: nothing there.
  const hiddenList = await api(t.app, "GET", list, { token: viewer.token });
  assertEquals(hiddenList.status, 200);
  assertEquals(hiddenList.body.data, []);
  assertEquals(hiddenList.body.pagination.total, 0);
  for (const route of [`/v1/files/${id}`, `/v1/files/${id}/url`]) {
    const res = await api(t.app, "GET", route, { token: viewer.token });
    assertEquals(res.status, 404, route);
  }
  const served = await t.app.request(`/v1/files/serve/${path}`, {
    headers: { Authorization: `Bearer ${viewer.token}` },
  });
  assertEquals(served.status, 404);
  await served.body?.cancel();
  const deleted = await api(t.app, "DELETE", `/v1/files/${id}`, { token: deleter.token });
  assertEquals(deleted.status, 404);

  // With accounts.view: everything works, a signed URL included.
  const shownList = await api(t.app, "GET", list, { token: idStaff.token });
  assertEquals(shownList.body.data.map((f: { id: string }) => f.id), [id]);
  assertEquals((await api(t.app, "GET", `/v1/files/${id}`, { token: idStaff.token })).status, 200);
  const signed = await api(t.app, "GET", `/v1/files/${id}/url`, { token: idStaff.token });
  assertEquals(signed.status, 200);
  const bySignature = await t.app.request(local(signed.body.url));
  assertEquals(bySignature.status, 200);
  assertEquals(new Uint8Array(await bySignature.arrayBuffer()), PNG);
  const byToken = await t.app.request(`/v1/files/serve/${path}`, {
    headers: { Authorization: `Bearer ${idStaff.token}` },
  });
  assertEquals(byToken.status, 200);
  await byToken.body?.cancel();
  assertEquals(
    (await api(t.app, "DELETE", `/v1/files/${id}`, { token: idStaff.token })).status,
    204,
  );
});

Deno.test("other entity types still need files.view only", async () => {
  const up = await uploadAs(t, uploader.token, PNG, { entityType: "member", entityId: memberId });
  assertEquals(up.status, 201);
  assertEquals(
    (await api(t.app, "GET", `/v1/files/${up.body.id}`, { token: viewer.token })).status,
    200,
  );
  const listed = await api(t.app, "GET", `/v1/files?entityType=member&entityId=${memberId}`, {
    token: viewer.token,
  });
  assert(listed.body.data.some((f: { id: string }) => f.id === up.body.id));
});

Deno.test("served files carry Content-Security-Policy: sandbox and nosniff, by token and by signature", async () => {
  const note = await uploadAs(t, uploader.token, text("<script>alert(1)</script>"), {
    entityType: "member",
    entityId: memberId,
    category: "notes",
  });
  assertEquals(note.status, 201, note.text);
  for (
    const [what, request] of [
      ["token", () =>
        t.app.request(`/v1/files/serve/${note.body.path}`, {
          headers: { Authorization: `Bearer ${viewer.token}` },
        })],
      ["signature", () => t.app.request(local(note.body.url))],
    ] as const
  ) {
    const res = await request();
    assertEquals(res.status, 200, what);
    assertEquals(res.headers.get("Content-Security-Policy"), "sandbox", what);
    assertEquals(res.headers.get("X-Content-Type-Options"), "nosniff", what);
    await res.body?.cancel();
  }
});
