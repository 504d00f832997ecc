/** Consignment terms of a product: PUT (upsert), GET, DELETE, and their refusals. */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import { inventorySuite, type InventoryUsers, makeProduct } from "./_fixtures.ts";

let t: TestApp;
let u: InventoryUsers;

inventorySuite((s) => ({ t, u } = s));

async function makeAccount(): Promise<string> {
  const id = t.deps.ids.uuid();
  await t.deps.db.insertInto("accounts").values({
    id,
    account_number: `C${id.slice(-10)}`,
    name: "Consignor",
  }).execute();
  return id;
}

Deno.test("consignment: PUT upserts (200), GET reads, DELETE removes; 404 when absent", async () => {
  const product = await makeProduct(t, u.editor.token);
  const account = await makeAccount();
  const path = `/v1/products/${product.id}/consignment`;
  assertEquals((await api(t.app, "GET", path, { token: u.viewer.token })).status, 404);
  const body = {
    consignorAccountId: account,
    commissionPercent: 25,
    minimumPrice: "150.00",
    agreementDate: "2026-11-01",
  };
  const created = await api(t.app, "PUT", path, { token: u.editor.token, body });
  assertEquals(created.status, 200);
  assertEquals(created.body.commissionPercent, "25.00");
  assertEquals(created.body.minimumPrice, "150.00");
  assertEquals(created.body.agreementDate, "2026-11-01");
  const replaced = await api(t.app, "PUT", path, {
    token: u.editor.token,
    body: { ...body, commissionPercent: "12.50" },
  });
  assertEquals(replaced.status, 200);
  assertEquals(replaced.body.commissionPercent, "12.50");
  const got = await api(t.app, "GET", path, { token: u.viewer.token });
  assertEquals(got.body.commissionPercent, "12.50");
  assertEquals(got.body.consignorAccountId, account);
  assertEquals((await api(t.app, "DELETE", path, { token: u.viewer.token })).status, 403);
  assertEquals((await api(t.app, "DELETE", path, { token: u.editor.token })).status, 204);
  assertEquals((await api(t.app, "GET", path, { token: u.viewer.token })).status, 404);
  assertEquals((await api(t.app, "DELETE", path, { token: u.editor.token })).status, 404);
});

Deno.test("consignment refusals: unknown account → 400 invalid_reference, bad values → 400, unknown product → 404", async () => {
  const product = await makeProduct(t, u.editor.token);
  const account = await makeAccount();
  const path = `/v1/products/${product.id}/consignment`;
  const base = {
    consignorAccountId: account,
    commissionPercent: "10",
    minimumPrice: "1.00",
    agreementDate: "2026-11-01",
  };
  const noAccount = await api(t.app, "PUT", path, {
    token: u.editor.token,
    body: { ...base, consignorAccountId: crypto.randomUUID() },
  });
  assertEquals(noAccount.status, 400);
  assertEquals(noAccount.body.code, "invalid_reference");
  for (
    const body of [
      { ...base, commissionPercent: "101" },
      { ...base, commissionPercent: -1 },
      { ...base, minimumPrice: "-5.00" },
      { ...base, agreementDate: "2026-13-01" },
      { ...base, agreementDate: undefined },
    ]
  ) {
    const res = await api(t.app, "PUT", path, { token: u.editor.token, body });
    assertEquals(res.status, 400, JSON.stringify(body));
  }
  const noProduct = await api(t.app, "PUT", `/v1/products/${crypto.randomUUID()}/consignment`, {
    token: u.editor.token,
    body: base,
  });
  assertEquals(noProduct.status, 404);
  const parallel = await Promise.all(Array.from({ length: 5 }, (_, i) =>
    api(t.app, "PUT", path, {
      token: u.editor.token,
      body: { ...base, commissionPercent: String(10 + i) },
    })));
  assert(parallel.every((r) => r.status === 200), parallel.map((r) => r.text).join("\n"));
});
