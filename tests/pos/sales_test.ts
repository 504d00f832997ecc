/** Selling: a sale created, paid and completed; what cannot be sold or completed. */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import {
  createSale,
  makeLocation,
  makeProduct,
  makeRegister,
  openDrawer,
  payAndComplete,
  posSuite,
  type PosUsers,
  setStock,
  stockOf,
  storeWithDrawer,
} from "./_fixtures.ts";

let t: TestApp;
let u: PosUsers;

posSuite((s) => ({ t, u } = s));

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

// ---------------------------------------------------------------- units

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
  assertEquals(again.body.detail, `Unit V-1 of ${violin.name} is not in stock (status sold)`);
});
