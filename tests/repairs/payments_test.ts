/**
 * Payment of a repair at the POS: lines from the ticket, picked_up on completion, amountPaid and
 * balanceDue through payments, refunds and voids, overpayment, cancelled and deleted tickets, and
 * the query count of completing a repair payment next to a sale's.
 */
import { completeCountingQueries, countingStatements } from "../_helpers/query_count.ts";
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import { listTicketsJson } from "../../app/repairs/tickets.ts";
import { ticketListQuery } from "../../app/repairs/ticket_schemas.ts";
import {
  addLine,
  call,
  getTicket,
  makeAccount,
  makeProduct,
  makeTicket,
  payAndComplete,
  repairsSuite,
  type RepairUsers,
  startPayment,
  storeWithDrawer,
  walk,
} from "./_fixtures.ts";

let t: TestApp;
let u: RepairUsers;
let locationId: string;
repairsSuite(async (s) => {
  ({ t, u } = s);
  ({ locationId } = await storeWithDrawer(t, u));
  await call(t, u.settings, "PATCH", "/v1/config", {
    taxRates: { goods: "10.00", service: "5.00" },
  });
});

/** A ticket with labor 50.00, a 20.00 part and an internal consumable, at `status`. */
async function billedTicket(...path: string[]) {
  const glue = await makeProduct(t, u, { name: "Glue", price: "3.00", isConsumable: true });
  const ticket = await makeTicket(t, u);
  await addLine(t, u, ticket.id, {
    kind: "labor",
    description: "Neck reset",
    quantity: 1,
    unitPrice: "50.00",
  });
  await addLine(t, u, ticket.id, {
    kind: "part",
    description: "Saddle",
    quantity: 2,
    unitPrice: "10.00",
  });
  await addLine(t, u, ticket.id, { kind: "part", productId: glue.id, quantity: 1 });
  await walk(t, u, ticket.id, ...path);
  return ticket;
}

Deno.test("a repair_payment without items bills the ticket's customer-facing lines: labor as service, parts as goods", async () => {
  const ticket = await billedTicket("intake");
  const tx = await startPayment(t, u, locationId, ticket.id);
  assertEquals(tx.type, "repair_payment");
  assertEquals(tx.repairTicketId, ticket.id);
  assertEquals(
    tx.items.map((
      i: { kind: string; taxCategory: string; quantity: number; unitPrice: string },
    ) => [
      i.kind,
      i.taxCategory,
      i.quantity,
      i.unitPrice,
    ]),
    [["labor", "service", 1, "50.00"], ["part", "goods", 2, "10.00"]],
  );
  assertEquals([tx.subtotal, tx.taxTotal, tx.total], ["70.00", "4.50", "74.50"]);
  // Completing it moves the ticket to picked_up from a non-terminal status, paid in full.
  await payAndComplete(t, u, tx);
  const after = await getTicket(t, u, ticket.id);
  assertEquals([after.status, after.customerTotal, after.amountPaid, after.balanceDue], [
    "picked_up",
    "70.00",
    "70.00",
    "0.00",
  ]);
  const history = await call(t, u.viewer, "GET", `/v1/repair-tickets/${ticket.id}/history`);
  assertEquals(history.data.at(-1).fromStatus, "intake");
  assertEquals(history.data.at(-1).toStatus, "picked_up");
  // Nothing left to pay: a later payment bills nothing, and any amount is an overpayment.
  const empty = await startPayment(t, u, locationId, ticket.id);
  assertEquals(empty.items, []);
  const more = await startPayment(t, u, locationId, ticket.id, {
    items: [{ kind: "labor", description: "Tip", quantity: 1, unitPrice: "1.00" }],
  });
  const refused = await payAndComplete(t, u, more, 409);
  assertEquals(refused.code, "overpayment");
  assertEquals((await call(t, u.cashier, "GET", `/v1/transactions/${more.id}`)).status, "pending");
});

Deno.test("a partial payment leaves a balance; the next payment bills one 'Balance due' line", async () => {
  const ticket = await billedTicket("intake", "in_progress", "ready_for_pickup");
  const deposit = await startPayment(t, u, locationId, ticket.id, {
    items: [{ kind: "labor", description: "Deposit", quantity: 1, unitPrice: "30.00" }],
  });
  await payAndComplete(t, u, deposit);
  let got = await getTicket(t, u, ticket.id);
  assertEquals([got.status, got.amountPaid, got.balanceDue], ["picked_up", "30.00", "40.00"]);
  const rest = await startPayment(t, u, locationId, ticket.id);
  assertEquals(
    rest.items.map((
      i: { description: string; unitPrice: string; taxCategory: string; kind: string },
    ) => [
      i.description,
      i.unitPrice,
      i.taxCategory,
      i.kind,
    ]),
    [[`Balance due, repair ${ticket.ticketNumber}`, "40.00", "service", "labor"]],
  );
  await payAndComplete(t, u, rest);
  got = await getTicket(t, u, ticket.id);
  assertEquals([got.status, got.amountPaid, got.balanceDue], ["picked_up", "70.00", "0.00"]);
});

Deno.test("paying above the balance due is 409 overpayment and changes nothing; delivered tickets stay delivered", async () => {
  const ticket = await billedTicket("intake", "in_progress", "ready_for_pickup", "delivered");
  const tooMuch = await startPayment(t, u, locationId, ticket.id, {
    items: [{ kind: "labor", description: "Repair", quantity: 1, unitPrice: "70.01" }],
  });
  assertEquals((await payAndComplete(t, u, tooMuch, 409)).code, "overpayment");
  let got = await getTicket(t, u, ticket.id);
  assertEquals([got.status, got.amountPaid], ["delivered", "0.00"]);
  const exact = await startPayment(t, u, locationId, ticket.id);
  await payAndComplete(t, u, exact);
  got = await getTicket(t, u, ticket.id);
  assertEquals([got.status, got.amountPaid, got.balanceDue], ["delivered", "70.00", "0.00"]);
  // The line items changed after the sale started: the check is against the balance at completion.
  const second = await billedTicket("intake");
  const tx = await startPayment(t, u, locationId, second.id);
  const lines = await call(
    t,
    u.viewer,
    "GET",
    `/v1/repair-tickets/${second.id}/line-items?kind=labor`,
  );
  await call(t, u.tech, "PATCH", `/v1/repair-tickets/${second.id}/line-items/${lines.data[0].id}`, {
    unitPrice: "40.00",
  });
  assertEquals((await payAndComplete(t, u, tx, 409)).code, "overpayment");
  assertEquals((await getTicket(t, u, second.id)).status, "intake");
});

/**
 * The ticket as its detail shows it, after checking that the lists (by account, and the
 * ready-for-pickup shelf when it is there) show the same money figures: every read selects
 * the amount paid in its own statement.
 */
async function ticketEverywhere(id: string) {
  const detail = await getTicket(t, u, id);
  const money = (x: Record<string, string>) => [x.customerTotal, x.amountPaid, x.balanceDue];
  const byAccount = await call(
    t,
    u.viewer,
    "GET",
    `/v1/repair-tickets?accountId=${detail.accountId}`,
  );
  assertEquals(money(byAccount.data.find((x: { id: string }) => x.id === id)), money(detail));
  if (detail.status === "ready_for_pickup") {
    const shelf = await call(
      t,
      u.viewer,
      "GET",
      `/v1/repair-tickets/ready-for-pickup?accountId=${detail.accountId}`,
    );
    assertEquals(money(shelf.data.find((x: { id: string }) => x.id === id)), money(detail));
  }
  return detail;
}

Deno.test("a page of tickets is read in one statement, money figures included", async () => {
  const tickets = [await billedTicket("intake"), await billedTicket("intake")];
  await payAndComplete(t, u, await startPayment(t, u, locationId, tickets[0]!.id));
  const counted = countingStatements(t.deps.db);
  const page = await listTicketsJson({ db: counted.db }, ticketListQuery.parse({ limit: "100" }));
  assertEquals(counted.count(), 1);
  const paid = page.data.filter((x) => tickets.some((k) => k.id === x.id)).map((x) => x.amountPaid);
  assertEquals(paid.sort(), ["0.00", "70.00"]);
});

Deno.test("refunds and voids of a repair payment lower amountPaid (pre-tax, net of refunds)", async () => {
  const ticket = await billedTicket("intake");
  const tx = await startPayment(t, u, locationId, ticket.id);
  const done = await payAndComplete(t, u, tx);
  const part = done.items.find((i: { kind: string }) => i.kind === "part");
  await call(t, u.cashier, "POST", `/v1/transactions/${tx.id}/refunds`, {
    items: [{ itemId: part.id, quantity: 1 }],
    method: "card",
    reason: "One saddle returned",
  });
  let got = await ticketEverywhere(ticket.id);
  assertEquals([got.amountPaid, got.balanceDue, got.status], ["60.00", "10.00", "picked_up"]);

  const other = await billedTicket("intake", "in_progress", "ready_for_pickup");
  assertEquals((await ticketEverywhere(other.id)).balanceDue, "70.00");
  const paid = await startPayment(t, u, locationId, other.id);
  await payAndComplete(t, u, paid);
  assertEquals((await ticketEverywhere(other.id)).amountPaid, "70.00");
  await call(
    t,
    u.cashier,
    "POST",
    `/v1/transactions/${paid.id}/void`,
    { reason: "Wrong card" },
    200,
  );
  got = await ticketEverywhere(other.id);
  assertEquals([got.amountPaid, got.balanceDue], ["0.00", "70.00"]);
});

Deno.test("cancelled, deleted and unknown tickets cannot be paid", async () => {
  const cancelled = await billedTicket("cancelled");
  const res = await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body: { locationId, type: "repair_payment", repairTicketId: cancelled.id },
  });
  assertEquals([res.status, res.body.code], [409, "invalid_transition"]);
  // Cancelled after the payment started: completing it is refused too, and nothing moves.
  const later = await billedTicket("intake");
  const tx = await startPayment(t, u, locationId, later.id);
  await walk(t, u, later.id, "cancelled");
  assertEquals((await payAndComplete(t, u, tx, 409)).code, "invalid_transition");
  assertEquals((await getTicket(t, u, later.id)).status, "cancelled");
  const deleted = await billedTicket();
  await call(t, u.admin, "DELETE", `/v1/repair-tickets/${deleted.id}`);
  for (const id of [deleted.id, crypto.randomUUID()]) {
    const gone = await api(t.app, "POST", "/v1/transactions", {
      token: u.cashier.token,
      body: { locationId, type: "repair_payment", repairTicketId: id },
    });
    assertEquals([gone.status, gone.body.code], [400, "invalid_reference"]);
  }
  // A sale still needs its items.
  const sale = await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body: { locationId, type: "sale" },
  });
  assertEquals(sale.status, 400);
  assertEquals(sale.body.errors[0].path, "items");
});

async function countedComplete(tx: { id: string; total: string }): Promise<number> {
  await call(t, u.cashier, "POST", `/v1/transactions/${tx.id}/payments`, {
    method: "card",
    amount: tx.total,
  });
  return await completeCountingQueries(t, u.cashier, tx.id);
}

Deno.test("completing a repair payment takes a bounded number of queries: a sale's plus three", async () => {
  const sale = await call(t, u.cashier, "POST", "/v1/transactions", {
    locationId,
    items: [{ description: "Strings", quantity: 1, unitPrice: "10.00" }],
  });
  const saleQueries = await countedComplete(sale);
  const small = await billedTicket("intake");
  const smallQueries = await countedComplete(await startPayment(t, u, locationId, small.id));
  // A ticket with a long history and many lines costs the same.
  const big = await billedTicket(
    "intake",
    "in_progress",
    "pending_parts",
    "in_progress",
    "pending_parts",
  );
  for (let i = 0; i < 10; i++) {
    await addLine(t, u, big.id, {
      kind: "part",
      description: `Pad ${i}`,
      quantity: 1,
      unitPrice: "1.00",
    });
  }
  const bigQueries = await countedComplete(await startPayment(t, u, locationId, big.id));
  assertEquals(bigQueries, smallQueries);
  assertEquals(smallQueries, saleQueries + 3);
  assert(saleQueries <= 3, `sale: ${saleQueries}`);
  // Many earlier payments cost nothing more (a picked-up ticket keeps its status: one less).
  for (let i = 0; i < 5; i++) {
    const more = await billedTicket();
    await payAndComplete(t, u, await startPayment(t, u, locationId, more.id));
  }
  const paidOften = await billedTicket("intake");
  for (let i = 0; i < 5; i++) {
    const part = await startPayment(t, u, locationId, paidOften.id, {
      items: [{ kind: "labor", description: `Installment ${i}`, quantity: 1, unitPrice: "1.00" }],
    });
    await payAndComplete(t, u, part);
  }
  const laterQueries = await countedComplete(await startPayment(t, u, locationId, paidOften.id));
  assertEquals(laterQueries, smallQueries - 1);
  console.log(`complete: sale ${saleQueries} queries, repair payment ${smallQueries} queries`);
});

Deno.test("a repair_payment is billed to the ticket's account unless the cashier names another", async () => {
  const ticket = await billedTicket("intake");
  const tx = await startPayment(t, u, locationId, ticket.id);
  assertEquals(tx.accountId, ticket.accountId);
  const other = await makeAccount(t, u);
  const named = await startPayment(t, u, locationId, ticket.id, { accountId: other.id });
  assertEquals(named.accountId, other.id);
});
