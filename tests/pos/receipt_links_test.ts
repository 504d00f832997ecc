// deno-lint-ignore-file no-explicit-any
/**
 * Receipts open in a browser (API §17): `GET /transactions/:id/receipt/url` signs a URL of the
 * receipt's printable page that works without a token (a link printed, emailed or opened on
 * another device) until it expires; a tampered, expired or other route's signature → 403.
 */
import { assert, assertEquals, assertMatch } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import {
  createSale,
  payAndComplete,
  posSuite,
  type PosUsers,
  storeWithDrawer,
} from "./_fixtures.ts";

let t: TestApp;
let u: PosUsers;
let offsetMs = 0;
posSuite((s) => ({ t, u } = s), { clock: { now: () => new Date(Date.now() + offsetMs) } });

const local = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

async function completedSale(): Promise<any> {
  const { locationId } = await storeWithDrawer(t, u);
  const tx = await createSale(t, u.cashier.token, locationId, [
    { description: "Valve oil", quantity: 2, unitPrice: "8.50" },
  ]);
  return await payAndComplete(t, u.cashier.token, tx, "cash");
}

function linkOf(id: string, query = "", token = u.viewer.token) {
  return api(t.app, "GET", `/v1/transactions/${id}/receipt/url${query}`, { token });
}

/** Opens a URL as a browser does: no token, Accept of a page. */
function open(path: string) {
  return t.app.request(path, { headers: { Accept: "text/html,*/*;q=0.8" } });
}

Deno.test("a signed receipt URL opens the printable page without a token", async () => {
  const sale = await completedSale();
  const link = await linkOf(sale.id);
  assertEquals(link.status, 200, link.text);
  assertEquals(Object.keys(link.body).sort(), ["expiresAt", "url"]);
  assertMatch(
    link.body.url,
    new RegExp(
      `^${t.deps.config.publicUrl}/v1/transactions/${sale.id}/receipt/print` +
        "\\?expires=\\d+&signature=[0-9a-f]{64}$",
    ),
  );
  const expiresIn = Date.parse(link.body.expiresAt) - t.deps.clock.now().getTime();
  assert(expiresIn > 14 * 60_000 && expiresIn <= 15 * 60_000, link.body.expiresAt);

  const page = await open(local(link.body.url));
  assertEquals(page.status, 200);
  assertEquals(page.headers.get("Content-Type"), "text/html; charset=utf-8");
  assertEquals(
    page.headers.get("Content-Security-Policy"),
    "default-src 'none'; style-src 'unsafe-inline'",
  );
  assertEquals(page.headers.get("Cache-Control"), "private, no-store");
  assertEquals(page.headers.get("Referrer-Policy"), "no-referrer");
  // The same page as the authenticated HTML form.
  const form = await api(t.app, "GET", `/v1/transactions/${sale.id}/receipt`, {
    token: u.viewer.token,
    headers: { Accept: "text/html" },
  });
  assertEquals(await page.text(), form.text);

  // A4, and a week-long link for an email.
  const before = t.deps.clock.now().getTime();
  const a4 = await linkOf(sale.id, "?paper=a4&expiresIn=604800");
  assertEquals(a4.status, 200, a4.text);
  assert(a4.body.url.endsWith("&paper=a4"), a4.body.url);
  const expiresAt = Date.parse(a4.body.expiresAt);
  assert(
    expiresAt > before + 604_799_000 && expiresAt <= Date.now() + 604_800_000,
    a4.body.expiresAt,
  );
  const a4Page = await (await open(local(a4.body.url))).text();
  assert(a4Page.includes("@page{size:A4"), "the A4 layout");
  assert(a4Page.includes(sale.receiptNumber));
});

Deno.test("tampered, expired, missing or other routes' signatures are refused with 403", async () => {
  const sale = await completedSale();
  const url = new URL((await linkOf(sale.id)).body.url);
  const signature = url.searchParams.get("signature")!;
  const expires = url.searchParams.get("expires")!;
  const path = url.pathname;
  const refused = async (target: string) => {
    const res = await open(target);
    assertEquals(res.status, 403, target);
    assertEquals((await res.json()).code, "invalid_signature", target);
  };
  const flipped = (signature[0] === "a" ? "b" : "a") + signature.slice(1);
  await refused(`${path}?expires=${expires}&signature=${flipped}`);
  await refused(`${path}?expires=${Number(expires) + 3600}&signature=${signature}`);
  await refused(path);
  await refused(`${path}?expires=${expires}`);
  // Another transaction's receipt with this signature.
  const other = await completedSale();
  await refused(`/v1/transactions/${other.id}/receipt/print${url.search}`);
  // The same id and signature on a label's route: signed for receipts only.
  await refused(`/v1/products/${sale.id}/label/print${url.search}`);
  // A bearer token does not stand in for the signature here.
  const withToken = await api(t.app, "GET", path, { token: u.viewer.token });
  assertEquals([withToken.status, withToken.body.code], [403, "invalid_signature"]);

  offsetMs = 16 * 60_000;
  try {
    await refused(url.pathname + url.search);
  } finally {
    offsetMs = 0;
  }
  assertEquals((await open(url.pathname + url.search)).status, 200);
});

Deno.test("signing a receipt URL needs pos.view and a transaction; bad options → 400", async () => {
  const sale = await completedSale();
  assertEquals((await api(t.app, "GET", `/v1/transactions/${sale.id}/receipt/url`)).status, 401);
  const refused = await linkOf(sale.id, "", u.nobody.token);
  assertEquals([refused.status, refused.body.code], [403, "forbidden"]);
  const missing = await linkOf(crypto.randomUUID());
  assertEquals([missing.status, missing.body.code], [404, "not_found"]);
  for (const query of ["?paper=letter", "?expiresIn=0", "?expiresIn=604801", "?format=png"]) {
    const bad = await linkOf(sale.id, query);
    assertEquals([bad.status, bad.body.code], [400, "validation_failed"], query);
  }
});

Deno.test("the OpenAPI document declares the receipt link routes, the page one public", async () => {
  const doc = await (await t.app.request("/v1/openapi.json")).json();
  const sign = doc.paths["/v1/transactions/{id}/receipt/url"].get;
  assert(sign.description.includes("Permission: `pos.view`"), sign.description);
  assert(sign.parameters.some((p: any) => p.name === "expiresIn"));
  const page = doc.paths["/v1/transactions/{id}/receipt/print"].get;
  assertEquals(page.security, []);
  assert(page.responses["200"].content["text/html"], "an HTML page");
  assert(page.responses["403"], "403 documented");
  for (const name of ["expires", "signature", "paper"]) {
    assert(page.parameters.some((p: any) => p.in === "query" && p.name === name), name);
  }
});
