/** Reading files back (API §6): serving, signed URLs, deletes, profile pictures, the module switch. */
import { assert, assertEquals, assertMatch } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { type FilesContext, JPEG, local, PDF, PNG, text, withFilesApp } from "./_fixtures.ts";

let t: TestApp;
let offsetMs = 0;
let uploader: TestUser;
let viewer: TestUser;
let deleter: TestUser;
let accounts: TestUser;
let memberId: string;
let newMember: FilesContext["newMember"];
let uploadTo: FilesContext["uploadTo"];

withFilesApp((context) => {
  ({ t, uploader, viewer, deleter, accounts, memberId, newMember, uploadTo } = context);
}, () => offsetMs);

Deno.test("GET /files/serve/* streams with the stored type, nosniff and Content-Disposition for files.view", async () => {
  const up = await uploadTo(PNG, { entityType: "member", entityId: memberId }, {
    type: "text/html",
  });
  const path = `/v1/files/serve/${up.body.path}`;
  const res = await t.app.request(path, { headers: { Authorization: `Bearer ${viewer.token}` } });
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("Content-Type"), "image/png");
  assertEquals(res.headers.get("X-Content-Type-Options"), "nosniff");
  const name = up.body.path.slice(up.body.path.lastIndexOf("/") + 1);
  assertMatch(name, /^[0-9a-f-]+\.png$/);
  assertEquals(
    res.headers.get("Content-Disposition"),
    `inline; filename="${name}"; filename*=UTF-8''${name}`,
  );
  assertEquals(new Uint8Array(await res.arrayBuffer()), PNG);
  assertEquals((await api(t.app, "GET", path)).status, 401);
  const outsider = await createUserWithPermissions(t, ["accounts.view"]);
  assertEquals((await api(t.app, "GET", path, { token: outsider.token })).status, 403);
  const note = await uploadTo(text("<script>alert(1)</script>"), {
    entityType: "member",
    entityId: memberId,
    category: "notes",
  });
  const served = await t.app.request(`/v1/files/serve/${note.body.path}`, {
    headers: { Authorization: `Bearer ${viewer.token}` },
  });
  assertEquals(served.headers.get("Content-Type"), "text/plain; charset=utf-8");
  assertEquals(served.headers.get("X-Content-Type-Options"), "nosniff");
  await served.body?.cancel();
});

Deno.test("traversal, absolute, encoded and unknown serve paths → 404", async () => {
  const up = await uploadTo(PNG, { entityType: "member", entityId: memberId });
  const id = up.body.id;
  const attempts = [
    "../../../etc/passwd",
    "..%2f..%2f..%2fetc%2fpasswd",
    "%2e%2e/%2e%2e/etc/passwd",
    "%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
    "%252e%252e%252fetc%252fpasswd",
    "..%5c..%5cetc%5cpasswd",
    "..\\..\\etc\\passwd",
    `member/${id}.png%00.txt`,
    `member%2f${id}.png`,
    `member/..%2f${id}.png`,
    `member/${id}.png/..`,
    "/etc/passwd",
    "//etc/passwd",
    `member//${id}.png`,
    `member/${id}.jpg`,
    `user/${id}.png`,
    "member/0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.png",
    "",
  ];
  for (const attempt of attempts) {
    const res = await t.app.request(`/v1/files/serve/${attempt}`, {
      headers: { Authorization: `Bearer ${viewer.token}` },
    });
    assertEquals(res.status, 404, attempt);
    await res.body?.cancel();
  }
  // The real path still works.
  const ok = await t.app.request(`/v1/files/serve/${up.body.path}`, {
    headers: { Authorization: `Bearer ${viewer.token}` },
  });
  assertEquals(ok.status, 200);
  await ok.body?.cancel();
});

Deno.test("signed URLs serve without a token; tampered or expired → 403", async () => {
  const up = await uploadTo(PDF, { entityType: "member", entityId: memberId });
  const signed = await api(t.app, "GET", `/v1/files/${up.body.id}/url`, { token: viewer.token });
  assertEquals(signed.status, 200);
  const expiresIn = Date.parse(signed.body.expiresAt) - Date.now();
  assert(expiresIn > 14 * 60_000 && expiresIn <= 15 * 60_000 + 1000, "15 minutes by default");
  const res = await t.app.request(local(signed.body.url));
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("Content-Type"), "application/pdf");
  assertEquals(new Uint8Array(await res.arrayBuffer()), PDF);
  // The metadata url works too.
  const metaUrl = await t.app.request(local(up.body.url));
  assertEquals(metaUrl.status, 200);
  await metaUrl.body?.cancel();

  const url = new URL(signed.body.url);
  const sig = url.searchParams.get("signature")!;
  const tampered = new URL(url);
  tampered.searchParams.set("signature", (sig[0] === "a" ? "b" : "a") + sig.slice(1));
  const later = new URL(url);
  later.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
  const other = await uploadTo(PDF, { entityType: "member", entityId: memberId });
  const otherFile = new URL(url);
  otherFile.pathname = `/v1/files/serve/${other.body.path}`;
  const noSig = new URL(url);
  noSig.searchParams.delete("signature");
  for (const bad of [tampered, later, otherFile, noSig]) {
    const r = await t.app.request(bad.pathname + bad.search);
    assertEquals(r.status, 403, bad.toString());
    await r.body?.cancel();
  }
  // Signed requests with traversal are still 404.
  const traversal = await t.app.request(`/v1/files/serve/..%2f..%2fetc%2fpasswd${url.search}`);
  assertEquals(traversal.status, 404);
  await traversal.body?.cancel();

  const short = await api(t.app, "GET", `/v1/files/${up.body.id}/url?expiresIn=60`, {
    token: viewer.token,
  });
  offsetMs += 120_000;
  try {
    const expired = await t.app.request(local(short.body.url));
    assertEquals(expired.status, 403);
    await expired.body?.cancel();
  } finally {
    offsetMs -= 120_000;
  }
  const outsider = await createUserWithPermissions(t, ["accounts.view"]);
  assertEquals(
    (await api(t.app, "GET", `/v1/files/${up.body.id}/url`, { token: outsider.token })).status,
    403,
  );
});

Deno.test("DELETE /files/:id removes the row and the bytes (files.delete)", async () => {
  const up = await uploadTo(PNG, { entityType: "member", entityId: memberId });
  assert(await t.deps.files.get(up.body.path).then((s) => s?.cancel().then(() => true)));
  assertEquals(
    (await api(t.app, "DELETE", `/v1/files/${up.body.id}`, { token: uploader.token })).status,
    403,
  );
  assertEquals(
    (await api(t.app, "DELETE", `/v1/files/${up.body.id}`, { token: deleter.token })).status,
    204,
  );
  assertEquals(await t.deps.files.get(up.body.path), undefined);
  assertEquals(
    (await api(t.app, "GET", `/v1/files/${up.body.id}`, { token: viewer.token })).status,
    404,
  );
  assertEquals(
    (await api(t.app, "DELETE", `/v1/files/${up.body.id}`, { token: deleter.token })).status,
    404,
  );
  const gone = await t.app.request(local(up.body.url));
  assertEquals(gone.status, 404);
  await gone.body?.cancel();
});

Deno.test("a member's profile picture is its latest profile image; deleting the member removes its files", async () => {
  const owner = await newMember();
  const reader = await createUserWithPermissions(t, ["accounts.view"]);
  const before = await api(t.app, "GET", `/v1/members/${owner}`, { token: reader.token });
  assertEquals(before.body.profilePictureFileId, null);
  const first = await uploadTo(PNG, { entityType: "member", entityId: owner, category: "profile" });
  const second = await uploadTo(JPEG, {
    entityType: "member",
    entityId: owner,
    category: "profile",
  });
  await uploadTo(PDF, { entityType: "member", entityId: owner, category: "documents" });
  const after = await api(t.app, "GET", `/v1/members/${owner}`, { token: reader.token });
  assertEquals(after.body.profilePictureFileId, second.body.id);
  const listed = await api(t.app, "GET", `/v1/members?q=owner`, { token: reader.token });
  assert(
    listed.body.data.some((m: { id: string; profilePictureFileId: string }) =>
      m.id === owner && m.profilePictureFileId === second.body.id
    ),
  );
  await api(t.app, "DELETE", `/v1/files/${second.body.id}`, { token: deleter.token });
  const fallback = await api(t.app, "GET", `/v1/members/${owner}`, { token: reader.token });
  assertEquals(fallback.body.profilePictureFileId, first.body.id);

  assertEquals(
    (await api(t.app, "DELETE", `/v1/members/${owner}`, { token: accounts.token })).status,
    204,
  );
  assertEquals(await t.deps.files.get(first.body.path), undefined);
  assertEquals(
    (await api(t.app, "GET", `/v1/files/${first.body.id}`, { token: viewer.token })).status,
    404,
  );
});

Deno.test("with the files module disabled, file routes and signed URLs answer 403 module_disabled", async () => {
  const up = await uploadTo(PNG, { entityType: "member", entityId: memberId });
  const admin = await createUserWithPermissions(t, ["settings.admin"]);
  assertEquals(
    (await api(t.app, "PATCH", "/v1/modules/files", {
      token: admin.token,
      body: { enabled: false },
    }))
      .status,
    200,
  );
  try {
    const list = await api(t.app, "GET", `/v1/files/${up.body.id}`, { token: viewer.token });
    assertEquals(list.status, 403);
    assertEquals(list.body.code, "module_disabled");
    const signed = await t.app.request(local(up.body.url));
    assertEquals(signed.status, 403);
    await signed.body?.cancel();
  } finally {
    await api(t.app, "PATCH", "/v1/modules/files", { token: admin.token, body: { enabled: true } });
  }
});
