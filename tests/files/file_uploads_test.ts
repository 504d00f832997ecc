/** Uploads (API §6): the owner check, type whitelist, size and count limits, idempotent retries. */
import { assert, assertEquals, assertMatch } from "../_helpers/assert.ts";
import { api, type TestApp, type TestUser } from "../_helpers/test_app.ts";
import {
  bytes,
  type FilesContext,
  form,
  GIF,
  JPEG,
  PDF,
  PNG,
  text,
  WEBP,
  withFilesApp,
} from "./_fixtures.ts";

let t: TestApp;
let uploader: TestUser;
let viewer: TestUser;
let settings: TestUser;
let memberId: string;
let newMember: FilesContext["newMember"];
let uploadTo: FilesContext["uploadTo"];

withFilesApp((context) => {
  ({ t, uploader, viewer, settings, memberId, newMember, uploadTo } = context);
});

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
  // API §1.1 (issue 15): a body whose Content-Type the route does not take → 415 (was 400).
  assertEquals(json.status, 415);
  assertEquals(json.body.code, "unsupported_media_type");
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
