/**
 * The name a stored file is downloaded under (API §11, §6): it always ends in an extension of
 * the type it is served as (judged from the bytes at upload), by token and by signed URL, so a
 * GIF uploaded as `invoice.html` is never saved as an HTML file.
 */
import { assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import { folder, PDF, PNG, storageSuite, type StorageUsers, upload } from "./_fixtures.ts";

let t: TestApp;
let u: StorageUsers;
storageSuite((s) => ({ t, u } = s));

const GIF = new TextEncoder().encode("GIF89a\x01\x00\x01\x00\x00\x00\x00;");

/** The Content-Disposition of the file's content, by token and by signed URL (they agree). */
async function dispositionOf(fileId: string): Promise<string | null> {
  const byToken = await t.app.request(`/v1/storage/files/${fileId}/content`, {
    headers: { Authorization: `Bearer ${u.admin.token}` },
  });
  assertEquals(byToken.status, 200);
  await byToken.body?.cancel();
  const signed = await api(t.app, "POST", `/v1/storage/files/${fileId}/url`, {
    token: u.admin.token,
  });
  const url = new URL(signed.body.url);
  const bySignature = await t.app.request(url.pathname + url.search);
  assertEquals(bySignature.status, 200);
  await bySignature.body?.cancel();
  const header = byToken.headers.get("Content-Disposition");
  assertEquals(bySignature.headers.get("Content-Disposition"), header);
  return header;
}

Deno.test("a GIF uploaded as invoice.html downloads as invoice.html.gif", async () => {
  const root = await folder(t, u.admin);
  const up = await upload(t, u.admin, root.id, GIF, "invoice.html");
  assertEquals([up.status, up.body.name, up.body.contentType], [201, "invoice.html", "image/gif"]);
  assertEquals(
    await dispositionOf(up.body.id),
    `inline; filename="invoice.html.gif"; filename*=UTF-8''invoice.html.gif`,
  );
});

Deno.test("a name that has the served type's extension downloads unchanged", async () => {
  const root = await folder(t, u.admin);
  const pdf = await upload(t, u.admin, root.id, PDF, "Price list.PDF");
  assertEquals(
    await dispositionOf(pdf.body.id),
    `inline; filename="Price list.PDF"; filename*=UTF-8''Price%20list.PDF`,
  );
});

Deno.test("a name without an extension gets the served type's", async () => {
  const root = await folder(t, u.admin);
  const png = await upload(t, u.admin, root.id, PNG, "x.bin", { name: "scan" });
  assertEquals(png.body.name, "scan");
  assertEquals(
    await dispositionOf(png.body.id),
    `inline; filename="scan.png"; filename*=UTF-8''scan.png`,
  );
});

Deno.test("a non-ASCII name keeps its exact RFC 6266 filename*, with the extension added", async () => {
  const root = await folder(t, u.admin);
  const gif = await upload(t, u.admin, root.id, GIF, "x.gif", { name: "Reçu «mars».html" });
  assertEquals(
    await dispositionOf(gif.body.id),
    `inline; filename="Re_u _mars_.html.gif"; ` +
      `filename*=UTF-8''Re%C3%A7u%20%C2%ABmars%C2%BB.html.gif`,
  );
  const pdf = await upload(t, u.admin, root.id, PDF, "x.pdf", { name: "Tarifs été.pdf" });
  assertEquals(
    await dispositionOf(pdf.body.id),
    `inline; filename="Tarifs _t_.pdf"; filename*=UTF-8''Tarifs%20%C3%A9t%C3%A9.pdf`,
  );
});
