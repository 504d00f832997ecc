/**
 * Files in storage folders (API §11): uploads under the files module's rules, listing,
 * downloads, signed URLs (no token; tampered or expired → 403), renames, moves, deletes.
 */
import { assert, assertEquals, assertMatch } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp } from "../_helpers/test_app.ts";
import {
  bytes,
  folder,
  grant,
  PDF,
  PNG,
  type StorageUsers,
  storageUsers,
  upload,
  uploadForm,
} from "./_fixtures.ts";
import { withSuite } from "../_helpers/suite.ts";

let t: TestApp;
let u: StorageUsers;
let offsetMs = 0;
withSuite(storageUsers, (s) => ({ t, u } = s), {
  clock: { now: () => new Date(Date.now() + offsetMs) },
});

const local = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

Deno.test("upload: 201 with the stored fields; the name from the part's file name or the name field", async () => {
  const root = await folder(t, u.admin);
  const res = await upload(t, u.admin, root.id, PDF, "docs/Price list.pdf");
  assertEquals(res.status, 201, res.text);
  assertEquals(Object.keys(res.body).sort(), [
    "contentType",
    "createdAt",
    "createdBy",
    "folderId",
    "id",
    "name",
    "size",
  ]);
  assertEquals(
    [res.body.folderId, res.body.name, res.body.contentType, res.body.size, res.body.createdBy],
    [root.id, "Price list.pdf", "application/pdf", PDF.byteLength, u.admin.id],
  );
  const named = await upload(t, u.admin, root.id, PNG, "x.bin", { name: "Logo (final).png" });
  assertEquals([named.status, named.body.name, named.body.contentType], [
    201,
    "Logo (final).png",
    "image/png",
  ]);
  const badName = await upload(t, u.admin, root.id, PNG, "x.bin", { name: "a/b" });
  assertEquals([badName.status, badName.body.errors[0].path], [400, "name"]);
  const quoted = await upload(t, u.admin, root.id, PNG, 'Tour "2026".png');
  assertEquals(quoted.body.name, 'Tour "2026".png');
  const noName = await upload(t, u.admin, root.id, PNG, "");
  assertEquals(noName.status, 400);
});

Deno.test("upload: the whitelist by content bytes (415), the size limit (413), empty (400)", async () => {
  const root = await folder(t, u.admin);
  const elf = bytes(0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00);
  const program = await upload(t, u.admin, root.id, elf, "notes.pdf");
  assertEquals([program.status, program.body.code], [415, "unsupported_media_type"]);
  const svg = new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>");
  assertEquals((await upload(t, u.admin, root.id, svg, "a.png")).status, 415);
  assertEquals((await upload(t, u.admin, root.id, bytes(), "empty.pdf")).status, 400);
  const settings = await createUserWithPermissions(t, ["settings.admin"]);
  const set = await api(t.app, "PATCH", "/v1/config", {
    token: settings.token,
    body: { upload: { maxBytes: 1024 } },
  });
  assertEquals(set.status, 200, set.text);
  try {
    const big = new Uint8Array(2048);
    big.set(PNG);
    const res = await upload(t, u.admin, root.id, big, "big.png");
    assertEquals([res.status, res.body.code], [413, "payload_too_large"]);
    const huge = new Uint8Array(200 * 1024);
    huge.set(PNG);
    assertEquals((await upload(t, u.admin, root.id, huge, "huge.png")).status, 413);
  } finally {
    await api(t.app, "PATCH", "/v1/config", {
      token: settings.token,
      body: { upload: { maxBytes: 10 * 1024 * 1024 } },
    });
  }
  const json = await api(t.app, "POST", `/v1/storage/folders/${root.id}/files`, {
    token: u.admin.token,
    body: { file: "x" },
  });
  assertEquals(json.status, 415);
  const twoFiles = uploadForm(PDF);
  twoFiles.append("file", new Blob([PDF as BlobPart]), "b.pdf");
  const extra = uploadForm(PDF, "a.pdf", { folderId: root.id });
  for (const body of [twoFiles, extra]) {
    const res = await api(t.app, "POST", `/v1/storage/folders/${root.id}/files`, {
      token: u.admin.token,
      body,
    });
    assertEquals(res.status, 400);
  }
  const files = await api(t.app, "GET", `/v1/storage/folders/${root.id}/files`, {
    token: u.admin.token,
  });
  assertEquals(files.body.data, []);
});

Deno.test("list: a folder's files only, sorted by name, createdAt or size, searchable", async () => {
  const root = await folder(t, u.admin);
  const other = await folder(t, u.admin);
  await upload(t, u.admin, other.id, PDF, "elsewhere.pdf");
  for (
    const [content, name] of [[PDF, "b-manual.pdf"], [PNG, "A-photo.png"], [
      PDF,
      "c_100%.pdf",
    ]] as const
  ) {
    assertEquals((await upload(t, u.admin, root.id, content, name)).status, 201);
  }
  const list = (query = "") =>
    api(t.app, "GET", `/v1/storage/folders/${root.id}/files?${query}`, { token: u.admin.token });
  const names = (res: { body: { data: { name: string }[] } }) => res.body.data.map((f) => f.name);
  assertEquals(names(await list()), ["A-photo.png", "b-manual.pdf", "c_100%.pdf"]);
  assertEquals(names(await list("sort=size&order=asc")), [
    "A-photo.png",
    "b-manual.pdf",
    "c_100%.pdf",
  ]);
  assertEquals(names(await list("sort=createdAt&order=desc")), [
    "c_100%.pdf",
    "A-photo.png",
    "b-manual.pdf",
  ]);
  assertEquals(names(await list("q=MANUAL")), ["b-manual.pdf"]);
  assertEquals(names(await list("q=_")), ["c_100%.pdf"]);
  assertEquals((await list("limit=2")).body.pagination, {
    page: 1,
    limit: 2,
    total: 3,
    totalPages: 2,
    totalExact: true,
  });
  assertEquals((await list("sort=path")).status, 400);
});

Deno.test("content with a token: stored type, nosniff, sandbox and the name in Content-Disposition", async () => {
  const root = await folder(t, u.admin);
  const up = await upload(t, u.admin, root.id, PDF, "x.pdf", { name: 'Tour "2026" é.pdf' });
  assertEquals(up.body.name, 'Tour "2026" é.pdf');
  const res = await t.app.request(`/v1/storage/files/${up.body.id}/content`, {
    headers: { Authorization: `Bearer ${u.admin.token}` },
  });
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("Content-Type"), "application/pdf");
  assertEquals(res.headers.get("X-Content-Type-Options"), "nosniff");
  assertEquals(res.headers.get("Content-Security-Policy"), "sandbox");
  assertEquals(
    res.headers.get("Content-Disposition"),
    `inline; filename="Tour _2026_ _.pdf"; filename*=UTF-8''Tour%20%222026%22%20%C3%A9.pdf`,
  );
  assertEquals(new Uint8Array(await res.arrayBuffer()), PDF);
  assertEquals((await api(t.app, "GET", `/v1/storage/files/${up.body.id}/content`)).status, 401);
  const outsider = await api(t.app, "GET", `/v1/storage/files/${up.body.id}/content`, {
    token: u.outsider.token,
  });
  assertEquals(outsider.status, 403);
});

Deno.test("signed URL: works without a token; tampered, expired or made for /files → 403", async () => {
  const root = await folder(t, u.admin);
  const viewer = await createUserWithPermissions(t, ["storage.view"]);
  await grant(t, u.admin, root.id, { userId: viewer.id, level: "view" });
  const up = await upload(t, u.admin, root.id, PNG, "logo.png");
  const signed = await api(t.app, "POST", `/v1/storage/files/${up.body.id}/url?expiresIn=60`, {
    token: viewer.token,
  });
  assertEquals(signed.status, 200, signed.text);
  assertMatch(
    signed.body.url,
    /^http:\/\/shop\.test\/v1\/storage\/files\/[0-9a-f-]+\/content\?expires=\d+&generation=\d+&signature=[0-9a-f]{64}$/,
  );
  const served = await t.app.request(local(signed.body.url));
  assertEquals(served.status, 200);
  assertEquals(new Uint8Array(await served.arrayBuffer()), PNG);
  const path = local(signed.body.url);
  const tampered = path.replace(/signature=(.)/, (_, c) => `signature=${c === "a" ? "b" : "a"}`);
  const otherFile = await upload(t, u.admin, root.id, PDF, "other.pdf");
  const swapped = path.replace(up.body.id, otherFile.body.id);
  const attempts = [
    tampered,
    swapped,
    path.replace(/expires=\d+/, "expires=99999999999"),
    path.replace(/generation=(\d+)/, (_, g) => `generation=${Number(g) + 1}`),
    path.replace(/&generation=\d+/, ""),
  ];
  for (const attempt of attempts) {
    const res = await api(t.app, "GET", attempt);
    assertEquals([res.status, res.body.code], [403, "invalid_signature"], attempt);
  }
  // a signature of the files module for the same id is worthless here
  const { signFileUrl } = await import("../../app/files/signed_urls.ts");
  const forFiles = await signFileUrl(t.deps.config, { id: up.body.id, path: "x" }, new Date());
  const query = new URL(forFiles.url).search;
  assertEquals(
    (await api(t.app, "GET", `/v1/storage/files/${up.body.id}/content${query}`)).status,
    403,
  );
  offsetMs = 61_000;
  try {
    const expired = await api(t.app, "GET", path);
    assertEquals([expired.status, expired.body.code], [403, "invalid_signature"]);
  } finally {
    offsetMs = 0;
  }
  assertEquals(
    (await api(t.app, "POST", `/v1/storage/files/${up.body.id}/url?expiresIn=0`, {
      token: viewer.token,
    })).status,
    400,
  );
});

Deno.test("signed URL replays with its Idempotency-Key, and dies with the file", async () => {
  const root = await folder(t, u.admin);
  const up = await upload(t, u.admin, root.id);
  const call = () =>
    api(t.app, "POST", `/v1/storage/files/${up.body.id}/url`, {
      token: u.admin.token,
      headers: { "Idempotency-Key": `url-${up.body.id}` },
    });
  const first = await call();
  offsetMs = 5_000;
  try {
    const again = await call();
    assertEquals(again.body, first.body);
  } finally {
    offsetMs = 0;
  }
  const replay = await t.deps.db.selectFrom("idempotency_keys").selectAll()
    .where("key", "=", `url-${up.body.id}`).executeTakeFirst();
  assert(!JSON.stringify(replay ?? {}).includes("signature="), "the stored replay holds no URL");
  assertEquals(
    (await api(t.app, "DELETE", `/v1/storage/files/${up.body.id}`, {
      token: u.admin.token,
    })).status,
    204,
  );
  assertEquals((await api(t.app, "GET", local(first.body.url))).status, 404);
});

Deno.test("rename and move: edit on both folders; an invisible target → 400; a move revokes the URL", async () => {
  const from = await folder(t, u.admin);
  const to = await folder(t, u.admin);
  const hidden = await folder(t, u.admin);
  const user = await createUserWithPermissions(t, ["storage.edit"]);
  await grant(t, u.admin, from.id, { userId: user.id, level: "edit" });
  const viewGrant = await grant(t, u.admin, to.id, { userId: user.id, level: "view" });
  const up = await upload(t, user, from.id);
  const signed = await api(t.app, "POST", `/v1/storage/files/${up.body.id}/url`, {
    token: user.token,
  });
  const patch = (body: unknown) =>
    api(t.app, "PATCH", `/v1/storage/files/${up.body.id}`, { token: user.token, body });
  const renamed = await patch({ name: "Renamed.pdf" });
  assertEquals([renamed.status, renamed.body.name], [200, "Renamed.pdf"]);
  assertEquals((await api(t.app, "GET", local(signed.body.url))).status, 200, "a rename keeps it");
  assertEquals((await patch({ folderId: to.id })).status, 403);
  const invisible = await patch({ folderId: hidden.id });
  assertEquals([invisible.status, invisible.body.code], [400, "invalid_reference"]);
  assertEquals((await patch({ folderId: crypto.randomUUID() })).status, 400);
  assertEquals((await patch({ name: "" })).status, 400);
  assertEquals((await patch({ size: 1 })).status, 400);
  await api(t.app, "DELETE", `/v1/storage/folders/${to.id}/permissions/${viewGrant.id}`, {
    token: u.admin.token,
  });
  await grant(t, u.admin, to.id, { userId: user.id, level: "edit" });
  assertEquals((await api(t.app, "GET", local(signed.body.url))).status, 200, "another folder's");
  const moved = await patch({ folderId: to.id });
  assertEquals([moved.status, moved.body.folderId], [200, to.id]);
  const revoked = await api(t.app, "GET", local(signed.body.url));
  assertEquals([revoked.status, revoked.body.code], [403, "invalid_signature"]);
});

Deno.test("delete: edit level; removes the row and the bytes", async () => {
  const root = await folder(t, u.admin);
  const up = await upload(t, u.admin, root.id);
  const { path } = await t.deps.db.selectFrom("storage_files").select("path")
    .where("id", "=", up.body.id).executeTakeFirstOrThrow();
  assert(await t.deps.files.get(path).then(async (s) => (await s?.cancel(), s !== undefined)));
  const viewer = await createUserWithPermissions(t, ["storage.edit"]);
  await grant(t, u.admin, root.id, { userId: viewer.id, level: "view" });
  assertEquals(
    (await api(t.app, "DELETE", `/v1/storage/files/${up.body.id}`, { token: viewer.token })).status,
    403,
  );
  assertEquals(
    (await api(t.app, "DELETE", `/v1/storage/files/${up.body.id}`, { token: u.admin.token }))
      .status,
    204,
  );
  assertEquals(await t.deps.files.get(path), undefined);
  assertEquals(
    (await api(t.app, "GET", `/v1/storage/files/${up.body.id}`, { token: u.admin.token })).status,
    404,
  );
});

Deno.test("the files module switch turns the hub off (403 module_disabled)", async () => {
  const root = await folder(t, u.admin);
  const settings = await createUserWithPermissions(t, ["settings.admin"]);
  const off = await api(t.app, "PATCH", "/v1/modules/files", {
    token: settings.token,
    body: { enabled: false },
  });
  assertEquals(off.status, 200, off.text);
  try {
    const res = await api(t.app, "GET", `/v1/storage/folders/${root.id}`, { token: u.admin.token });
    assertEquals([res.status, res.body.code], [403, "module_disabled"]);
  } finally {
    await api(t.app, "PATCH", "/v1/modules/files", {
      token: settings.token,
      body: { enabled: true },
    });
  }
});
