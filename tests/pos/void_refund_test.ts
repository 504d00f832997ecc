import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import {
  createSale,
  makeProduct,
  MANAGER_PIN,
  payAndComplete,
  posSuite,
  type PosUsers,
  setConfig,
  setStock,
  stockOf,
  storeWithDrawer,
} from "./_fixtures.ts";

let t: TestApp;
let u: PosUsers;
let code: string;

posSuite((s) => {
  ({ t, u } = s);
  code = `${u.manager.employeeNumber}${MANAGER_PIN}`;
});

async function auditOf(action: string, entityId: string) {
  const res = await api(t.app, "GET", `/v1/audit-log?action=${action}&entityId=${entityId}`, {
    token: u.auditor.token,
  });
  assertEquals(res.status, 200, res.text);
  return res.body.data;
}

// ---------------------------------------------------------------- voids

Deno.test("voiding needs a manager override; a complete sale's void restores stock and leaves the reports", async () => {
  const { locationId, session } = await storeWithDrawer(t, u);
  const product = await makeProduct(t, u, { price: "25.00" });
  await setStock(t, product.id, 4);
  const tx = await createSale(t, u.cashier.token, locationId, [{
    productId: product.id,
    quantity: 2,
  }]);
  await payAndComplete(t, u.cashier.token, tx, "cash");
  assertEquals(await stockOf(t, product.id), 2);

  const refused = await api(t.app, "POST", `/v1/transactions/${tx.id}/void`, {
    token: u.cashier.token,
    body: { reason: "Wrong item" },
  });
  assertEquals(refused.status, 403);
  assertEquals(refused.body.code, "manager_override_required");

  const voided = await api(t.app, "POST", `/v1/transactions/${tx.id}/void`, {
    token: u.cashier.token,
    body: { reason: "Wrong item", override: { code } },
  });
  assertEquals(voided.status, 200, voided.text);
  assertEquals(voided.body.status, "voided");
  assertEquals(voided.body.voidReason, "Wrong item");
  assertEquals(voided.body.voidedBy, u.cashier.id);
  assertEquals(await stockOf(t, product.id), 4);

  const twice = await api(t.app, "POST", `/v1/transactions/${tx.id}/void`, {
    token: u.manager.token,
    body: { reason: "again" },
  });
  assertEquals(twice.status, 409);
  assertEquals(twice.body.code, "invalid_transition");
  assertEquals(twice.body.detail, `Cannot void transaction ${tx.receiptNumber}: it is voided`);

  const x = await api(t.app, "GET", `/v1/drawers/${session.id}/report`, { token: u.viewer.token });
  assertEquals(x.body.salesSummary.transactionCount, 0);
  assertEquals(x.body.cashAccountability.cashSales, "0.00");

  const [event] = await auditOf("pos.transaction_voided", tx.id);
  assertEquals(event.actorId, u.cashier.id);
  assertEquals(event.details.approverId, u.manager.id);
  assertEquals(event.details.cashierId, u.cashier.id);
  assertEquals(event.details.reason, "Wrong item");
});

Deno.test("a pending transaction can be voided by a holder of pos.override alone; a closed session's sale cannot", async () => {
  const { locationId, register, session } = await storeWithDrawer(t, u);
  const pending = await createSale(t, u.cashier.token, locationId, [
    { description: "Capo", quantity: 1, unitPrice: "9.00" },
  ]);
  const voided = await api(t.app, "POST", `/v1/transactions/${pending.id}/void`, {
    token: u.manager.token,
    body: { reason: "Customer left" },
  });
  assertEquals(voided.status, 200, voided.text);
  const [event] = await auditOf("pos.transaction_voided", pending.id);
  assertEquals(event.details.approverId, u.manager.id);
  assertEquals(event.details.override, false);

  const sold = await createSale(t, u.cashier.token, locationId, [
    { description: "Capo", quantity: 1, unitPrice: "9.00" },
  ]);
  await payAndComplete(t, u.cashier.token, sold);
  await api(t.app, "POST", `/v1/drawers/${session.id}/close`, {
    token: u.cashier.token,
    body: { closingBalance: "100.00" },
  });
  const late = await api(t.app, "POST", `/v1/transactions/${sold.id}/void`, {
    token: u.manager.token,
    body: { reason: "late" },
  });
  assertEquals(late.status, 409);
  assertEquals(late.body.code, "invalid_transition");
  assertEquals(
    late.body.detail,
    `Cannot void transaction ${sold.receiptNumber}: its drawer session is closed (refund it instead)`,
  );
  void register;
});

Deno.test("no override is asked when the config turns it off for voids", async () => {
  const { locationId } = await storeWithDrawer(t, u);
  await setConfig(t, { managerOverride: { void: false } });
  try {
    const tx = await createSale(t, u.cashier.token, locationId, [
      { description: "Pick", quantity: 1, unitPrice: "1.00" },
    ]);
    const res = await api(t.app, "POST", `/v1/transactions/${tx.id}/void`, {
      token: u.cashier.token,
      body: { reason: "test" },
    });
    assertEquals(res.status, 200, res.text);
  } finally {
    await setConfig(t, { managerOverride: { void: true } });
  }
});

// ---------------------------------------------------------------- refunds

Deno.test("partial refunds give back pro-rata net and tax, restock, reduce expected cash and never exceed the sale", async () => {
  const { locationId, session } = await storeWithDrawer(t, u);
  await setConfig(t, { taxRates: { goods: "10.00" } });
  try {
    const product = await makeProduct(t, u, { price: "10.00" });
    await setStock(t, product.id, 10);
    const tx = await createSale(t, u.cashier.token, locationId, [{
      productId: product.id,
      quantity: 3,
    }]);
    const discounted = await api(t.app, "POST", `/v1/transactions/${tx.id}/discount`, {
      token: u.cashier.token,
      body: { kind: "percent", value: "10" },
    });
    assertEquals(discounted.body.total, "29.70"); // 30 − 3 + 2.70 tax
    await payAndComplete(t, u.cashier.token, discounted.body, "cash");
    assertEquals(await stockOf(t, product.id), 7);
    const itemId = tx.items[0].id;

    const refund = await api(t.app, "POST", `/v1/transactions/${tx.id}/refunds`, {
      token: u.cashier.token,
      body: {
        items: [{ itemId, quantity: 1 }],
        method: "cash",
        reason: "Damaged",
        override: { code },
      },
    });
    assertEquals(refund.status, 201, refund.text);
    assertEquals(refund.body.type, "refund");
    assertEquals(refund.body.status, "complete");
    assertEquals(refund.body.originalTransactionId, tx.id);
    assertEquals(refund.body.drawerSessionId, session.id);
    assertEquals(refund.body.subtotal, "-10.00");
    assertEquals(refund.body.discountTotal, "-1.00");
    assertEquals(refund.body.taxTotal, "-0.90");
    assertEquals(refund.body.total, "-9.90");
    assertEquals(refund.body.balanceDue, "0.00");
    assertEquals(refund.body.payments[0].amount, "-9.90");
    assertEquals(refund.body.items[0].originalItemId, itemId);
    assertEquals(await stockOf(t, product.id), 8);

    const original = await api(t.app, "GET", `/v1/transactions/${tx.id}`, {
      token: u.viewer.token,
    });
    assertEquals(original.body.items[0].refundedQuantity, 1);

    const tooMany = await api(t.app, "POST", `/v1/transactions/${tx.id}/refunds`, {
      token: u.manager.token,
      body: { items: [{ itemId, quantity: 3 }], method: "cash", reason: "x" },
    });
    assertEquals(tooMany.status, 409);
    assertEquals(tooMany.body.code, "refund_exceeds_sale");
    assertEquals(
      tooMany.body.detail,
      `Cannot refund 3 of "${product.name}": 3 sold, 1 already refunded`,
    );

    const notALine = await api(t.app, "POST", `/v1/transactions/${tx.id}/refunds`, {
      token: u.manager.token,
      body: { items: [{ itemId: crypto.randomUUID(), quantity: 1 }], method: "cash", reason: "x" },
    });
    assertEquals(notALine.status, 400);
    assertEquals(notALine.body.code, "invalid_reference");

    const noOverride = await api(t.app, "POST", `/v1/transactions/${tx.id}/refunds`, {
      token: u.cashier.token,
      body: { items: [{ itemId, quantity: 1 }], method: "cash", reason: "x" },
    });
    assertEquals(noOverride.status, 403);
    assertEquals(noOverride.body.code, "manager_override_required");

    const x = await api(t.app, "GET", `/v1/drawers/${session.id}/report`, {
      token: u.viewer.token,
    });
    assertEquals(x.body.salesSummary.transactionCount, 1);
    assertEquals(x.body.salesSummary.grossSales, "30.00");
    assertEquals(x.body.salesSummary.discounts, "3.00");
    assertEquals(x.body.salesSummary.refunds, "9.00");
    assertEquals(x.body.salesSummary.netSales, "18.00");
    assertEquals(x.body.salesSummary.tax, "1.80");
    assertEquals(x.body.cashAccountability.cashSales, "29.70");
    assertEquals(x.body.cashAccountability.cashRefunds, "9.90");
    assertEquals(x.body.cashAccountability.expectedBalance, "119.80");

    const [event] = await auditOf("pos.refund_created", refund.body.id);
    assertEquals(event.details.originalTransactionId, tx.id);
    assertEquals(event.details.approverId, u.manager.id);

    const voidAfterRefund = await api(t.app, "POST", `/v1/transactions/${tx.id}/void`, {
      token: u.manager.token,
      body: { reason: "x" },
    });
    assertEquals(voidAfterRefund.status, 409);

    const refundOfRefund = await api(t.app, "POST", `/v1/transactions/${refund.body.id}/refunds`, {
      token: u.manager.token,
      body: {
        items: [{ itemId: refund.body.items[0].id, quantity: 1 }],
        method: "cash",
        reason: "x",
      },
    });
    assertEquals(refundOfRefund.status, 409);
    assertEquals(refundOfRefund.body.code, "invalid_transition");
  } finally {
    await setConfig(t, { taxRates: { goods: "0.00" } });
  }
});

Deno.test("a pending transaction cannot be refunded", async () => {
  const { locationId } = await storeWithDrawer(t, u);
  const tx = await createSale(t, u.cashier.token, locationId, [
    { description: "Mute", quantity: 1, unitPrice: "4.00" },
  ]);
  const res = await api(t.app, "POST", `/v1/transactions/${tx.id}/refunds`, {
    token: u.manager.token,
    body: { items: [{ itemId: tx.items[0].id, quantity: 1 }], method: "card", reason: "x" },
  });
  assertEquals(res.status, 409);
  assertEquals(res.body.code, "invalid_transition");
});

Deno.test("concurrent refunds of one sale never refund more than was sold", async () => {
  const { locationId } = await storeWithDrawer(t, u);
  const product = await makeProduct(t, u, { price: "5.00" });
  await setStock(t, product.id, 0);
  const tx = await createSale(t, u.cashier.token, locationId, [{
    productId: product.id,
    quantity: 3,
  }]);
  await payAndComplete(t, u.cashier.token, tx);
  const itemId = tx.items[0].id;
  const results = await Promise.all(
    Array.from({ length: 6 }, () =>
      api(t.app, "POST", `/v1/transactions/${tx.id}/refunds`, {
        token: u.manager.token,
        body: { items: [{ itemId, quantity: 1 }], method: "card", reason: "parallel" },
      })),
  );
  const ok = results.filter((r) => r.status === 201);
  assertEquals(ok.length, 3, results.map((r) => r.text).join("\n"));
  assert(
    results.filter((r) => r.status !== 201).every((r) => r.body.code === "refund_exceeds_sale"),
  );
  assertEquals(await stockOf(t, product.id), -3 + 3);
  const refunded = ok.reduce((sum, r) => sum + Math.round(Number(r.body.total) * 100), 0);
  assertEquals(refunded, -1500);
});
