/**
 * A unit's life story (API §13): `GET /units/by-serial/:serial` merges the unit's history,
 * its sales and refunds, its rentals and the repair tickets carrying its serial into one
 * timeline, oldest first; unknown serials are 404; inventory.view only.
 */
import { assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import {
  call,
  makeFamily,
  makeInstrument,
  makeRental,
  payAndComplete,
  rentalsSuite,
  type RentalUsers,
  storeWithDrawer,
} from "./_fixtures.ts";

let t: TestApp;
let u: RentalUsers;
rentalsSuite((s) => ({ t, u } = s));

Deno.test("the timeline tells received, rented, returned, repaired, sold and refunded in order", async () => {
  const store = await storeWithDrawer(t, u);
  const { product, units } = await makeInstrument(
    t,
    u,
    1,
    `STORY${crypto.randomUUID().slice(0, 6)}`,
  );
  const unit = units[0];
  const family = await makeFamily(t, u);
  const rental = await makeRental(t, u, {
    accountId: family.account.id,
    productId: product.id,
    unitId: unit.id,
  });
  await call(t, u.desk, "POST", `/v1/rentals/${rental.id}/return`, {
    condition: "fair",
    toRepair: true,
  }, 200);
  const ticket = await call(t, u.repairs, "POST", "/v1/repair-tickets", {
    accountId: family.account.id,
    itemDescription: "Trumpet, stuck valve",
    serialNumber: ` ${unit.serialNumber.toUpperCase()} `,
  });
  await call(t, u.repairs, "POST", `/v1/repair-tickets/${ticket.id}/status`, {
    status: "cancelled",
  }, 200);
  await call(t, u.stock, "PATCH", `/v1/units/${unit.id}`, { status: "in_stock" });
  const sale = await call(t, u.cashier, "POST", "/v1/transactions", {
    locationId: store.locationId,
    accountId: family.account.id,
    items: [{ productId: product.id, unitId: unit.id, quantity: 1 }],
  });
  await payAndComplete(t, u, sale);
  await call(t, u.cashier, "POST", `/v1/transactions/${sale.id}/refunds`, {
    items: [{ itemId: sale.items[0].id, quantity: 1 }],
    method: "card",
    reason: "Wrong size",
  });

  const story = await call(
    t,
    u.stock,
    "GET",
    `/v1/units/by-serial/${unit.serialNumber.toLowerCase()}`,
  );
  assertEquals(story.unit.id, unit.id);
  assertEquals(story.product.name, product.name);
  const events = story.timeline.map((e: { kind: string; details: Record<string, unknown> }) =>
    e.kind === "status_changed" ? `${e.kind}:${e.details.to}` : e.kind
  );
  assertEquals(events, [
    "received",
    "rented",
    "status_changed:rented",
    "returned",
    "status_changed:in_repair",
    "condition_changed",
    "repair_opened",
    "repair_closed",
    "status_changed:in_stock",
    "sold",
    "status_changed:sold",
    "refunded",
    "status_changed:in_stock",
  ]);
  const sold = story.timeline.find((e: { kind: string }) => e.kind === "sold");
  assertEquals(sold.refs, { transactionId: sale.id, accountId: family.account.id });
  const times = story.timeline.map((e: { at: string }) => Date.parse(e.at));
  assertEquals(times, [...times].sort((a, b) => a - b));
  const repair = story.timeline.find((e: { kind: string }) => e.kind === "repair_closed");
  assertEquals([repair.refs.repairTicketId, repair.details.status], [ticket.id, "cancelled"]);
});

Deno.test("an unknown serial is 404; the story needs inventory.view", async () => {
  const missing = await api(t.app, "GET", "/v1/units/by-serial/NO-SUCH-SERIAL", {
    token: u.stock.token,
  });
  assertEquals([missing.status, missing.body.code], [404, "not_found"]);
  const { units } = await makeInstrument(t, u);
  const denied = await api(t.app, "GET", `/v1/units/by-serial/${units[0].serialNumber}`, {
    token: u.desk.token,
  });
  assertEquals(denied.status, 403);
});

Deno.test("a serial holding a NUL or longer than any serial is simply not found", async () => {
  for (const serial of ["%00", "ab%00cd", "x".repeat(101)]) {
    const res = await api(t.app, "GET", `/v1/units/by-serial/${serial}`, { token: u.stock.token });
    assertEquals([res.status, res.body.code], [404, "not_found"], serial);
  }
});
