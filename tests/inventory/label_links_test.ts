// deno-lint-ignore-file no-explicit-any
/**
 * Shelf labels open in a browser (API §17): `GET /products/:id/label/url` signs a URL of one
 * product's label (PDF by default, or PNG; either layout) that works without a token until it
 * expires; a tampered, expired or other route's signature → 403, a product deleted since → 404.
 */
import { assert, assertEquals, assertMatch } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import { decodePng, parseSheet } from "./_label_decode.ts";
import { inventorySuite, type InventoryUsers, makeProduct } from "./_fixtures.ts";

let t: TestApp;
let u: InventoryUsers;
let offsetMs = 0;
inventorySuite((s) => ({ t, u } = s), {
  clock: { now: () => new Date(Date.now() + offsetMs) },
});

const UPC = "036000291452";

const local = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

function linkOf(id: string, query = "", token = u.viewer.token) {
  return api(t.app, "GET", `/v1/products/${id}/label/url${query}`, { token });
}

/** Opens a URL as a browser does: no token, Accept of a page. */
async function open(path: string) {
  const res = await t.app.request(path, { headers: { Accept: "text/html,*/*;q=0.8" } });
  return {
    status: res.status,
    type: res.headers.get("Content-Type"),
    referrer: res.headers.get("Referrer-Policy"),
    bytes: new Uint8Array(await res.arrayBuffer()),
  };
}

Deno.test("a signed label URL opens the label as a PDF (or PNG) without a token", async () => {
  const product = await makeProduct(t, u.editor.token, { name: "Capo", upc: UPC });
  const link = await linkOf(product.id);
  assertEquals(link.status, 200, link.text);
  assertMatch(
    link.body.url,
    new RegExp(
      `^${t.deps.config.publicUrl}/v1/products/${product.id}/label/print` +
        "\\?expires=\\d+&signature=[0-9a-f]{64}&format=pdf&layout=avery5160$",
    ),
  );
  const pdf = await open(local(link.body.url));
  assertEquals([pdf.status, pdf.type, pdf.referrer], [200, "application/pdf", "no-referrer"]);
  const sheet = await parseSheet(pdf.bytes);
  assertEquals(sheet.pages, [{ width: 189, height: 72, labels: 1 }]);
  assertEquals(sheet.barcodes.map((b) => b.text), [UPC]);

  const before = t.deps.clock.now().getTime();
  const png = await linkOf(product.id, "?format=png&layout=roll57&expiresIn=3600");
  assertEquals(png.status, 200, png.text);
  const expiresAt = Date.parse(png.body.expiresAt);
  assert(expiresAt > before + 3_599_000 && expiresAt <= Date.now() + 3_600_000, png.body.expiresAt);
  const image = await open(local(png.body.url));
  assertEquals([image.status, image.type], [200, "image/png"]);
  assertEquals(decodePng(image.bytes).text, UPC);
});

Deno.test("label links: bad signatures → 403, a deleted product → 404, signing needs inventory.view", async () => {
  const product = await makeProduct(t, u.editor.token, { name: "Strap" });
  const url = new URL((await linkOf(product.id)).body.url);
  const refused = async (target: string) => {
    const res = await open(target);
    assertEquals(res.status, 403, target);
    assertEquals(JSON.parse(new TextDecoder().decode(res.bytes)).code, "invalid_signature");
  };
  const signature = url.searchParams.get("signature")!;
  const flipped = (signature[0] === "a" ? "b" : "a") + signature.slice(1);
  await refused(url.pathname + url.search.replace(signature, flipped));
  await refused(url.pathname);
  const other = await makeProduct(t, u.editor.token, { name: "Other" });
  await refused(`/v1/products/${other.id}/label/print${url.search}`);
  const signedOnly = `?expires=${url.searchParams.get("expires")}&signature=${signature}`;
  await refused(`/v1/transactions/${product.id}/receipt/print${signedOnly}`);
  offsetMs = 16 * 60_000;
  try {
    await refused(url.pathname + url.search);
  } finally {
    offsetMs = 0;
  }
  assertEquals((await open(url.pathname + url.search)).status, 200);

  await api(t.app, "DELETE", `/v1/products/${product.id}`, { token: u.admin.token });
  const gone = await open(url.pathname + url.search);
  assertEquals(gone.status, 404);
  assertEquals((await linkOf(product.id)).status, 404);

  assertEquals((await api(t.app, "GET", `/v1/products/${other.id}/label/url`)).status, 401);
  const forbidden = await linkOf(other.id, "", u.nobody.token);
  assertEquals([forbidden.status, forbidden.body.code], [403, "forbidden"]);
  for (const query of ["?format=gif", "?layout=a4", "?expiresIn=604801", "?paper=a4"]) {
    const bad = await linkOf(other.id, query);
    assertEquals([bad.status, bad.body.code], [400, "validation_failed"], query);
  }
});

Deno.test("the OpenAPI document declares the label link routes, the label one public", async () => {
  const doc = await (await t.app.request("/v1/openapi.json")).json();
  const sign = doc.paths["/v1/products/{id}/label/url"].get;
  assert(sign.description.includes("Permission: `inventory.view`"), sign.description);
  const print = doc.paths["/v1/products/{id}/label/print"].get;
  assertEquals(print.security, []);
  assertEquals(Object.keys(print.responses["200"].content).sort(), [
    "application/pdf",
    "image/png",
  ]);
  for (const name of ["expires", "signature", "format", "layout"]) {
    assert(print.parameters.some((p: any) => p.in === "query" && p.name === name), name);
  }
});
