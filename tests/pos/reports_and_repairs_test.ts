import { assertEquals } from "../_helpers/assert.ts";
import { api, createTestApp, type TestApp } from "../_helpers/test_app.ts";
import type { RepairTicketPort } from "../../app/pos/repair_ticket_port.ts";
import {
  createSale,
  makeLocation,
  makeRegister,
  openDrawer,
  payAndComplete,
  posSuite,
  type PosUsers,
  posUsers,
  storeWithDrawer,
} from "./_fixtures.ts";

let t: TestApp;
let u: PosUsers;

posSuite((s) => ({ t, u } = s));

// ---------------------------------------------------------------- repair payments

Deno.test("without the repairs feature a repair_payment is refused as invalid_reference", async () => {
  const locationId = await makeLocation(t);
  const res = await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body: {
      locationId,
      type: "repair_payment",
      repairTicketId: crypto.randomUUID(),
      items: [{ kind: "labor", description: "Repair", quantity: 1, unitPrice: "30.00" }],
    },
  });
  assertEquals(res.status, 400);
  assertEquals(res.body.code, "invalid_reference");
  const missingTicket = await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body: {
      locationId,
      type: "repair_payment",
      items: [{ kind: "labor", description: "Repair", quantity: 1, unitPrice: "30.00" }],
    },
  });
  assertEquals(missingTicket.status, 400);
  assertEquals(missingTicket.body.code, "validation_failed");
});

Deno.test("with a registered repair-ticket port, completing a repair_payment moves the ticket to picked_up", async () => {
  const tickets = new Map<string, string>([
    ["0190f000-0000-7000-8000-000000000001", "ready_for_pickup"],
    ["0190f000-0000-7000-8000-000000000002", "cancelled"],
  ]);
  const pickedUp: Array<{ id: string; actorId: string }> = [];
  const fake: RepairTicketPort = {
    findTicketStatus: (_trx, id) => Promise.resolve(tickets.get(id)),
    paymentLines: () => Promise.resolve([]),
    findTicketAccountId: () => Promise.resolve(undefined),
    findTicketForReceipt: () => Promise.resolve(undefined),
    markPickedUp: (_trx, id, actorId) => {
      pickedUp.push({ id, actorId });
      tickets.set(id, "picked_up");
      return Promise.resolve();
    },
  };
  const withRepairs = await createTestApp({ repairTickets: fake });
  try {
    const users = await posUsers(withRepairs);
    const { locationId } = await storeWithDrawer(withRepairs, users);
    const cancelled = await api(withRepairs.app, "POST", "/v1/transactions", {
      token: users.cashier.token,
      body: {
        locationId,
        type: "repair_payment",
        repairTicketId: "0190f000-0000-7000-8000-000000000002",
        items: [{ kind: "labor", description: "Repair", quantity: 1, unitPrice: "30.00" }],
      },
    });
    assertEquals(cancelled.status, 409);
    assertEquals(cancelled.body.code, "invalid_transition");

    const tx = await createSale(withRepairs, users.cashier.token, locationId, [
      { kind: "labor", description: "Bow rehair", quantity: 1, unitPrice: "45.00" },
      { kind: "part", description: "Hair", quantity: 1, unitPrice: "5.00" },
    ], { type: "repair_payment", repairTicketId: "0190f000-0000-7000-8000-000000000001" });
    assertEquals(tx.type, "repair_payment");
    assertEquals(tx.items[0].taxCategory, "service");
    assertEquals(tx.items[1].taxCategory, "goods");
    const done = await payAndComplete(withRepairs, users.cashier.token, tx);
    assertEquals(done.status, "complete");
    assertEquals(pickedUp, [{
      id: "0190f000-0000-7000-8000-000000000001",
      actorId: users.cashier.id,
    }]);
  } finally {
    await withRepairs.close();
  }
});

// ---------------------------------------------------------------- daily report

Deno.test("the daily report rolls up today's closed and open sessions of a location", async () => {
  const locationId = await makeLocation(t);
  const r1 = await makeRegister(t, u, locationId);
  const r2 = await makeRegister(t, u, locationId);
  const s1 = await openDrawer(t, u, r1.id, "100.00");
  const s2 = await openDrawer(t, u, r2.id, "50.00");
  const sale1 = await createSale(t, u.cashier.token, locationId, [
    { description: "Metronome", quantity: 1, unitPrice: "30.00" },
  ]);
  await payAndComplete(t, u.cashier.token, sale1, "cash", { registerId: r1.id });
  const sale2 = await createSale(t, u.cashier.token, locationId, [
    { description: "Tuner", quantity: 2, unitPrice: "15.00" },
  ]);
  await payAndComplete(t, u.cashier.token, sale2, "card", { registerId: r2.id });
  const closed = await api(t.app, "POST", `/v1/drawers/${s1.id}/close`, {
    token: u.cashier.token,
    body: { closingBalance: "131.00" },
  });
  assertEquals(closed.status, 200);

  const forbidden = await api(t.app, "GET", `/v1/reports/daily?locationId=${locationId}`, {
    token: u.cashier.token,
  });
  assertEquals(forbidden.status, 403);

  const res = await api(t.app, "GET", `/v1/reports/daily?locationId=${locationId}`, {
    token: u.auditor.token,
  });
  assertEquals(res.status, 200, res.text);
  assertEquals(res.body.locationId, locationId);
  assertEquals(res.body.sessions.length, 2);
  assertEquals(
    res.body.sessions.map((s: { sessionId: string }) => s.sessionId).sort(),
    [s1.id, s2.id].sort(),
  );
  assertEquals(res.body.salesSummary.transactionCount, 2);
  assertEquals(res.body.salesSummary.total, "60.00");
  assertEquals(res.body.paymentBreakdown, [
    { method: "cash", count: 1, amount: "30.00" },
    { method: "card", count: 1, amount: "30.00" },
  ]);
  assertEquals(res.body.cashAccountability.openingBalance, "150.00");
  assertEquals(res.body.cashAccountability.expectedBalance, "180.00");
  assertEquals(res.body.cashAccountability.closingBalance, "131.00");
  assertEquals(res.body.cashAccountability.overShort, "1.00");

  const otherDay = await api(
    t.app,
    "GET",
    `/v1/reports/daily?locationId=${locationId}&date=2001-01-01`,
    { token: u.auditor.token },
  );
  assertEquals(otherDay.status, 200);
  assertEquals(otherDay.body.sessions.length, 0);
  assertEquals(otherDay.body.salesSummary.total, "0.00");

  const unknown = await api(t.app, "GET", `/v1/reports/daily?locationId=${crypto.randomUUID()}`, {
    token: u.auditor.token,
  });
  assertEquals(unknown.status, 400);
});
