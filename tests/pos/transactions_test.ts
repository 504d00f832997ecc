import { sql } from "kysely";
import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import {
  api,
  createTestApp,
  createUserWithPermissions,
  type TestApp,
} from "../_helpers/test_app.ts";
import type { Actor } from "../../app/auth/actor.ts";
import { completeTransaction } from "../../app/pos/complete_transaction.ts";
import {
  createSale,
  makeLocation,
  makeProduct,
  makeRegister,
  openDrawer,
  payAndComplete,
  type PosUsers,
  posUsers,
  setConfig,
  setStock,
  stockOf,
  storeWithDrawer,
} from "./_fixtures.ts";

let t: TestApp;
let u: PosUsers;

Deno.test.beforeAll(async () => {
  t = await createTestApp();
  u = await posUsers(t);
});
Deno.test.afterAll(async () => {
  await t.close();
});

// ---------------------------------------------------------------- create, pay, complete

Deno.test("a sale is created pending with product defaults, paid in split tenders with cash change, and completed", async () => {
  const { locationId, register, session } = await storeWithDrawer(t, u);
  const guitar = await makeProduct(t, u, { name: "Guitar strings", price: "12.50" });
  await setStock(t, guitar.id, 10);

  const tx = await createSale(t, u.cashier.token, locationId, [
    { productId: guitar.id, quantity: 2 },
    { kind: "labor", description: "Restring", quantity: 1, unitPrice: 15 },
  ]);
  assertEquals(tx.status, "pending");
  assertEquals(tx.items[0].description, "Guitar strings");
  assertEquals(tx.items[0].unitPrice, "12.50");
  assertEquals(tx.items[0].taxCategory, "goods");
  assertEquals(tx.items[1].taxCategory, "service");
  assertEquals(tx.subtotal, "40.00");
  assertEquals(tx.total, "40.00");
  assertEquals(tx.balanceDue, "40.00");

  const card = await api(t.app, "POST", `/v1/transactions/${tx.id}/payments`, {
    token: u.cashier.token,
    body: { method: "card", amount: "30.00", reference: "AUTH1" },
  });
  assertEquals(card.status, 201, card.text);
  assertEquals(card.body.payment.change, "0.00");
  assertEquals(card.body.transaction.balanceDue, "10.00");

  const over = await api(t.app, "POST", `/v1/transactions/${tx.id}/payments`, {
    token: u.cashier.token,
    body: { method: "card", amount: "10.01" },
  });
  assertEquals(over.status, 409);
  assertEquals(over.body.code, "overpayment");

  const early = await api(t.app, "POST", `/v1/transactions/${tx.id}/complete`, {
    token: u.cashier.token,
  });
  assertEquals(early.status, 409);
  assertEquals(early.body.code, "balance_due");

  const cash = await api(t.app, "POST", `/v1/transactions/${tx.id}/payments`, {
    token: u.cashier.token,
    body: { method: "cash", amount: "10.00", tendered: "20.00" },
  });
  assertEquals(cash.status, 201);
  assertEquals(cash.body.payment.tendered, "20.00");
  assertEquals(cash.body.payment.change, "10.00");
  assertEquals(cash.body.transaction.amountPaid, "40.00");
  assertEquals(cash.body.transaction.balanceDue, "0.00");

  const done = await api(t.app, "POST", `/v1/transactions/${tx.id}/complete`, {
    token: u.cashier.token,
  });
  assertEquals(done.status, 200, done.text);
  assertEquals(done.body.status, "complete");
  assertEquals(done.body.drawerSessionId, session.id);
  assertEquals(done.body.registerId, register.id);
  assert(done.body.completedAt);
  assertEquals(await stockOf(t, guitar.id), 8);

  const twice = await api(t.app, "POST", `/v1/transactions/${tx.id}/complete`, {
    token: u.cashier.token,
  });
  assertEquals(twice.status, 409);
  assertEquals(twice.body.code, "invalid_transition");

  const edit = await api(t.app, "POST", `/v1/transactions/${tx.id}/items`, {
    token: u.cashier.token,
    body: { description: "Pick", quantity: 1, unitPrice: "1.00" },
  });
  assertEquals(edit.status, 409);
  assertEquals(edit.body.code, "invalid_transition");

  const got = await api(t.app, "GET", `/v1/transactions/${tx.id}`, { token: u.viewer.token });
  assertEquals(got.status, 200);
  assertEquals(got.body.items.length, 2);
  assertEquals(got.body.payments.length, 2);
  assertEquals(got.body.amountPaid, "40.00");

  const x = await api(t.app, "GET", `/v1/drawers/${session.id}/report`, { token: u.viewer.token });
  assertEquals(x.body.salesSummary.transactionCount, 1);
  assertEquals(x.body.salesSummary.total, "40.00");
  assertEquals(x.body.cashAccountability.cashSales, "10.00");
  assertEquals(x.body.cashAccountability.expectedBalance, "110.00");
});

Deno.test("creating refuses consumables (not_sellable), unknown references and missing line fields", async () => {
  const { locationId } = await storeWithDrawer(t, u);
  const glue = await makeProduct(t, u, { type: "consumable" });
  const consumable = await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body: { locationId, items: [{ productId: glue.id, quantity: 1 }] },
  });
  assertEquals(consumable.status, 400);
  assertEquals(consumable.body.code, "not_sellable");

  const unknownProduct = await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body: { locationId, items: [{ productId: crypto.randomUUID(), quantity: 1 }] },
  });
  assertEquals(unknownProduct.status, 400);
  assertEquals(unknownProduct.body.code, "invalid_reference");

  const unknownLocation = await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body: {
      locationId: crypto.randomUUID(),
      items: [{ description: "A", quantity: 1, unitPrice: "1" }],
    },
  });
  assertEquals(unknownLocation.status, 400);
  assertEquals(unknownLocation.body.code, "invalid_reference");

  const missing = await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body: { locationId, items: [{ quantity: 1 }] },
  });
  assertEquals(missing.status, 400);
  assertEquals(missing.body.code, "validation_failed");

  const empty = await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body: { locationId, items: [] },
  });
  assertEquals(empty.status, 400);

  const massAssign = await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body: {
      locationId,
      status: "complete",
      items: [{ description: "A", quantity: 1, unitPrice: 1 }],
    },
  });
  assertEquals(massAssign.status, 400);

  const viewer = await api(t.app, "POST", "/v1/transactions", {
    token: u.viewer.token,
    body: { locationId, items: [{ description: "A", quantity: 1, unitPrice: 1 }] },
  });
  assertEquals(viewer.status, 403);
});

Deno.test("completing needs an open drawer at the location, and a register when several are open", async () => {
  const locationId = await makeLocation(t);
  const tx = await createSale(t, u.cashier.token, locationId, [
    { description: "Lesson book", quantity: 1, unitPrice: "8.00" },
  ]);
  const noDrawer = await api(t.app, "POST", `/v1/transactions/${tx.id}/complete`, {
    token: u.cashier.token,
  });
  assertEquals(noDrawer.status, 409);
  assertEquals(noDrawer.body.code, "drawer_not_open");

  const r1 = await makeRegister(t, u, locationId);
  const r2 = await makeRegister(t, u, locationId);
  await openDrawer(t, u, r1.id);
  const s2 = await openDrawer(t, u, r2.id);
  await api(t.app, "POST", `/v1/transactions/${tx.id}/payments`, {
    token: u.cashier.token,
    body: { method: "card", amount: "8.00" },
  });
  const ambiguous = await api(t.app, "POST", `/v1/transactions/${tx.id}/complete`, {
    token: u.cashier.token,
  });
  assertEquals(ambiguous.status, 400);
  assertEquals(ambiguous.body.code, "register_required");

  const chosen = await api(t.app, "POST", `/v1/transactions/${tx.id}/complete`, {
    token: u.cashier.token,
    body: { registerId: r2.id },
  });
  assertEquals(chosen.status, 200, chosen.text);
  assertEquals(chosen.body.drawerSessionId, s2.id);
});

Deno.test("item edits recompute totals; discounts above the threshold need an override; taxes come from config", async () => {
  const { locationId } = await storeWithDrawer(t, u);
  await setConfig(t, { taxRates: { goods: "8.25", service: "5.00" } });
  try {
    const tx = await createSale(t, u.cashier.token, locationId, [
      { description: "Strap", quantity: 1, unitPrice: "19.99" },
    ]);
    assertEquals(tx.taxTotal, "1.65"); // 19.99 × 8.25 % = 1.649… → 1.65
    assertEquals(tx.total, "21.64");

    const added = await api(t.app, "POST", `/v1/transactions/${tx.id}/items`, {
      token: u.cashier.token,
      body: { kind: "labor", description: "Setup", quantity: 1, unitPrice: "40.00" },
    });
    assertEquals(added.status, 201, added.text);
    assertEquals(added.body.item.taxCategory, "service");
    assertEquals(added.body.item.tax, "2.00");
    assertEquals(added.body.transaction.subtotal, "59.99");
    assertEquals(added.body.transaction.taxTotal, "3.65");

    const patched = await api(
      t.app,
      "PATCH",
      `/v1/transactions/${tx.id}/items/${tx.items[0].id}`,
      { token: u.cashier.token, body: { quantity: 2 } },
    );
    assertEquals(patched.status, 200, patched.text);
    assertEquals(patched.body.subtotal, "79.98");

    const small = await api(t.app, "POST", `/v1/transactions/${tx.id}/discount`, {
      token: u.cashier.token,
      body: { kind: "percent", value: "10.00" },
    });
    assertEquals(small.status, 200, small.text);
    assertEquals(small.body.discountTotal, "8.00");
    assertEquals(small.body.discount, { kind: "percent", value: "10.00" });

    const big = await api(t.app, "POST", `/v1/transactions/${tx.id}/discount`, {
      token: u.cashier.token,
      body: { kind: "amount", value: "20.00" },
    });
    assertEquals(big.status, 403);
    assertEquals(big.body.code, "manager_override_required");

    const approved = await api(t.app, "POST", `/v1/transactions/${tx.id}/discount`, {
      token: u.cashier.token,
      body: {
        kind: "amount",
        value: "20.00",
        override: { code: `${u.manager.employeeNumber}4321` },
      },
    });
    assertEquals(approved.status, 200, approved.text);
    assertEquals(approved.body.discountTotal, "20.00");
    const lines = approved.body.items;
    const discountSum = lines.reduce(
      (s: number, l: { discount: string }) => s + Math.round(Number(l.discount) * 100),
      0,
    );
    assertEquals(discountSum, 2000);

    const removed = await api(
      t.app,
      "DELETE",
      `/v1/transactions/${tx.id}/items/${added.body.item.id}`,
      { token: u.cashier.token },
    );
    assertEquals(removed.status, 204);
    const after = await api(t.app, "GET", `/v1/transactions/${tx.id}`, { token: u.viewer.token });
    assertEquals(after.body.items.length, 1);
    assertEquals(after.body.subtotal, "39.98");
    assertEquals(after.body.discountTotal, "20.00");

    const otherItem = await api(
      t.app,
      "DELETE",
      `/v1/transactions/${tx.id}/items/${crypto.randomUUID()}`,
      { token: u.cashier.token },
    );
    assertEquals(otherItem.status, 404);

    const audit = await api(
      t.app,
      "GET",
      `/v1/audit-log?action=pos.discount_override&entityId=${tx.id}`,
      { token: u.auditor.token },
    );
    assertEquals(audit.body.data.length, 1);
    assertEquals(audit.body.data[0].details.approverId, u.manager.id);
    assertEquals(audit.body.data[0].details.cashierId, u.cashier.id);
  } finally {
    await setConfig(t, { taxRates: { goods: "0.00", service: "0.00" } });
  }
});

Deno.test("an account with an approved, unexpired tax exemption pays no tax", async () => {
  const { locationId } = await storeWithDrawer(t, u);
  await setConfig(t, { taxRates: { goods: "10.00", service: "10.00" } });
  try {
    const editor = await createUserWithPermissions(t, ["accounts.edit"]);
    const account = await api(t.app, "POST", "/v1/accounts", {
      token: editor.token,
      body: { name: "Springfield School" },
    });
    assertEquals(account.status, 201, account.text);
    const now = t.deps.clock.now();
    await t.deps.db.insertInto("tax_exemptions").values({
      id: t.deps.ids.uuid(),
      account_id: account.body.id,
      certificate_number: "EX-1",
      status: "approved",
      approved_at: now,
      created_at: now,
      updated_at: now,
    }).execute();
    const exempt = await createSale(t, u.cashier.token, locationId, [
      { description: "Drum sticks", quantity: 1, unitPrice: "10.00" },
    ], { accountId: account.body.id });
    assertEquals(exempt.taxTotal, "0.00");
    assertEquals(exempt.taxExempt, true);
    const taxed = await createSale(t, u.cashier.token, locationId, [
      { description: "Drum sticks", quantity: 1, unitPrice: "10.00" },
    ]);
    assertEquals(taxed.taxTotal, "1.00");

    const list = await api(t.app, "GET", `/v1/transactions?accountId=${account.body.id}`, {
      token: u.viewer.token,
    });
    assertEquals(list.body.data.map((x: { id: string }) => x.id), [exempt.id]);
  } finally {
    await setConfig(t, { taxRates: { goods: "0.00", service: "0.00" } });
  }
});

Deno.test("serialized units are marked sold on completion and a unit not in stock cannot be sold", async () => {
  const { locationId } = await storeWithDrawer(t, u);
  const violin = await makeProduct(t, u, { type: "serialized", price: "500.00" });
  const unit = await api(t.app, "POST", `/v1/products/${violin.id}/units`, {
    token: u.inventory.token,
    body: { serialNumber: "V-1", status: "in_stock", condition: "new" },
  });
  assertEquals(unit.status, 201, unit.text);
  const tx = await createSale(t, u.cashier.token, locationId, [{
    unitId: unit.body.id,
    quantity: 1,
  }]);
  assertEquals(tx.items[0].productId, violin.id);
  assertEquals(tx.items[0].unitPrice, "500.00");
  await payAndComplete(t, u.cashier.token, tx);
  const row = await t.deps.db.selectFrom("units").select("status").where("id", "=", unit.body.id)
    .executeTakeFirstOrThrow();
  assertEquals(row.status, "sold");
  assertEquals(await stockOf(t, violin.id), 0); // serialized: qtyOnHand untouched

  const again = await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body: { locationId, items: [{ unitId: unit.body.id, quantity: 1 }] },
  });
  assertEquals(again.status, 409);
  assertEquals(again.body.code, "unit_unavailable");
});

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

// ---------------------------------------------------------------- concurrency, retries

Deno.test("completing one transaction from several terminals at once succeeds exactly once", async () => {
  const { locationId } = await storeWithDrawer(t, u);
  const product = await makeProduct(t, u);
  await setStock(t, product.id, 5);
  const tx = await createSale(t, u.cashier.token, locationId, [{
    productId: product.id,
    quantity: 1,
  }]);
  await api(t.app, "POST", `/v1/transactions/${tx.id}/payments`, {
    token: u.cashier.token,
    body: { method: "card", amount: tx.total },
  });
  const results = await Promise.all(
    Array.from(
      { length: 5 },
      () => api(t.app, "POST", `/v1/transactions/${tx.id}/complete`, { token: u.cashier.token }),
    ),
  );
  assertEquals(results.map((r) => r.status).sort(), [200, 409, 409, 409, 409]);
  assert(
    results.filter((r) => r.status === 409).every((r) => r.body.code === "invalid_transition"),
  );
  assertEquals(await stockOf(t, product.id), 4);
});

Deno.test("parallel sales of the same products decrement stock exactly once each (no deadlock)", async () => {
  const { locationId } = await storeWithDrawer(t, u);
  const a = await makeProduct(t, u);
  const b = await makeProduct(t, u);
  await setStock(t, a.id, 3); // may go below zero: a sale is never blocked by a wrong count
  await setStock(t, b.id, 100);
  const sales = [];
  for (let i = 0; i < 8; i++) {
    // Lines in both orders, so row-lock order would matter without sorting.
    const items = i % 2 === 0
      ? [{ productId: a.id, quantity: 1 }, { productId: b.id, quantity: 2 }]
      : [{ productId: b.id, quantity: 2 }, { productId: a.id, quantity: 1 }];
    const tx = await createSale(t, u.cashier.token, locationId, items);
    await api(t.app, "POST", `/v1/transactions/${tx.id}/payments`, {
      token: u.cashier.token,
      body: { method: "card", amount: tx.total },
    });
    sales.push(tx);
  }
  const results = await Promise.all(
    sales.map((tx) =>
      api(t.app, "POST", `/v1/transactions/${tx.id}/complete`, { token: u.cashier.token })
    ),
  );
  assert(results.every((r) => r.status === 200), results.map((r) => r.text).join("\n"));
  assertEquals(await stockOf(t, a.id), 3 - 8);
  assertEquals(await stockOf(t, b.id), 100 - 16);
});

Deno.test("payments and completes replay with the same Idempotency-Key and do not act twice", async () => {
  const { locationId } = await storeWithDrawer(t, u);
  const product = await makeProduct(t, u);
  await setStock(t, product.id, 10);
  const createHeaders = { "Idempotency-Key": `create-${crypto.randomUUID()}` };
  const body = { locationId, items: [{ productId: product.id, quantity: 1 }] };
  const created = await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body,
    headers: createHeaders,
  });
  const createdAgain = await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body,
    headers: createHeaders,
  });
  assertEquals(createdAgain.body.id, created.body.id);

  const key = { "Idempotency-Key": `pay-${created.body.id}` };
  const payBody = { method: "card", amount: "10.00" };
  const paths = `/v1/transactions/${created.body.id}`;
  const p1 = await api(t.app, "POST", `${paths}/payments`, {
    token: u.cashier.token,
    body: payBody,
    headers: key,
  });
  const p2 = await api(t.app, "POST", `${paths}/payments`, {
    token: u.cashier.token,
    body: payBody,
    headers: key,
  });
  assertEquals(p1.status, 201);
  assertEquals(p2.status, 201);
  assertEquals(p2.body.payment.id, p1.body.payment.id);
  assertEquals(p2.headers.get("Idempotent-Replayed"), "true");

  const ck = { "Idempotency-Key": `complete-${created.body.id}` };
  const c1 = await api(t.app, "POST", `${paths}/complete`, { token: u.cashier.token, headers: ck });
  const c2 = await api(t.app, "POST", `${paths}/complete`, { token: u.cashier.token, headers: ck });
  assertEquals(c1.status, 200, c1.text);
  assertEquals(c2.status, 200);
  assertEquals(c2.body, c1.body);
  const reused = await api(t.app, "POST", `${paths}/payments`, {
    token: u.cashier.token,
    body: { method: "cash", amount: "1.00" },
    headers: key,
  });
  assertEquals(reused.status, 409);
  assertEquals(reused.body.code, "idempotency_key_reused");

  const got = await api(t.app, "GET", paths, { token: u.viewer.token });
  assertEquals(got.body.payments.length, 1);
  assertEquals(await stockOf(t, product.id), 9);
});

// ---------------------------------------------------------------- performance

function countingDb() {
  const counter = { queries: 0 };
  const db = t.deps.db.withPlugin({
    transformQuery(args) {
      counter.queries++;
      return args.node;
    },
    transformResult(args) {
      return Promise.resolve(args.result);
    },
  });
  return { db, counter };
}

async function seedHistory(locationId: string, sessionId: string, count: number): Promise<void> {
  await sql`
    INSERT INTO transactions (id, type, status, location_id, drawer_session_id, subtotal, total,
      amount_paid, completed_at, created_at, updated_at)
    SELECT gen_random_uuid(), 'sale', 'complete', ${locationId}::uuid, ${sessionId}::uuid, 10, 10,
      10, now(), now() - (g || ' seconds')::interval, now()
    FROM generate_series(1, ${count}) AS g`.execute(t.deps.db);
  await sql`
    INSERT INTO transaction_items (id, transaction_id, kind, description, quantity, unit_price,
      tax_category, gross, net, created_at)
    SELECT gen_random_uuid(), t.id, 'sale', 'History line', 1, 10, 'goods', 10, 10, now()
    FROM transactions t WHERE t.drawer_session_id = ${sessionId}::uuid
      AND NOT EXISTS (SELECT 1 FROM transaction_items i WHERE i.transaction_id = t.id)`
    .execute(t.deps.db);
}

async function countedComplete(locationId: string, productIds: string[]): Promise<number> {
  const tx = await createSale(
    t,
    u.cashier.token,
    locationId,
    productIds.map((productId) => ({ productId, quantity: 1 })),
  );
  await api(t.app, "POST", `/v1/transactions/${tx.id}/payments`, {
    token: u.cashier.token,
    body: { method: "card", amount: tx.total },
  });
  const actor: Actor = {
    userId: u.cashier.id,
    email: u.cashier.email,
    tokenType: "access",
    permissions: new Set(["pos.edit", "pos.view"]),
  };
  const { db, counter } = countingDb();
  const done = await completeTransaction({ ...t.deps, db }, actor, tx.id, undefined);
  assertEquals(done.status, "complete");
  return counter.queries;
}

Deno.test("completing a 3-line sale takes a bounded number of queries, whatever the history size", async () => {
  const { locationId, session } = await storeWithDrawer(t, u);
  const products = [await makeProduct(t, u), await makeProduct(t, u), await makeProduct(t, u)];
  const ids = products.map((p) => p.id);
  await seedHistory(locationId, session.id, 50);
  const small = await countedComplete(locationId, ids);
  await seedHistory(locationId, session.id, 2_000);
  const large = await countedComplete(locationId, ids);
  assertEquals(large, small);
  // the row lock; lines + payments + open drawer; stock of the 3 products + status in one
  // statement (+ BEGIN/COMMIT)
  assert(small <= 3, `complete took ${small} queries`);
});
