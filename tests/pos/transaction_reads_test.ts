/** Reading transactions: list filters and receipts. */
import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
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

posSuite((s) => ({ t, u } = s));

// ---------------------------------------------------------------- list

Deno.test("GET /transactions filters by itemSearch (any line, case-insensitive, literal %), status, type, session", async () => {
  const { locationId, session } = await storeWithDrawer(t, u);
  const marker = crypto.randomUUID().slice(0, 8);
  const a = await createSale(t, u.cashier.token, locationId, [
    { description: `Cello ROSIN ${marker}`, quantity: 1, unitPrice: "5.00" },
    { description: "Cloth", quantity: 1, unitPrice: "1.00" },
  ]);
  const b = await createSale(t, u.cashier.token, locationId, [
    { description: `100% wool ${marker}`, quantity: 1, unitPrice: "2.00" },
  ]);
  await payAndComplete(t, u.cashier.token, a);

  const rosin = await api(t.app, "GET", `/v1/transactions?itemSearch=rosin%20${marker}`, {
    token: u.viewer.token,
  });
  assertEquals(rosin.status, 200);
  assertEquals(rosin.body.data.map((x: { id: string }) => x.id), [a.id]);

  const percent = await api(
    t.app,
    "GET",
    `/v1/transactions?itemSearch=${encodeURIComponent("0%")}`,
    {
      token: u.viewer.token,
    },
  );
  assertEquals(percent.body.data.map((x: { id: string }) => x.id), [b.id]);

  const bySession = await api(
    t.app,
    "GET",
    `/v1/transactions?drawerSessionId=${session.id}&status=complete&type=sale`,
    { token: u.viewer.token },
  );
  assertEquals(bySession.body.data.map((x: { id: string }) => x.id), [a.id]);

  const byLocation = await api(
    t.app,
    "GET",
    `/v1/transactions?locationId=${locationId}&status=pending&sort=total&order=asc`,
    { token: u.viewer.token },
  );
  assertEquals(byLocation.body.data.map((x: { id: string }) => x.id), [b.id]);

  const badSort = await api(t.app, "GET", `/v1/transactions?sort=bogus`, { token: u.viewer.token });
  assertEquals(badSort.status, 400);
});

// ---------------------------------------------------------------- receipts

Deno.test("receipts come as JSON and as 40-column text, without consumable lines", async () => {
  const { locationId } = await storeWithDrawer(t, u);
  const tx = await createSale(t, u.cashier.token, locationId, [
    {
      description: "Valve oil with an extremely long description that has to wrap",
      quantity: 1,
      unitPrice: "7.50",
    },
    { description: "Reeds", quantity: 3, unitPrice: "2.00" },
  ]);
  // A consumable line (as a repair might carry): never on the receipt nor in totals.
  await t.deps.db.insertInto("transaction_items").values({
    id: t.deps.ids.uuid(),
    transaction_id: tx.id,
    kind: "part",
    description: "SECRET SHOP GLUE",
    quantity: 1,
    unit_price: "3.00",
    tax_category: "goods",
    is_consumable: true,
    created_at: new Date(),
  }).execute();
  await api(t.app, "POST", `/v1/transactions/${tx.id}/payments`, {
    token: u.cashier.token,
    body: { method: "cash", amount: tx.total, tendered: "20.00" },
  });
  const json = await api(t.app, "GET", `/v1/transactions/${tx.id}/receipt`, {
    token: u.viewer.token,
  });
  assertEquals(json.status, 200);
  assertEquals(json.body.lines.length, 2);
  assertEquals(json.body.total, "13.50");
  assertEquals(json.body.change, "6.50");
  const text = await api(t.app, "GET", `/v1/transactions/${tx.id}/receipt`, {
    token: u.viewer.token,
    headers: { Accept: "text/plain" },
  });
  assertEquals(text.status, 200);
  assertStringIncludes(text.headers.get("Content-Type") ?? "", "text/plain");
  assert(text.text.split("\n").every((line) => line.length <= 40));
  assertStringIncludes(text.text, "Reeds");
  assertStringIncludes(text.text, "13.50");
  assert(!text.text.includes("GLUE"));
});
