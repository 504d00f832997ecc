/**
 * A drawer the API let fill always closes (issue 42, item 9): the largest sales and cash
 * adjustments the API accepts (each up to 9,999,999,999.99, the numeric(12,2) of a single
 * amount) add up in a drawer session beyond what one amount can hold. The session's
 * expected balance, counted closing balance and over/short are stored wider (numeric(16,2)),
 * the count is accepted up to that, and the X, Z and daily reports sum them exactly.
 */
import { assertEquals } from "../_helpers/assert.ts";
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
} from "./_fixtures.ts";

let t: TestApp;
let u: PosUsers;

posSuite((s) => ({ t, u } = s));

/** The largest amount a sale, a payment or an adjustment may carry. */
const MAX = "9999999999.99";

async function adjust(sessionId: string, direction: "in" | "out", amount = MAX) {
  const res = await api(t.app, "POST", `/v1/drawers/${sessionId}/adjustments`, {
    token: u.manager.token,
    body: { direction, amount, reason: "Largest adjustment" },
  });
  assertEquals(res.status, 201, res.text);
}

async function close(sessionId: string, closingBalance: string) {
  return await api(t.app, "POST", `/v1/drawers/${sessionId}/close`, {
    token: u.cashier.token,
    body: { closingBalance },
  });
}

Deno.test("a drawer filled with the largest cash sales and adjustments closes, and the daily report sums it", async () => {
  const locationId = await makeLocation(t);
  const full = await makeRegister(t, u, locationId);
  const drained = await makeRegister(t, u, locationId);
  const fullSession = await openDrawer(t, u, full.id, "100.00");
  const drainedSession = await openDrawer(t, u, drained.id, "0.00");
  const piano = await makeProduct(t, u, { name: "Concert grand", price: MAX });

  // Two of the largest cash sales (the case) and two of the largest cash-ins.
  for (let i = 0; i < 2; i++) {
    const sale = await createSale(t, u.cashier.token, locationId, [
      { productId: piano.id, quantity: 1 },
    ]);
    assertEquals(sale.total, MAX);
    await payAndComplete(t, u.cashier.token, sale, "cash", { registerId: full.id });
  }
  await adjust(fullSession.id, "in");
  await adjust(fullSession.id, "in");
  // The other drawer pays out twice the largest amount it may: its expected balance is
  // negative beyond what one amount can hold.
  await adjust(drainedSession.id, "out");
  await adjust(drainedSession.id, "out");

  const live = await api(t.app, "GET", `/v1/drawers/${fullSession.id}`, { token: u.viewer.token });
  assertEquals(live.status, 200, live.text);
  assertEquals(live.body.expectedBalance, "40000000099.96");
  const openDaily = await api(t.app, "GET", `/v1/reports/daily?locationId=${locationId}`, {
    token: u.auditor.token,
  });
  assertEquals(openDaily.status, 200, openDaily.text);
  assertEquals(openDaily.body.cashAccountability.expectedBalance, "20000000099.98");

  // The exact count of the full drawer is accepted and stored.
  const closed = await close(fullSession.id, "40000000099.96");
  assertEquals(closed.status, 200, closed.text);
  assertEquals(closed.body.expectedBalance, "40000000099.96");
  assertEquals(closed.body.closingBalance, "40000000099.96");
  assertEquals(closed.body.overShort, "0.00");
  assertEquals(closed.body.zReport.cashAccountability.cashSales, "19999999999.98");
  assertEquals(closed.body.zReport.cashAccountability.adjustmentsIn, "19999999999.98");
  assertEquals(closed.body.zReport.salesSummary.total, "19999999999.98");

  // The drained one is counted at the largest single amount: its over/short is three times it.
  const drainedClosed = await close(drainedSession.id, MAX);
  assertEquals(drainedClosed.status, 200, drainedClosed.text);
  assertEquals(drainedClosed.body.expectedBalance, "-19999999999.98");
  assertEquals(drainedClosed.body.overShort, "29999999999.97");

  for (const session of [fullSession, drainedSession]) {
    const z = await api(t.app, "GET", `/v1/drawers/${session.id}/report`, {
      token: u.viewer.token,
    });
    assertEquals(z.status, 200, z.text);
    assertEquals(z.body.kind, "Z");
  }
  const list = await api(t.app, "GET", `/v1/drawers?locationId=${locationId}&status=closed`, {
    token: u.viewer.token,
  });
  assertEquals(list.status, 200, list.text);
  assertEquals(
    list.body.data.map((s: { overShort: string }) => s.overShort).sort(),
    ["0.00", "29999999999.97"],
  );

  const daily = await api(t.app, "GET", `/v1/reports/daily?locationId=${locationId}`, {
    token: u.auditor.token,
  });
  assertEquals(daily.status, 200, daily.text);
  assertEquals(daily.body.sessions.length, 2);
  assertEquals(daily.body.salesSummary.total, "19999999999.98");
  assertEquals(daily.body.cashAccountability, {
    openingBalance: "100.00",
    cashSales: "19999999999.98",
    cashRefunds: "0.00",
    adjustmentsIn: "19999999999.98",
    adjustmentsOut: "19999999999.98",
    expectedBalance: "20000000099.98",
    closingBalance: "50000000099.95",
    overShort: "29999999999.97",
  });
});

Deno.test("a closing count beyond what a drawer session can hold is a 400, never a 500", async () => {
  const locationId = await makeLocation(t);
  const register = await makeRegister(t, u, locationId);
  const session = await openDrawer(t, u, register.id, "10.00");
  for (const closingBalance of ["100000000000000.00", "99999999999999.99"]) {
    const refused = await close(session.id, closingBalance);
    assertEquals(refused.status, 400, refused.text);
    assertEquals(refused.body.code, "validation_failed");
  }
  const closed = await close(session.id, "12345678901234.56");
  assertEquals(closed.status, 200, closed.text);
  assertEquals(closed.body.closingBalance, "12345678901234.56");
  assertEquals(closed.body.overShort, "12345678901224.56");
});
