/** Line items of a ticket: products, internal (consumable) lines, totals, estimate check, wrong parents. */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import {
  addLine,
  call,
  getTicket,
  makeProduct,
  makeTicket,
  repairsSuite,
  type RepairUsers,
} from "./_fixtures.ts";

let t: TestApp;
let u: RepairUsers;
repairsSuite((s) => ({ t, u } = s));

Deno.test("lines take the product's name and price; consumables are internal; totals follow every change", async () => {
  const pad = await makeProduct(t, u, { name: "Sax pad", price: "4.25" });
  const cork = await makeProduct(t, u, { name: "Cork sheet", price: "1.10", isConsumable: true });
  const ticket = await makeTicket(t, u);
  const labor = await addLine(t, u, ticket.id, {
    kind: "labor",
    description: "Repad",
    quantity: 1,
    unitPrice: "90.00",
  });
  const pads = await addLine(t, u, ticket.id, { kind: "part", productId: pad.id, quantity: 4 });
  assertEquals([pads.description, pads.unitPrice, pads.amount, pads.isInternal, pads.productId], [
    "Sax pad",
    "4.25",
    "17.00",
    false,
    pad.id,
  ]);
  const corks = await addLine(t, u, ticket.id, { kind: "part", productId: cork.id, quantity: 3 });
  assertEquals([corks.isInternal, corks.amount], [true, "3.30"]);
  let got = await getTicket(t, u, ticket.id);
  assertEquals([got.customerTotal, got.internalCost, got.balanceDue], ["107.00", "3.30", "107.00"]);

  // Change: quantity, price, then swap the product (its name and price come along).
  await call(t, u.tech, "PATCH", `/v1/repair-tickets/${ticket.id}/line-items/${pads.id}`, {
    quantity: 2,
  });
  const swapped = await call(
    t,
    u.tech,
    "PATCH",
    `/v1/repair-tickets/${ticket.id}/line-items/${corks.id}`,
    { productId: pad.id },
  );
  assertEquals([swapped.description, swapped.unitPrice, swapped.isInternal], [
    "Sax pad",
    "4.25",
    false,
  ]);
  const unlinked = await call(
    t,
    u.tech,
    "PATCH",
    `/v1/repair-tickets/${ticket.id}/line-items/${corks.id}`,
    { productId: null, unitPrice: "5.00" },
  );
  assertEquals([unlinked.productId, unlinked.description, unlinked.amount], [
    null,
    "Sax pad",
    "15.00",
  ]);
  got = await getTicket(t, u, ticket.id);
  assertEquals([got.customerTotal, got.internalCost], ["113.50", "0.00"]);
  await call(t, u.tech, "DELETE", `/v1/repair-tickets/${ticket.id}/line-items/${labor.id}`);
  got = await getTicket(t, u, ticket.id);
  assertEquals(got.customerTotal, "23.50");
  const list = await call(
    t,
    u.viewer,
    "GET",
    `/v1/repair-tickets/${ticket.id}/line-items?sort=createdAt`,
  );
  assertEquals(list.data.map((l: { id: string }) => l.id), [pads.id, corks.id]);
  assertEquals(list.pagination.total, 2);
  const search = await call(
    t,
    u.viewer,
    "GET",
    `/v1/repair-tickets/${ticket.id}/line-items?q=SAX&kind=part`,
  );
  assertEquals(search.data.length, 2);
});

Deno.test("line bodies: a free line needs description and price; unknown products and bad values → 400", async () => {
  const ticket = await makeTicket(t, u);
  const path = `/v1/repair-tickets/${ticket.id}/line-items`;
  for (
    const body of [
      { kind: "labor", quantity: 1 },
      { kind: "labor", quantity: 1, description: "x" },
      { kind: "repair", quantity: 1, description: "x", unitPrice: "1.00" },
      { kind: "part", quantity: 0, description: "x", unitPrice: "1.00" },
      { kind: "part", quantity: 1, description: "x", unitPrice: "-1.00" },
      { kind: "part", quantity: 1, description: "x", unitPrice: "1.001" },
      { kind: "part", quantity: 1, description: "x", unitPrice: "1.00", isInternal: true },
      { kind: "part", quantity: 1, description: "x\u0000", unitPrice: "1.00" },
    ]
  ) {
    const res = await api(t.app, "POST", path, { token: u.tech.token, body });
    assertEquals(res.status, 400, JSON.stringify(body));
  }
  const unknown = await api(t.app, "POST", path, {
    token: u.tech.token,
    body: { kind: "part", quantity: 1, productId: crypto.randomUUID() },
  });
  assertEquals([unknown.status, unknown.body.code], [400, "invalid_reference"]);
  const missingTicket = await api(
    t.app,
    "POST",
    `/v1/repair-tickets/${crypto.randomUUID()}/line-items`,
    {
      token: u.tech.token,
      body: { kind: "labor", quantity: 1, description: "x", unitPrice: "1.00" },
    },
  );
  assertEquals(missingTicket.status, 404);
  assertEquals((await getTicket(t, u, ticket.id)).customerTotal, "0.00");
});

Deno.test("a line item addressed under another ticket's path answers 404 and is left alone", async () => {
  const mine = await makeTicket(t, u);
  const other = await makeTicket(t, u);
  const line = await addLine(t, u, mine.id, {
    kind: "labor",
    description: "Clean",
    quantity: 1,
    unitPrice: "20.00",
  });
  const wrong = `/v1/repair-tickets/${other.id}/line-items/${line.id}`;
  for (
    const [method, body] of [["GET", undefined], ["PATCH", { quantity: 5 }], [
      "DELETE",
      undefined,
    ]] as const
  ) {
    const res = await api(t.app, method, wrong, { token: u.tech.token, body });
    assertEquals(res.status, 404, method);
  }
  const kept = await call(
    t,
    u.viewer,
    "GET",
    `/v1/repair-tickets/${mine.id}/line-items/${line.id}`,
  );
  assertEquals([kept.quantity, kept.amount], [1, "20.00"]);
  assertEquals((await getTicket(t, u, mine.id)).customerTotal, "20.00");
  assertEquals((await getTicket(t, u, other.id)).customerTotal, "0.00");
});

Deno.test("estimateExceeded compares the customer total with the approved (else current) estimate and the tolerance", async () => {
  const ticket = await makeTicket(t, u, { estimate: "100.00" });
  const line = await addLine(t, u, ticket.id, {
    kind: "labor",
    description: "Work",
    quantity: 1,
    unitPrice: "110.00",
  });
  assertEquals((await getTicket(t, u, ticket.id)).estimateExceeded, false); // +10 % is within
  await call(t, u.tech, "PATCH", `/v1/repair-tickets/${ticket.id}/line-items/${line.id}`, {
    unitPrice: "110.01",
  });
  assertEquals((await getTicket(t, u, ticket.id)).estimateExceeded, true);
  await call(t, u.settings, "PATCH", "/v1/config", { repairEstimateTolerancePercent: "20.00" });
  try {
    assertEquals((await getTicket(t, u, ticket.id)).estimateExceeded, false);
  } finally {
    await call(t, u.settings, "PATCH", "/v1/config", { repairEstimateTolerancePercent: "10.00" });
  }
  // The approval fixes the reference amount: a later, larger estimate does not move it.
  await call(t, u.tech, "POST", `/v1/repair-tickets/${ticket.id}/estimate/approve`, {
    approvedByName: "Pat",
    method: "in_person",
    note: "Signed at the counter",
  }, 200);
  const raised = await call(t, u.tech, "PATCH", `/v1/repair-tickets/${ticket.id}`, {
    estimate: "500.00",
  });
  assertEquals([raised.estimateApproval.amount, raised.estimateExceeded], ["100.00", true]);
  // A new approval replaces the old one.
  const again = await call(t, u.tech, "POST", `/v1/repair-tickets/${ticket.id}/estimate/approve`, {
    approvedByName: "Pat",
    method: "email",
  }, 200);
  assertEquals([
    again.estimateApproval.amount,
    again.estimateApproval.method,
    again.estimateExceeded,
  ], [
    "500.00",
    "email",
    false,
  ]);
  const cleared = await call(t, u.tech, "PATCH", `/v1/repair-tickets/${ticket.id}`, {
    estimate: null,
  });
  assertEquals(cleared.estimateExceeded, false);
  const none = await call(t, u.tech, "POST", `/v1/repair-tickets/${ticket.id}/estimate/approve`, {
    approvedByName: "Pat",
    method: "phone",
  }, 409);
  assertEquals(none.code, "invalid_transition");
  for (
    const body of [{ approvedByName: "Pat", method: "fax" }, { method: "phone" }, {
      approvedByName: "",
      method: "sms",
    }]
  ) {
    const res = await api(t.app, "POST", `/v1/repair-tickets/${ticket.id}/estimate/approve`, {
      token: u.tech.token,
      body,
    });
    assertEquals(res.status, 400, JSON.stringify(body));
  }
  const audit = await call(
    t,
    u.settings,
    "GET",
    `/v1/audit-log?action=repair.estimate_approved&entityId=${ticket.id}`,
  );
  assertEquals(audit.data.length, 2);
  assert(audit.data.every((e: { actorId: string }) => e.actorId === u.tech.id));
});
