/** GET /files `q`: category, stored path (extension) and content type, case-insensitive. */
import { assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp, type TestUser } from "../_helpers/test_app.ts";
import { withFilesApp } from "./_fixtures.ts";

let t: TestApp;
let uploader: TestUser;
let viewer: TestUser;
let memberId: string;

withFilesApp((context) => {
  ({ t, uploader, viewer, memberId } = context);
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72]);
const PDF = new TextEncoder().encode("%PDF-1.7\n%âãÏÓ\n");

async function upload(content: Uint8Array, category?: string): Promise<string> {
  const data = new FormData();
  data.set("file", new Blob([content as BlobPart]), "x.bin");
  data.set("entityType", "member");
  data.set("entityId", memberId);
  if (category) data.set("category", category);
  const res = await api(t.app, "POST", "/v1/files", { token: uploader.token, body: data });
  assertEquals(res.status, 201, res.text);
  return res.body.id;
}

Deno.test("GET /files q matches category, path and content type; %, _ literal", async () => {
  const waiver = await upload(PDF, "Liability_Waiver");
  const photo = await upload(PNG, "photo-2024");
  const plain = await upload(PNG);
  const search = async (q: string) => {
    const res = await api(
      t.app,
      "GET",
      `/v1/files?entityType=member&entityId=${memberId}&q=${encodeURIComponent(q)}`,
      { token: viewer.token },
    );
    assertEquals(res.status, 200, res.text);
    return res.body.data.map((f: { id: string }) => f.id).sort();
  };
  assertEquals(await search("liability_waiver"), [waiver]);
  assertEquals(await search("application/pdf"), [waiver]);
  assertEquals(await search(".PDF"), [waiver]);
  assertEquals(await search("image/png"), [photo, plain].sort());
  assertEquals(await search(plain.slice(-12)), [plain]);
  assertEquals(await search("photo_2024"), []);
  assertEquals(await search("%"), []);
  assertEquals((await search("")).length, 3);
});
