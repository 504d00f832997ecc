/** GET /products/:id/price-history: `q` over the prices as text, and `sort=createdAt`. */
import { assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import { inventorySuite, type InventoryUsers, makeProduct } from "./_fixtures.ts";

let t: TestApp;
let u: InventoryUsers;

inventorySuite((s) => ({ t, u } = s));

Deno.test("price-history q matches the price or previous price as text; sort=createdAt works", async () => {
  const p = await makeProduct(t, u.editor.token, { price: "10.00" });
  for (const price of ["112.50", "7.25"]) {
    const res = await api(t.app, "PATCH", `/v1/products/${p.id}`, {
      token: u.editor.token,
      body: { price },
    });
    assertEquals(res.status, 200, res.text);
  }
  const history = async (query: string) => {
    const res = await api(t.app, "GET", `/v1/products/${p.id}/price-history?${query}`, {
      token: u.viewer.token,
    });
    assertEquals(res.status, 200, res.text);
    return res.body.data.map((h: { price: string }) => h.price);
  };
  // 112.50 is the price of one change and the previous price of the next.
  assertEquals(await history("q=12.5"), ["7.25", "112.50"]);
  assertEquals(await history("q=7.25"), ["7.25"]);
  assertEquals(await history("q=10.00"), ["112.50", "10.00"]);
  assertEquals(await history("q=%25"), []);
  assertEquals(await history("q=1_"), []);
  assertEquals(await history("sort=createdAt&order=asc"), ["10.00", "112.50", "7.25"]);
  assertEquals(await history("sort=changedAt&order=desc"), ["7.25", "112.50", "10.00"]);
  const bad = await api(t.app, "GET", `/v1/products/${p.id}/price-history?sort=price`, {
    token: u.viewer.token,
  });
  assertEquals(bad.status, 400);
});
