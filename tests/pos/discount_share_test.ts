// deno-lint-ignore-file no-explicit-any
/**
 * A discount cannot escape its approval (issue 42, item 1; API §8): its share of the subtotal
 * is judged again whenever the subtotal changes (a line added, changed or removed) and at
 * completion. A Sales Associate (pos.edit, no pos.override) who takes $100 off a $100 guitar
 * and a $900 amplifier (10 %, no override needed) and then removes the amplifier or lowers a
 * quantity needs a manager's override, as if the discount had been set that way; a share a
 * manager approved is not asked again until it grows beyond it.
 */
import { assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp, type TestUser } from "../_helpers/test_app.ts";
import {
  createSale,
  makeProduct,
  MANAGER_PIN,
  posSuite,
  type PosUsers,
  salesAssociate,
  setConfig,
  storeWithDrawer,
} from "./_fixtures.ts";

let t: TestApp;
let u: PosUsers;
let associate: TestUser;
let locationId: string;
let guitar: any;
let amplifier: any;

posSuite(async (s) => {
  ({ t, u } = s);
  associate = await salesAssociate(t);
  ({ locationId } = await storeWithDrawer(t, u));
  guitar = await makeProduct(t, u, { name: "Guitar", price: "100.00" });
  amplifier = await makeProduct(t, u, { name: "Amplifier", price: "900.00" });
});

function managerCode() {
  return { code: `${u.manager.employeeNumber}${MANAGER_PIN}` };
}

/** The guitar and the amplifier, $100 off as an amount (10 %: within the threshold). */
async function discountedSale(
  discount: Record<string, unknown> = { kind: "amount", value: "100.00" },
  lines: Record<string, unknown>[] = [
    { productId: guitar.id, quantity: 1 },
    { productId: amplifier.id, quantity: 1 },
  ],
): Promise<any> {
  const tx = await createSale(t, associate.token, locationId, lines);
  const res = await api(t.app, "POST", `/v1/transactions/${tx.id}/discount`, {
    token: associate.token,
    body: discount,
  });
  assertEquals(res.status, 200, res.text);
  return res.body;
}

async function read(txId: string): Promise<any> {
  const res = await api(t.app, "GET", `/v1/transactions/${txId}`, { token: u.viewer.token });
  assertEquals(res.status, 200, res.text);
  return res.body;
}

async function shareAudits(txId: string): Promise<any[]> {
  const res = await api(
    t.app,
    "GET",
    `/v1/audit-log?action=pos.discount_override&entityId=${txId}&limit=100`,
    { token: u.auditor.token },
  );
  assertEquals(res.status, 200, res.text);
  return res.body.data;
}

function removeLine(txId: string, itemId: string, body?: Record<string, unknown>) {
  return api(t.app, "DELETE", `/v1/transactions/${txId}/items/${itemId}`, {
    token: associate.token,
    ...(body ? { body } : {}),
  });
}

async function payAndComplete(tx: any, body?: Record<string, unknown>) {
  if (tx.balanceDue !== "0.00") {
    const paid = await api(t.app, "POST", `/v1/transactions/${tx.id}/payments`, {
      token: associate.token,
      body: { method: "card", amount: tx.balanceDue },
    });
    assertEquals(paid.status, 201, paid.text);
  }
  return await api(t.app, "POST", `/v1/transactions/${tx.id}/complete`, {
    token: associate.token,
    ...(body ? { body } : {}),
  });
}

Deno.test("removing the amplifier after $100 off needs the manager's override, and is audited", async () => {
  const tx = await discountedSale();
  assertEquals(tx.total, "900.00");
  const amp = tx.items.find((i: any) => i.productId === amplifier.id);

  const refused = await removeLine(tx.id, amp.id);
  assertEquals(refused.status, 403, refused.text);
  assertEquals(refused.body.code, "manager_override_required");
  const wrong = await removeLine(tx.id, amp.id, {
    override: { code: `${u.manager.employeeNumber}0000` },
  });
  assertEquals(wrong.status, 403, wrong.text);
  const unchanged = await read(tx.id);
  assertEquals(unchanged.items.length, 2);
  assertEquals(unchanged.total, "900.00");
  assertEquals(await shareAudits(tx.id), []);

  const approved = await removeLine(tx.id, amp.id, { override: managerCode() });
  assertEquals(approved.status, 204, approved.text);
  const after = await read(tx.id);
  assertEquals(after.subtotal, "100.00");
  assertEquals(after.discountTotal, "100.00");
  assertEquals(after.total, "0.00");
  const [entry, ...more] = await shareAudits(tx.id);
  assertEquals(more, []);
  assertEquals(entry.actorId, associate.id);
  assertEquals(entry.details.cashierId, associate.id);
  assertEquals(entry.details.approverId, u.manager.id);
  assertEquals(entry.details.override, true);
  assertEquals(entry.details.change, "item_removed");
  assertEquals(entry.details.itemId, amp.id);
  assertEquals(entry.details.share, "100.00");

  // The share the manager approved is not asked again at completion.
  const done = await payAndComplete(after);
  assertEquals(done.status, 200, done.text);
  assertEquals((await shareAudits(tx.id)).length, 1);
});

Deno.test("lowering a quantity after $100 off needs the manager's override", async () => {
  const tx = await discountedSale({ kind: "amount", value: "100.00" }, [
    { productId: guitar.id, quantity: 10 },
  ]);
  const path = `/v1/transactions/${tx.id}/items/${tx.items[0].id}`;
  const refused = await api(t.app, "PATCH", path, {
    token: associate.token,
    body: { quantity: 1 },
  });
  assertEquals(refused.status, 403, refused.text);
  assertEquals(refused.body.code, "manager_override_required");
  assertEquals((await read(tx.id)).items[0].quantity, 10);

  const approved = await api(t.app, "PATCH", path, {
    token: associate.token,
    body: { quantity: 1, override: managerCode() },
  });
  assertEquals(approved.status, 200, approved.text);
  assertEquals(approved.body.total, "0.00");
  const [entry] = await shareAudits(tx.id);
  assertEquals(entry.details.change, "item_changed");
  assertEquals(entry.details.approverId, u.manager.id);
  assertEquals(entry.details.share, "100.00");

  // Within the approved share: no new approval.
  const more = await api(t.app, "PATCH", path, { token: associate.token, body: { quantity: 2 } });
  assertEquals(more.status, 200, more.text);
  const done = await payAndComplete(more.body);
  assertEquals(done.status, 200, done.text);
  assertEquals((await shareAudits(tx.id)).length, 1);
});

Deno.test("a percent discount keeps its share when the subtotal changes: no override", async () => {
  const tx = await discountedSale({ kind: "percent", value: "10.00" });
  const amp = tx.items.find((i: any) => i.productId === amplifier.id);
  const removed = await removeLine(tx.id, amp.id);
  assertEquals(removed.status, 204, removed.text);
  const after = await read(tx.id);
  assertEquals(after.total, "90.00");
  const done = await payAndComplete(after);
  assertEquals(done.status, 200, done.text);
  assertEquals(await shareAudits(tx.id), []);
});

Deno.test("a price below the catalogue counts with the order discount when the subtotal shrinks", async () => {
  // $5 off the guitar's price (5 %) and $45 off the order: together 5 % of $1,000.
  const tx = await discountedSale({ kind: "amount", value: "45.00" }, [
    { productId: guitar.id, quantity: 1, unitPrice: "95.00" },
    { productId: amplifier.id, quantity: 1 },
  ]);
  const amp = tx.items.find((i: any) => i.productId === amplifier.id);
  // Without the amplifier: $50 of $100 at catalogue prices.
  const refused = await removeLine(tx.id, amp.id);
  assertEquals(refused.status, 403, refused.text);
  assertEquals(refused.body.code, "manager_override_required");
  const lowered = await api(t.app, "PATCH", `/v1/transactions/${tx.id}/items/${amp.id}`, {
    token: associate.token,
    body: { unitPrice: "840.00" },
  });
  // $60 off the amplifier (6.7 %, within the threshold alone) makes $110 of $1,000.
  assertEquals(lowered.status, 403, lowered.text);
  const approved = await removeLine(tx.id, amp.id, { override: managerCode() });
  assertEquals(approved.status, 204, approved.text);
  assertEquals((await shareAudits(tx.id))[0].details.share, "50.00");
});

Deno.test("a share a manager approved is asked again only once it grows beyond it", async () => {
  const sale = await createSale(t, associate.token, locationId, [
    { productId: guitar.id, quantity: 2 },
    { productId: amplifier.id, quantity: 1 },
  ]);
  const discountPath = `/v1/transactions/${sale.id}/discount`;
  const thirtyPercent = { kind: "amount", value: "330.00" }; // of $1,100
  const refused = await api(t.app, "POST", discountPath, {
    token: associate.token,
    body: thirtyPercent,
  });
  assertEquals(refused.status, 403, refused.text);
  const set = await api(t.app, "POST", discountPath, {
    token: associate.token,
    body: { ...thirtyPercent, override: managerCode() },
  });
  assertEquals(set.status, 200, set.text);
  const [approval] = await shareAudits(sale.id);
  assertEquals(approval.details.change, "discount");
  assertEquals(approval.details.share, "30.00");
  const guitars = sale.items.find((i: any) => i.productId === guitar.id);
  const path = `/v1/transactions/${sale.id}/items/${guitars.id}`;
  // One guitar less: $330 of $1,000 is 33 %, more than the 30 % approved.
  const fewer = await api(t.app, "PATCH", path, { token: associate.token, body: { quantity: 1 } });
  assertEquals(fewer.status, 403, fewer.text);
  const more = await api(t.app, "PATCH", path, { token: associate.token, body: { quantity: 3 } });
  assertEquals(more.status, 200, more.text);
  const back = await api(t.app, "PATCH", path, { token: associate.token, body: { quantity: 2 } });
  assertEquals(back.status, 200, "back to the approved 30 %");
  const done = await payAndComplete(back.body);
  assertEquals(done.status, 200, done.text);
  assertEquals((await shareAudits(sale.id)).length, 1);
});

Deno.test("a new discount set without an approval drops the earlier one", async () => {
  const sale = await createSale(t, associate.token, locationId, [
    { productId: guitar.id, quantity: 2 },
    { productId: amplifier.id, quantity: 1 },
  ]);
  const discountPath = `/v1/transactions/${sale.id}/discount`;
  const approved = await api(t.app, "POST", discountPath, {
    token: associate.token,
    body: { kind: "amount", value: "330.00", override: managerCode() },
  });
  assertEquals(approved.status, 200, approved.text);
  const smaller = await api(t.app, "POST", discountPath, {
    token: associate.token,
    body: { kind: "amount", value: "100.00" }, // 9 % of $1,100
  });
  assertEquals(smaller.status, 200, smaller.text);
  // Without the guitars $100 is 11 % of $900: beyond the threshold; the 30 % approved for
  // the earlier discount does not cover it.
  const guitars = sale.items.find((i: any) => i.productId === guitar.id);
  const removed = await removeLine(sale.id, guitars.id);
  assertEquals(removed.status, 403, removed.text);
  assertEquals((await read(sale.id)).items.length, 2);
});

Deno.test("completion judges the share again: beyond the threshold and the approval it needs the override", async () => {
  const tx = await discountedSale();
  const own = await discountedSale();
  await setConfig(t, { discountApprovalThresholdPercent: "5.00" });
  try {
    const paid = await api(t.app, "POST", `/v1/transactions/${tx.id}/payments`, {
      token: associate.token,
      body: { method: "card", amount: tx.balanceDue },
    });
    assertEquals(paid.status, 201, paid.text);
    const refused = await api(t.app, "POST", `/v1/transactions/${tx.id}/complete`, {
      token: associate.token,
    });
    assertEquals(refused.status, 403, refused.text);
    assertEquals(refused.body.code, "manager_override_required");
    assertEquals((await read(tx.id)).status, "pending");

    const done = await api(t.app, "POST", `/v1/transactions/${tx.id}/complete`, {
      token: associate.token,
      body: { override: managerCode() },
    });
    assertEquals(done.status, 200, done.text);
    assertEquals(done.body.status, "complete");
    const [entry] = await shareAudits(tx.id);
    assertEquals(entry.details.change, "completed");
    assertEquals(entry.details.share, "10.00");
    assertEquals(entry.details.approverId, u.manager.id);

    // A holder of pos.override completes such a sale without a code, approving it itself.
    const ownPaid = await api(t.app, "POST", `/v1/transactions/${own.id}/payments`, {
      token: u.manager.token,
      body: { method: "card", amount: own.balanceDue },
    });
    assertEquals(ownPaid.status, 201, ownPaid.text);
    const ownDone = await api(t.app, "POST", `/v1/transactions/${own.id}/complete`, {
      token: u.manager.token,
    });
    assertEquals(ownDone.status, 200, ownDone.text);
    const [ownEntry] = await shareAudits(own.id);
    assertEquals(ownEntry.details.approverId, u.manager.id);
    assertEquals(ownEntry.details.override, false);
  } finally {
    await setConfig(t, { discountApprovalThresholdPercent: "10.00" });
  }
});

Deno.test("two removals at once, each within the threshold alone but not together: one is refused", async () => {
  const sale = await createSale(t, associate.token, locationId, [
    { description: "Lesson A", kind: "labor", quantity: 1, unitPrice: "500.00" },
    { description: "Lesson B", kind: "labor", quantity: 1, unitPrice: "500.00" },
    { productId: guitar.id, quantity: 10 },
  ]);
  const set = await api(t.app, "POST", `/v1/transactions/${sale.id}/discount`, {
    token: associate.token,
    body: { kind: "amount", value: "120.00" }, // 6 % of $2,000; 8 % of $1,500; 12 % of $1,000
  });
  assertEquals(set.status, 200, set.text);
  const [a, b] = sale.items;
  const results = await Promise.all([removeLine(sale.id, a.id), removeLine(sale.id, b.id)]);
  assertEquals(results.map((r) => r.status).sort(), [204, 403], results.map((r) => r.text).join());
  const after = await read(sale.id);
  assertEquals(after.subtotal, "1500.00");
  assertEquals(after.items.length, 2);
});
