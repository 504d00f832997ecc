// deno-lint-ignore-file no-explicit-any
/**
 * A product line priced below the product's catalogue price is a discount (issue 15, item 4;
 * API §8): the difference counts toward `discountApprovalThresholdPercent` (per line and with
 * the order discount), needs the manager override above it, and is audited as
 * `pos.price_override` with the cashier and the approver, on line creation and on line edits.
 */
import { assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import {
  makeLocation,
  makeProduct,
  MANAGER_PIN,
  posSuite,
  type PosUsers,
  setConfig,
} from "./_fixtures.ts";

let t: TestApp;
let u: PosUsers;
let locationId: string;

posSuite(async (s) => {
  ({ t, u } = s);
  locationId = await makeLocation(t);
});

function managerCode() {
  return { code: `${u.manager.employeeNumber}${MANAGER_PIN}` };
}

function createBody(items: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
  return { locationId, type: "sale", items, ...extra };
}

async function priceAudits(transactionId: string): Promise<any[]> {
  const res = await api(
    t.app,
    "GET",
    `/v1/audit-log?action=pos.price_override&entityId=${transactionId}&limit=100`,
    { token: u.auditor.token },
  );
  assertEquals(res.status, 200, res.text);
  return res.body.data;
}

Deno.test("a $100 product sold for $0.01 needs the manager override on create, and is audited with cashier and approver", async () => {
  const amp = await makeProduct(t, u, { name: "Amp", price: "100.00" });
  const item = { productId: amp.id, quantity: 1, unitPrice: "0.01" };

  const refused = await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body: createBody([item]),
  });
  assertEquals(refused.status, 403, refused.text);
  assertEquals(refused.body.code, "manager_override_required");

  const wrong = await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body: createBody([item], { override: { code: `${u.manager.employeeNumber}0000` } }),
  });
  assertEquals(wrong.status, 403);
  assertEquals(wrong.body.code, "manager_override_required");

  const approved = await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body: createBody([item], { override: managerCode() }),
  });
  assertEquals(approved.status, 201, approved.text);
  assertEquals(approved.body.items[0].unitPrice, "0.01");
  const [entry, ...more] = await priceAudits(approved.body.id);
  assertEquals(more.length, 0);
  assertEquals(entry.actorId, u.cashier.id);
  assertEquals(entry.details.cashierId, u.cashier.id);
  assertEquals(entry.details.approverId, u.manager.id);
  assertEquals(entry.details.override, true);
  assertEquals(entry.details.itemId, approved.body.items[0].id);
  assertEquals(entry.details.productId, amp.id);
  assertEquals(entry.details.cataloguePrice, "100.00");
  assertEquals(entry.details.unitPrice, "0.01");
  assertEquals(entry.details.discount, "99.99");
});

Deno.test("a reduction within the threshold needs no override but is audited; at or above the catalogue price is not a discount", async () => {
  const tuner = await makeProduct(t, u, { price: "100.00" });
  const small = await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body: createBody([
      { productId: tuner.id, quantity: 2, unitPrice: "90.00" }, // exactly 10 %: allowed
      { productId: tuner.id, quantity: 1, unitPrice: "120.00" },
      { productId: tuner.id, quantity: 1 },
      { description: "Free line", quantity: 1, unitPrice: "0.50" },
    ]),
  });
  assertEquals(small.status, 201, small.text);
  const entries = await priceAudits(small.body.id);
  assertEquals(entries.length, 1);
  assertEquals(entries[0].details.discount, "20.00");
  assertEquals(entries[0].details.quantity, 2);
  assertEquals(entries[0].details.approverId, null);
  assertEquals(entries[0].details.cashierId, u.cashier.id);
});

Deno.test("adding a line below the catalogue price needs the override; per line and together with the order discount", async () => {
  const strings = await makeProduct(t, u, { price: "10.00" });
  const tx = (await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body: createBody([{ description: "Labor", kind: "labor", quantity: 1, unitPrice: "90.00" }]),
  })).body;
  const path = `/v1/transactions/${tx.id}/items`;

  const tooLow = await api(t.app, "POST", path, {
    token: u.cashier.token,
    body: { productId: strings.id, quantity: 1, unitPrice: "5.00" },
  });
  assertEquals(tooLow.status, 403, tooLow.text);
  assertEquals(tooLow.body.code, "manager_override_required");

  const approved = await api(t.app, "POST", path, {
    token: u.cashier.token,
    body: { productId: strings.id, quantity: 1, unitPrice: "5.00", override: managerCode() },
  });
  assertEquals(approved.status, 201, approved.text);
  assertEquals(approved.body.transaction.subtotal, "95.00");
  const [entry] = await priceAudits(tx.id);
  assertEquals(entry.details.itemId, approved.body.item.id);
  assertEquals(entry.details.approverId, u.manager.id);

  // A second sale with a 10 % order discount (at the threshold, no override): a line 5 %
  // below its price on top of it passes the threshold together with it.
  const other = (await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body: createBody([{ productId: strings.id, quantity: 10 }]),
  })).body;
  const discount = await api(t.app, "POST", `/v1/transactions/${other.id}/discount`, {
    token: u.cashier.token,
    body: { kind: "percent", value: "10.00" },
  });
  assertEquals(discount.status, 200, discount.text);
  const together = await api(t.app, "POST", `/v1/transactions/${other.id}/items`, {
    token: u.cashier.token,
    body: { productId: strings.id, quantity: 1, unitPrice: "9.50" },
  });
  assertEquals(together.status, 403, together.text);
  assertEquals(together.body.code, "manager_override_required");
  const atPrice = await api(t.app, "POST", `/v1/transactions/${other.id}/items`, {
    token: u.cashier.token,
    body: { productId: strings.id, quantity: 1 },
  });
  assertEquals(atPrice.status, 201, atPrice.text);
});

Deno.test("lowering a line's price or raising the quantity of a reduced line needs the override", async () => {
  const cable = await makeProduct(t, u, { price: "20.00" });
  const tx = (await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body: createBody([{ productId: cable.id, quantity: 1 }]),
  })).body;
  const path = `/v1/transactions/${tx.id}/items/${tx.items[0].id}`;

  const lowered = await api(t.app, "PATCH", path, {
    token: u.cashier.token,
    body: { unitPrice: "10.00" },
  });
  assertEquals(lowered.status, 403, lowered.text);
  assertEquals(lowered.body.code, "manager_override_required");
  const unchanged = await api(t.app, "GET", `/v1/transactions/${tx.id}`, { token: u.viewer.token });
  assertEquals(unchanged.body.items[0].unitPrice, "20.00");

  const approved = await api(t.app, "PATCH", path, {
    token: u.cashier.token,
    body: { unitPrice: "10.00", override: managerCode() },
  });
  assertEquals(approved.status, 200, approved.text);
  assertEquals(approved.body.subtotal, "10.00");

  const more = await api(t.app, "PATCH", path, { token: u.cashier.token, body: { quantity: 5 } });
  assertEquals(more.status, 403, "5 × the approved reduction needs approval again");
  const description = await api(t.app, "PATCH", path, {
    token: u.cashier.token,
    body: { description: "Cable (demo)" },
  });
  assertEquals(description.status, 200, "an edit that adds no reduction needs none");
  const raisedBack = await api(t.app, "PATCH", path, {
    token: u.cashier.token,
    body: { unitPrice: "19.00" },
  });
  assertEquals(raisedBack.status, 200, raisedBack.text);

  const entries = await priceAudits(tx.id);
  assertEquals(entries.length, 1);
  assertEquals(entries[0].details.approverId, u.manager.id);
  assertEquals(entries[0].details.unitPrice, "10.00");
  assertEquals(entries[0].details.discount, "10.00");
});

Deno.test("an order discount counts together with the lines' reductions", async () => {
  const pedal = await makeProduct(t, u, { price: "100.00" });
  const tx = (await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body: createBody([{ productId: pedal.id, quantity: 1, unitPrice: "94.00" }]),
  })).body;
  // 6.00 off the price plus 5 % of 94.00 = 10.70 of 100.00: above 10 %.
  const refused = await api(t.app, "POST", `/v1/transactions/${tx.id}/discount`, {
    token: u.cashier.token,
    body: { kind: "percent", value: "5.00" },
  });
  assertEquals(refused.status, 403, refused.text);
  assertEquals(refused.body.code, "manager_override_required");
  const small = await api(t.app, "POST", `/v1/transactions/${tx.id}/discount`, {
    token: u.cashier.token,
    body: { kind: "amount", value: "4.00" },
  });
  assertEquals(small.status, 200, small.text);
});

Deno.test("a holder of pos.override sets a low price alone; with the discount override off nobody is asked, but it is audited", async () => {
  const drum = await makeProduct(t, u, { price: "50.00" });
  const own = await api(t.app, "POST", "/v1/transactions", {
    token: u.manager.token,
    body: createBody([{ productId: drum.id, quantity: 1, unitPrice: "1.00" }]),
  });
  assertEquals(own.status, 201, own.text);
  const [ownEntry] = await priceAudits(own.body.id);
  assertEquals(ownEntry.details.approverId, u.manager.id);
  assertEquals(ownEntry.details.override, false);

  await setConfig(t, {
    managerOverride: { void: true, refund: true, discount: false, cashInOut: true },
  });
  try {
    const free = await api(t.app, "POST", "/v1/transactions", {
      token: u.cashier.token,
      body: createBody([{ productId: drum.id, quantity: 1, unitPrice: "1.00" }]),
    });
    assertEquals(free.status, 201, free.text);
    const [entry] = await priceAudits(free.body.id);
    assertEquals(entry.details.cashierId, u.cashier.id);
    assertEquals(entry.details.approverId, null);
  } finally {
    await setConfig(t, {
      managerOverride: { void: true, refund: true, discount: true, cashInOut: true },
    });
  }
});
