/**
 * Shelf labels (API §17): a label and a sheet are rendered through the HTTP routes and read
 * back like a scanner would (the barcodes decoded to the UPC or SKU, pages counted and
 * measured), plus the refusals (404 naming unknown ids, 400, 403).
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import { labelSheet } from "../../app/inventory/labels.ts";
import { decodePng, parseSheet } from "./_label_decode.ts";
import { inventorySuite, type InventoryUsers, makeProduct, sku } from "./_fixtures.ts";

let t: TestApp;
let u: InventoryUsers;

inventorySuite((s) => ({ t, u } = s));

const UPC = "036000291452";
const EAN = "4006381333931";

interface BinaryResponse {
  status: number;
  contentType: string;
  bytes: Uint8Array;
}

async function request(
  method: string,
  path: string,
  options: { token?: string; accept?: string; body?: unknown } = {},
): Promise<BinaryResponse> {
  const headers: Record<string, string> = {};
  if (options.token) headers["Authorization"] = `Bearer ${options.token}`;
  if (options.accept) headers["Accept"] = options.accept;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await t.app.request(path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return {
    status: response.status,
    contentType: response.headers.get("Content-Type") ?? "",
    bytes: new Uint8Array(await response.arrayBuffer()),
  };
}

function label(id: string, accept?: string, query = "") {
  return request("GET", `/v1/products/${id}/label${query}`, { token: u.viewer.token, accept });
}

function sheet(body: unknown, token = u.viewer.token) {
  return request("POST", "/v1/products/labels", { token, body });
}

function problem(res: BinaryResponse) {
  assertEquals(res.contentType, "application/problem+json");
  return JSON.parse(new TextDecoder().decode(res.bytes));
}

Deno.test("GET /products/:id/label as PNG scans back to the product's UPC-A", async () => {
  const product = await makeProduct(t, u.editor.token, { name: "Capo", upc: UPC });
  const res = await label(product.id, "image/png");
  assertEquals(res.status, 200);
  assertEquals(res.contentType, "image/png");
  const decoded = decodePng(res.bytes);
  assertEquals(decoded, { ...decoded, text: UPC, format: "UPC_A" });
  assertEquals(decoded.width >= 788 && decoded.height === 300, true, "2.625 × 1 in at 300 dpi");
});

Deno.test("a 13-digit EAN-13 prints as EAN-13, and the EAN-13 form of a UPC as the UPC-A", async () => {
  const ean = await makeProduct(t, u.editor.token, { upc: EAN });
  assertEquals(decodePng((await label(ean.id, "image/png")).bytes).text, EAN);
  const zeroLed = await makeProduct(t, u.editor.token, { upc: `0${UPC}` });
  const decoded = decodePng((await label(zeroLed.id, "image/png")).bytes);
  assertEquals([decoded.text, decoded.format], [UPC, "UPC_A"]);
});

Deno.test("a product without a (valid) UPC gets Code 128 of its SKU", async () => {
  for (const upc of [undefined, "036000291453", "not-a-upc"]) {
    const code = sku("STRAP");
    const product = await makeProduct(t, u.editor.token, { sku: code, ...(upc ? { upc } : {}) });
    const decoded = decodePng((await label(product.id, "image/png")).bytes);
    assertEquals([decoded.text, decoded.format], [code, "CODE_128"], `upc ${upc}`);
  }
});

Deno.test("the label is a one-page PDF of one label's size by default, and its barcode scans", async () => {
  const product = await makeProduct(t, u.editor.token, { upc: UPC });
  for (
    const accept of [
      undefined,
      "*/*",
      "application/pdf",
      "application/json",
      "image/png;q=0.5, application/pdf",
    ]
  ) {
    const res = await label(product.id, accept);
    assertEquals([res.status, res.contentType], [200, "application/pdf"], `Accept ${accept}`);
  }
  const pdf = await parseSheet((await label(product.id)).bytes);
  assertEquals(pdf.pages, [{ width: 189, height: 72, labels: 1 }]);
  assertEquals(pdf.barcodes.map((b) => b.text), [UPC]);
  const roll = await parseSheet((await label(product.id, undefined, "?layout=roll57")).bytes);
  assertEquals(roll.pages.map((p) => [p.width.toFixed(2), p.height.toFixed(2)]), [[
    "161.57",
    "90.71",
  ]]);
  const png = await label(product.id, "application/pdf;q=0.4, image/*");
  assertEquals(png.contentType, "image/png");
});

Deno.test("POST /products/labels prints an Avery 5160 sheet whose barcodes scan back", async () => {
  const code = sku("PICK");
  const products = [
    await makeProduct(t, u.editor.token, { upc: UPC }),
    await makeProduct(t, u.editor.token, { sku: code }),
    await makeProduct(t, u.editor.token, { upc: EAN }),
  ];
  const res = await sheet({ productIds: products.map((p) => p.id), copies: 11 });
  assertEquals([res.status, res.contentType], [200, "application/pdf"]);
  const pdf = await parseSheet(res.bytes);
  assertEquals(pdf.pages, [
    { width: 612, height: 792, labels: 30 },
    { width: 612, height: 792, labels: 3 },
  ]);
  // One barcode image per product, reused by its 11 copies.
  assertEquals(pdf.barcodes.map((b) => b.text).sort(), [code, EAN, UPC].sort());
  assertEquals(pdf.barcodes.map((b) => b.format).sort(), ["CODE_128", "EAN_13", "UPC_A"]);
});

Deno.test("POST /products/labels with layout roll57 prints one 57 mm label a page", async () => {
  const a = await makeProduct(t, u.editor.token);
  const b = await makeProduct(t, u.editor.token, { upc: UPC });
  const res = await sheet({ productIds: [a.id, b.id, a.id], copies: 2, layout: "roll57" });
  assertEquals(res.status, 200);
  const pdf = await parseSheet(res.bytes);
  assertEquals(pdf.pages.length, 6);
  for (const page of pdf.pages) {
    assertEquals([page.width.toFixed(2), page.height.toFixed(2), page.labels], [
      "161.57",
      "90.71",
      1,
    ]);
  }
  assertEquals(pdf.barcodes.map((b) => b.text).sort(), [a.sku, UPC].sort());
});

Deno.test("unknown or deleted products are 404, naming every unknown id", async () => {
  const known = await makeProduct(t, u.editor.token);
  const gone = await makeProduct(t, u.editor.token);
  await api(t.app, "DELETE", `/v1/products/${gone.id}`, { token: u.admin.token });
  const unknown = crypto.randomUUID();
  const res = await sheet({ productIds: [known.id, unknown, gone.id] });
  assertEquals(res.status, 404);
  const body = problem(res);
  assertEquals(body.code, "not_found");
  assert(body.detail.includes(unknown) && body.detail.includes(gone.id), body.detail);
  assert(!body.detail.includes(known.id), body.detail);
  assertEquals([...body.missing].sort(), [unknown, gone.id].sort());
  for (const id of [unknown, gone.id, "not-a-uuid"]) {
    const single = await label(id, "image/png");
    assertEquals([single.status, problem(single).code], [404, "not_found"]);
  }
  const labelsAsId = await request("GET", "/v1/products/labels", { token: u.viewer.token });
  assertEquals(labelsAsId.status, 404);
});

Deno.test("bad sheet requests are 400 validation_failed", async () => {
  const p = await makeProduct(t, u.editor.token);
  const ids = (n: number) => Array.from({ length: n }, () => crypto.randomUUID());
  for (
    const body of [
      { productIds: [] },
      { productIds: ids(501) },
      { productIds: [p.id], copies: 101 },
      { productIds: [p.id], copies: 0 },
      { productIds: [p.id], copies: 1.5 },
      { productIds: [p.id], layout: "a4" },
      { productIds: ["nope"] },
      { productIds: [p.id], extra: true },
      {},
    ]
  ) {
    const res = await sheet(body);
    assertEquals([res.status, problem(res).code], [400, "validation_failed"], JSON.stringify(body));
  }
  const badLayout = await label(p.id, undefined, "?layout=a4");
  assertEquals([badLayout.status, problem(badLayout).code], [400, "validation_failed"]);
});

Deno.test("labels need inventory.view (403 before any lookup)", async () => {
  const p = await makeProduct(t, u.editor.token);
  const single = await request("GET", `/v1/products/${p.id}/label`, { token: u.nobody.token });
  assertEquals([single.status, problem(single).code], [403, "forbidden"]);
  const many = await sheet({ productIds: [crypto.randomUUID()] }, u.nobody.token);
  assertEquals([many.status, problem(many).code], [403, "forbidden"]);
  const anonymous = await request("GET", `/v1/products/${p.id}/label`);
  assertEquals(anonymous.status, 401);
});

Deno.test("names with <, emoji, other scripts and great length still print and scan", async () => {
  const names = [
    '<b>Strings</b> & "picks" 🎸🎸 Ünïcödé Gitarrensaiten für Ångström — 吉他弦 Гитара',
    "X".repeat(200),
    `${"Stratocaster ".repeat(15)}`.trim(),
  ];
  const code = sku("ODD");
  const products = [];
  for (const name of names) {
    products.push(
      await makeProduct(t, u.editor.token, { name, sku: `${code}-${products.length}` }),
    );
  }
  for (const product of products) {
    const png = await label(product.id, "image/png");
    assertEquals(png.status, 200);
    assertEquals(decodePng(png.bytes).text, product.sku);
    const pdf = await label(product.id);
    assertEquals(pdf.status, 200);
    assertEquals((await parseSheet(pdf.bytes)).barcodes.map((b) => b.text), [product.sku]);
  }
  const res = await sheet({ productIds: products.map((p) => p.id), layout: "roll57" });
  assertEquals(res.status, 200);
  assertEquals((await parseSheet(res.bytes)).pages.length, 3);
});

Deno.test("a SKU outside printable ASCII prints as text, without a barcode", async () => {
  const product = await makeProduct(t, u.editor.token, { sku: `Saite-ß-${crypto.randomUUID()}` });
  const png = await label(product.id, "image/png");
  assertEquals([png.status, png.contentType], [200, "image/png"]);
  const pdf = await label(product.id);
  assertEquals(pdf.status, 200);
  assertEquals((await parseSheet(pdf.bytes)).barcodes, []);
});

Deno.test("a sheet reads its products in one query, however many ids and copies", async () => {
  const products = [];
  for (let i = 0; i < 4; i++) products.push(await makeProduct(t, u.editor.token));
  let queries = 0;
  const db = t.deps.db.withPlugin({
    transformQuery(args) {
      queries++;
      return args.node;
    },
    transformResult(args) {
      return Promise.resolve(args.result);
    },
  });
  const ids = products.map((p) => p.id);
  const pdf = await labelSheet({ db }, {
    productIds: [...ids, ...ids],
    copies: 3,
    layout: "avery5160",
  });
  assertEquals(queries, 1);
  assertEquals((await parseSheet(pdf.bytes)).pages[0]!.labels, 24);
});

Deno.test("the largest sheet (500 products × 100 copies) takes a few seconds", async () => {
  const now = t.deps.clock.now();
  const rows = Array.from({ length: 500 }, (_, i) => ({
    id: crypto.randomUUID(),
    name: `Bulk product ${i} with a name long enough to wrap onto a second line`,
    sku: `BULK-${i}-${crypto.randomUUID().slice(0, 8)}`,
    upc: i % 2 === 0 ? UPC : null,
    price: "19.99",
    created_at: now,
    updated_at: now,
  }));
  await t.deps.db.insertInto("products").values(rows).execute();
  const productIds = rows.map((r) => r.id);

  let started = performance.now();
  const one = await sheet({ productIds });
  const oneMs = performance.now() - started;
  assertEquals(one.status, 200);
  assertEquals((await parseSheet(one.bytes)).pages.length, 17);

  started = performance.now();
  const max = await sheet({ productIds, copies: 100 });
  const maxMs = performance.now() - started;
  assertEquals(max.status, 200);
  const parsed = await parseSheet(max.bytes);
  assertEquals(parsed.pages.length, Math.ceil(50_000 / 30));
  assertEquals(parsed.pages.reduce((n, p) => n + p.labels, 0), 50_000);
  assertEquals(parsed.barcodes.length, 500);
  console.log(
    `label sheets: 500 × 1 in ${oneMs.toFixed(0)} ms, 500 × 100 in ${maxMs.toFixed(0)} ms ` +
      `(${(max.bytes.length / 1e6).toFixed(1)} MB)`,
  );
  assert(maxMs < 20_000, `500 × 100 labels took ${maxMs} ms`);
});
