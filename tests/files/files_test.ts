import { assert, assertEquals, assertMatch } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";

let t: TestApp;
let offsetMs = 0;
let uploader: TestUser;
let viewer: TestUser;
let deleter: TestUser;
let settings: TestUser;
let accounts: TestUser;
let memberId: string;

withTestApp(async (app) => {
  t = app;
  uploader = await createUserWithPermissions(t, ["files.upload"]);
  viewer = await createUserWithPermissions(t, ["files.view"]);
  deleter = await createUserWithPermissions(t, ["files.delete", "files.view"]);
  settings = await createUserWithPermissions(t, ["settings.admin"]);
  accounts = await createUserWithPermissions(t, ["accounts.admin"]);
  memberId = await newMember();
}, { clock: { now: () => new Date(Date.now() + offsetMs) } });

async function newMember(): Promise<string> {
  const res = await api(t.app, "POST", "/v1/accounts", {
    token: accounts.token,
    body: { primaryContact: { firstName: "File", lastName: "Owner" } },
  });
  assertEquals(res.status, 201);
  return res.body.primaryMemberId;
}

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (value: string) => new TextEncoder().encode(value);
const PNG = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82);
const JPEG = bytes(0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70);
const GIF = text("GIF89a\x01\x00\x01\x00");
const WEBP = text("RIFF\x1a\x00\x00\x00WEBPVP8 ");
const PDF = text("%PDF-1.7\n%âãÏÓ\n");

function form(
  content: Uint8Array,
  fields: Record<string, string>,
  options: { type?: string; name?: string } = {},
): FormData {
  const data = new FormData();
  data.set(
    "file",
    new Blob([content as BlobPart], { type: options.type ?? "" }),
    options.name ?? "x.bin",
  );
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
}

function uploadTo(
  content: Uint8Array,
  fields: Record<string, string>,
  options: { type?: string; name?: string; token?: string } = {},
) {
  return api(t.app, "POST", "/v1/files", {
    token: options.token ?? uploader.token,
    body: form(content, fields, options),
  });
}

/** Path and query of an absolute URL, to call the app with. */
function local(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

Deno.test("POST /files stores a PNG for a member and returns its metadata with a signed url", async () => {
  const res = await uploadTo(
    PNG,
    { entityType: "member", entityId: memberId, category: "photos" },
    {
      name: "../../evil.sh",
    },
  );
  assertEquals(res.status, 201);
  assertEquals(
    Object.keys(res.body).sort(),
    ["category", "contentType", "createdAt", "entityId", "entityType", "id", "path", "size", "url"],
  );
  assertEquals(res.body.contentType, "image/png");
  assertEquals(res.body.size, PNG.byteLength);
  assertEquals(res.body.path, `member/${res.body.id}.png`);
  assertMatch(
    res.body.url,
    /^http:\/\/shop\.test\/v1\/files\/serve\/member\/.+\?expires=\d+&signature=[0-9a-f]{64}$/,
  );
  const meta = await api(t.app, "GET", `/v1/files/${res.body.id}`, { token: viewer.token });
  assertEquals(meta.status, 200);
  assertEquals(meta.body.path, res.body.path);
  const listed = await api(t.app, "GET", `/v1/files?entityType=member&entityId=${memberId}`, {
    token: viewer.token,
  });
  assertEquals(listed.status, 200);
  assert(listed.body.data.some((f: { id: string }) => f.id === res.body.id));
  assertEquals(
    (await api(t.app, "GET", `/v1/files?entityType=member`, { token: viewer.token })).status,
    400,
  );
  assertEquals(
    (await api(t.app, "GET", `/v1/files?entityType=planet&entityId=${memberId}`, {
      token: viewer.token,
    })).status,
    400,
  );
});

Deno.test("the whitelist is judged from the bytes: images and PDF pass, others → 415", async () => {
  for (
    const [content, type] of [[JPEG, "image/jpeg"], [GIF, "image/gif"], [WEBP, "image/webp"], [
      PDF,
      "application/pdf",
    ]] as const
  ) {
    const res = await uploadTo(content, { entityType: "member", entityId: memberId });
    assertEquals(res.status, 201, type);
    assertEquals(res.body.contentType, type);
  }
  const html = await uploadTo(text("<html><script>alert(1)</script></html>"), {
    entityType: "member",
    entityId: memberId,
  }, { type: "image/png", name: "cat.png" });
  assertEquals(html.status, 415);
  assertEquals(html.body.code, "unsupported_media_type");
  const svg = await uploadTo(text("<svg xmlns='http://www.w3.org/2000/svg'/>"), {
    entityType: "member",
    entityId: memberId,
    category: "notes",
  });
  assertEquals(svg.status, 201, "an SVG is only text: allowed as a note, served as text/plain");
  assertEquals(svg.body.contentType, "text/plain; charset=utf-8");
  const plain = await uploadTo(text("just text"), { entityType: "member", entityId: memberId });
  assertEquals(plain.status, 415);
  const binaryNote = await uploadTo(bytes(0x61, 0x00, 0x62), {
    entityType: "member",
    entityId: memberId,
    category: "notes",
  });
  assertEquals(binaryNote.status, 415);
  const badUtf8 = await uploadTo(bytes(0xc3, 0x28, 0x41), {
    entityType: "member",
    entityId: memberId,
    category: "notes",
  });
  assertEquals(badUtf8.status, 415);
  const pdfProfile = await uploadTo(PDF, {
    entityType: "member",
    entityId: memberId,
    category: "profile",
  });
  assertEquals(pdfProfile.status, 415);
});

Deno.test("the owning record must exist; entity types without a registered owner check → 400", async () => {
  const missing = await uploadTo(PNG, {
    entityType: "member",
    entityId: "0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
  });
  assertEquals(missing.status, 400);
  assertEquals(missing.body.code, "invalid_reference");
  const user = await uploadTo(PNG, { entityType: "user", entityId: uploader.id });
  assertEquals(user.status, 201);
  for (const entityType of ["repair_ticket", "rental_agreement"]) {
    const res = await uploadTo(PNG, { entityType, entityId: memberId });
    assertEquals(res.status, 400, entityType);
  }
  const badType = await uploadTo(PNG, { entityType: "planet", entityId: memberId });
  assertEquals(badType.status, 400);
  const badId = await uploadTo(PNG, { entityType: "member", entityId: "x" });
  assertEquals(badId.status, 400);
  const extraField = await uploadTo(PNG, { entityType: "member", entityId: memberId, owner: "me" });
  assertEquals(extraField.status, 400);
  const noFile = new FormData();
  noFile.set("entityType", "member");
  noFile.set("entityId", memberId);
  assertEquals(
    (await api(t.app, "POST", "/v1/files", { token: uploader.token, body: noFile })).status,
    400,
  );
  const json = await api(t.app, "POST", "/v1/files", { token: uploader.token, body: { a: 1 } });
  assertEquals(json.status, 400);
  const viewerUpload = await uploadTo(PNG, { entityType: "member", entityId: memberId }, {
    token: viewer.token,
  });
  assertEquals(viewerUpload.status, 403);
});

Deno.test("uploads over upload.maxBytes → 413, whether the file or the whole body is too large", async () => {
  const patch = await api(t.app, "PATCH", "/v1/config", {
    token: settings.token,
    body: { upload: { maxBytes: 1000 } },
  });
  assertEquals(patch.status, 200);
  try {
    const justOver = new Uint8Array(1001);
    justOver.set(PNG);
    const small = await uploadTo(justOver, { entityType: "member", entityId: memberId });
    assertEquals(small.status, 413);
    assertEquals(small.body.code, "payload_too_large");
    const huge = new Uint8Array(2 * 1024 * 1024);
    huge.set(PNG);
    const big = await uploadTo(huge, { entityType: "member", entityId: memberId });
    assertEquals(big.status, 413);
    const declared = await t.app.request("/v1/files", {
      method: "POST",
      headers: {
        Authorization: `Bearer ${uploader.token}`,
        "Content-Type": "multipart/form-data; boundary=x",
        "Content-Length": String(50 * 1024 * 1024),
      },
      body: "--x--",
    });
    assertEquals(declared.status, 413);
    const atLimit = new Uint8Array(1000);
    atLimit.set(PNG);
    assertEquals(
      (await uploadTo(atLimit, { entityType: "member", entityId: memberId })).status,
      201,
    );
  } finally {
    await api(t.app, "PATCH", "/v1/config", {
      token: settings.token,
      body: { upload: { maxBytes: 10 * 1024 * 1024 } },
    });
  }
});

Deno.test("upload.maxFilesPerEntity holds under parallel uploads (409 file_limit_reached)", async () => {
  const owner = await newMember();
  await api(t.app, "PATCH", "/v1/config", {
    token: settings.token,
    body: { upload: { maxFilesPerEntity: 3 } },
  });
  try {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => uploadTo(PNG, { entityType: "member", entityId: owner })),
    );
    assertEquals(results.filter((r) => r.status === 201).length, 3);
    const refused = results.filter((r) => r.status === 409);
    assertEquals(refused.length, 5);
    assertEquals(refused[0]!.body.code, "file_limit_reached");
    const listed = await api(t.app, "GET", `/v1/files?entityType=member&entityId=${owner}`, {
      token: viewer.token,
    });
    assertEquals(listed.body.pagination.total, 3);
    // Refused uploads leave no bytes behind.
    const stored = [...Deno.readDirSync(`${t.deps.config.filesDir}/member`)].length;
    const rows = await t.deps.db.selectFrom("files").select("id")
      .where("entity_type", "=", "member").execute();
    assertEquals(stored, rows.length);
  } finally {
    await api(t.app, "PATCH", "/v1/config", {
      token: settings.token,
      body: { upload: { maxFilesPerEntity: 20 } },
    });
  }
});

Deno.test("GET /files/serve/* streams with the stored type, nosniff and Content-Disposition for files.view", async () => {
  const up = await uploadTo(PNG, { entityType: "member", entityId: memberId }, {
    type: "text/html",
  });
  const path = `/v1/files/serve/${up.body.path}`;
  const res = await t.app.request(path, { headers: { Authorization: `Bearer ${viewer.token}` } });
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("Content-Type"), "image/png");
  assertEquals(res.headers.get("X-Content-Type-Options"), "nosniff");
  assertMatch(res.headers.get("Content-Disposition")!, /^inline; filename="[0-9a-f-]+\.png"$/);
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

Deno.test("an upload retried with the same Idempotency-Key and bytes stores one file", async () => {
  const owner = await newMember();
  // The same encoded body both times (a new FormData would get a new boundary).
  const encoded = new Response(form(PNG, { entityType: "member", entityId: owner }));
  const contentType = encoded.headers.get("Content-Type")!;
  const body = new Uint8Array(await encoded.arrayBuffer());
  const send = () =>
    t.app.request("/v1/files", {
      method: "POST",
      headers: {
        Authorization: `Bearer ${uploader.token}`,
        "Content-Type": contentType,
        "Idempotency-Key": `upload-${owner}`,
      },
      body,
    });
  const first = await send();
  assertEquals(first.status, 201);
  const second = await send();
  assertEquals(second.status, 201);
  assertEquals((await second.json()).id, (await first.json()).id);
  const listed = await api(t.app, "GET", `/v1/files?entityType=member&entityId=${owner}`, {
    token: viewer.token,
  });
  assertEquals(listed.body.pagination.total, 1);
});
