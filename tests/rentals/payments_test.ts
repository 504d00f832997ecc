/**
 * Rental charges paid at the POS and rent-to-own (API §13): a rental_payment's lines are its
 * charges (service), completing pays them once (equity accrues), a refund reopens them, a
 * paid charge cannot be paid again; the buyout is a pending sale of the payoff that ends the
 * rental as purchased and the unit sold; voiding it gives the rental back. The walk-through
 * of the issue: a trumpet rented rent-to-own, three months billed and paid, bought out, its
 * serial looked up.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import {
  call,
  chargesOf,
  makeRental,
  payAndComplete,
  rentalsSuite,
  type RentalUsers,
  staleUnpaidSince,
  startRentalPayment,
  storeWithDrawer,
  today,
} from "./_fixtures.ts";

let t: TestApp;
let u: RentalUsers;
rentalsSuite((s) => ({ t, u } = s));

const rentToOwn = { purchasePrice: "600.00", equityPercent: "50.00" };

async function billedRental(months: number, body: Record<string, unknown> = {}) {
  const start = await today(t, -31 * (months - 1) - 1);
  const rental = await makeRental(t, u, { startDate: start, rate: "40.00", rentToOwn, ...body });
  await call(t, u.desk, "POST", "/v1/rentals/charges/generate", {}, 200);
  const charges = await chargesOf(t, u, rental.id);
  assertEquals(charges.length, months);
  return { rental, charges };
}

/**
 * The rental as its detail shows it, after checking that the list (by account) shows the same
 * money figures.
 */
async function rental(id: string) {
  const detail = await call(t, u.viewer, "GET", `/v1/rentals/${id}`);
  const listed = await call(t, u.viewer, "GET", `/v1/rentals?accountId=${detail.accountId}`);
  const money = (x: Record<string, string>) => [x.balanceDue, x.equity, x.payoffAmount];
  assertEquals(money(listed.data.find((x: { id: string }) => x.id === id)), money(detail));
  return detail;
}

Deno.test("a rental_payment pays its charges once; equity accrues; a refund reopens the charge", async () => {
  const store = await storeWithDrawer(t, u);
  const { rental: r, charges } = await billedRental(2);
  const tx = await startRentalPayment(t, u, store.locationId, charges.map((c) => c.id));
  assertEquals(tx.type, "rental_payment");
  assertEquals(tx.accountId, r.accountId);
  assertEquals(tx.items.length, 2);
  assertEquals(tx.items.map((i: { taxCategory: string }) => i.taxCategory), ["service", "service"]);
  assertEquals(
    tx.items.map((i: { rentalChargeId: string }) => i.rentalChargeId),
    charges.map((c) => c.id),
  );
  assertEquals(tx.subtotal, "80.00");
  assertEquals((await rental(r.id)).balanceDue, "80.00");

  const done = await payAndComplete(t, u, tx);
  assertEquals(done.status, "complete");
  const paid = await chargesOf(t, u, r.id);
  assertEquals(paid.map((c) => [c.status, c.paidTransactionId, c.equity]), [
    ["paid", tx.id, "20.00"],
    ["paid", tx.id, "20.00"],
  ]);
  const after = await rental(r.id);
  assertEquals([after.balanceDue, after.equity, after.payoffAmount], ["0.00", "40.00", "560.00"]);

  // A paid charge cannot be put on another payment.
  const again = await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body: {
      locationId: store.locationId,
      type: "rental_payment",
      rentalChargeIds: [charges[0].id],
    },
  });
  assertEquals([again.status, again.body.code], [409, "invalid_transition"]);

  // Refunding one line reopens its charge and takes its equity back.
  await call(t, u.cashier, "POST", `/v1/transactions/${tx.id}/refunds`, {
    items: [{ itemId: tx.items[1].id, quantity: 1 }],
    method: "card",
    reason: "Billed in error",
  });
  // A rental_payment counts in the drawer's report like a sale (API §8, §13).
  const report = await call(t, u.cashier, "GET", `/v1/drawers/${done.drawerSessionId}/report`);
  assertEquals(
    [report.salesSummary.transactionCount, report.salesSummary.grossSales],
    [1, "80.00"],
  );
  assertEquals(report.salesSummary.refunds, "40.00");
  const reopened = await chargesOf(t, u, r.id);
  assertEquals(reopened.map((c) => c.status), ["paid", "unpaid"]);
  const now = await rental(r.id);
  assertEquals([now.balanceDue, now.equity, now.payoffAmount], ["40.00", "20.00", "580.00"]);
});

Deno.test("pastDue follows the payments: paying the overdue charge takes the rental off, a refund puts it back", async () => {
  const store = await storeWithDrawer(t, u);
  // Three months billed: the two oldest charges are past the 10 grace days.
  const { rental: r, charges } = await billedRental(3);
  const pastDue = async () =>
    (await call(t, u.viewer, "GET", `/v1/rentals?pastDue=true&accountId=${r.accountId}`)).data
      .map((row: { id: string }) => row.id);
  assertEquals(await pastDue(), [r.id]);

  // Paying the oldest leaves the second, still past due.
  const first = await payAndComplete(
    t,
    u,
    await startRentalPayment(t, u, store.locationId, [charges[0].id]),
  );
  assertEquals(await pastDue(), [r.id]);
  // Paying the second and the current one: nothing owed past the grace days.
  const rest = await payAndComplete(
    t,
    u,
    await startRentalPayment(t, u, store.locationId, [charges[1].id, charges[2].id]),
  );
  assertEquals(await pastDue(), []);
  assertEquals(await staleUnpaidSince(t, [r.id]), []);

  // Refunding the current month's line reopens a charge that is not past due yet...
  await call(t, u.cashier, "POST", `/v1/transactions/${rest.id}/refunds`, {
    items: [{ itemId: rest.items[1].id, quantity: 1 }],
    method: "card",
    reason: "Billed in error",
  });
  assertEquals(await pastDue(), []);
  // ...refunding the oldest month makes the rental past due again.
  await call(t, u.cashier, "POST", `/v1/transactions/${first.id}/refunds`, {
    items: [{ itemId: first.items[0].id, quantity: 1 }],
    method: "card",
    reason: "Card charged twice",
  });
  assertEquals(await pastDue(), [r.id]);
  assertEquals(await staleUnpaidSince(t, [r.id]), []);
});

Deno.test("two pending payments of one charge: completing the second after the first is 409", async () => {
  const store = await storeWithDrawer(t, u);
  const { charges } = await billedRental(1);
  const a = await startRentalPayment(t, u, store.locationId, [charges[0].id]);
  const b = await startRentalPayment(t, u, store.locationId, [charges[0].id]);
  await payAndComplete(t, u, a);
  await call(t, u.cashier, "POST", `/v1/transactions/${b.id}/payments`, {
    method: "cash",
    amount: b.balanceDue,
  });
  const second = await api(t.app, "POST", `/v1/transactions/${b.id}/complete`, {
    token: u.cashier.token,
    body: {},
  });
  assertEquals([second.status, second.body.code], [409, "invalid_transition"]);
  assertEquals((await chargesOf(t, u, charges[0].rentalId))[0].paidTransactionId, a.id);
});

Deno.test("rental_payment refuses unknown charges, mixed accounts, duplicates and items", async () => {
  const store = await storeWithDrawer(t, u);
  const one = await billedRental(1);
  const two = await billedRental(1);
  const post = (body: Record<string, unknown>) =>
    api(t.app, "POST", "/v1/transactions", {
      token: u.cashier.token,
      body: { locationId: store.locationId, type: "rental_payment", ...body },
    });
  assertEquals(
    (await post({ rentalChargeIds: [crypto.randomUUID()] })).body.code,
    "invalid_reference",
  );
  assertEquals(
    (await post({ rentalChargeIds: [one.charges[0].id, two.charges[0].id] })).status,
    400,
  );
  assertEquals(
    (await post({ rentalChargeIds: [one.charges[0].id, one.charges[0].id] })).status,
    400,
  );
  assertEquals((await post({})).status, 400);
});

Deno.test("rent-to-own walk-through: bill three months, pay them, buy out, look up the serial", async () => {
  const store = await storeWithDrawer(t, u);
  const { rental: r, charges } = await billedRental(3);
  for (const charge of charges) {
    const tx = await startRentalPayment(t, u, store.locationId, [charge.id]);
    await payAndComplete(t, u, tx);
  }
  const paid = await rental(r.id);
  assertEquals([paid.balanceDue, paid.equity, paid.payoffAmount], ["0.00", "60.00", "540.00"]);

  const sale = await call(t, u.desk, "POST", `/v1/rentals/${r.id}/buyout`, {
    locationId: store.locationId,
  });
  assertEquals([sale.status, sale.type, sale.rentalId, sale.subtotal], [
    "pending",
    "sale",
    r.id,
    "540.00",
  ]);
  // Voiding the pending buyout leaves the rental active.
  await call(
    t,
    u.cashier,
    "POST",
    `/v1/transactions/${sale.id}/void`,
    { reason: "Changed mind" },
    200,
  );
  assertEquals((await rental(r.id)).status, "active");

  const buy = await call(t, u.desk, "POST", `/v1/rentals/${r.id}/buyout`, {
    locationId: store.locationId,
  });
  const done = await payAndComplete(t, u, buy);
  assertEquals(done.status, "complete");
  const bought = await rental(r.id);
  assertEquals([bought.status, bought.purchaseTransactionId], ["purchased", buy.id]);
  assert(bought.purchasedAt);
  const unit = await call(t, u.stock, "GET", `/v1/units/${r.unitId}`);
  assertEquals(unit.status, "sold");

  // A purchased rental cannot be bought out, returned or billed again.
  const again = await api(t.app, "POST", `/v1/rentals/${r.id}/buyout`, {
    token: u.desk.token,
    body: { locationId: store.locationId },
  });
  assertEquals([again.status, again.body.code], [409, "invalid_transition"]);
  await call(
    t,
    u.desk,
    "POST",
    "/v1/rentals/charges/generate",
    { through: await today(t, 60) },
    200,
  );
  assertEquals((await chargesOf(t, u, r.id)).length, 3);

  const story = await call(
    t,
    u.stock,
    "GET",
    `/v1/units/by-serial/${encodeURIComponent(` ${r.serialNumber.toLowerCase()} `)}`,
  );
  assertEquals(story.unit.id, r.unitId);
  assertEquals(story.product.id, r.productId);
  const kinds = story.timeline.map((e: { kind: string }) => e.kind);
  assertEquals(kinds[0], "received");
  for (const kind of ["rented", "bought_out", "status_changed"]) assert(kinds.includes(kind), kind);
  assert(kinds.indexOf("rented") < kinds.indexOf("bought_out"));
  const boughtOut = story.timeline.find((e: { kind: string }) => e.kind === "bought_out");
  assertEquals(boughtOut.refs, { rentalId: r.id, accountId: r.accountId, transactionId: buy.id });
  const last = story.timeline.at(-1);
  assertEquals([last.kind, last.details.to], ["status_changed", "sold"]);
});

Deno.test("a buyout needs an active rent-to-own rental; a payoff never goes below zero", async () => {
  const store = await storeWithDrawer(t, u);
  const plain = await makeRental(t, u);
  const res = await api(t.app, "POST", `/v1/rentals/${plain.id}/buyout`, {
    token: u.desk.token,
    body: { locationId: store.locationId },
  });
  assertEquals([res.status, res.body.code], [409, "invalid_transition"]);
  assertEquals(plain.payoffAmount, null);

  const { rental: r, charges } = await billedRental(2, {
    rentToOwn: { purchasePrice: "50.00", equityPercent: "100.00" },
  });
  const tx = await startRentalPayment(t, u, store.locationId, charges.map((c) => c.id));
  await payAndComplete(t, u, tx);
  const after = await rental(r.id);
  assertEquals([after.equity, after.payoffAmount], ["80.00", "0.00"]);
  // Paid off: the buyout is a sale of 0.00 that completes with no payment.
  const buy = await call(t, u.desk, "POST", `/v1/rentals/${r.id}/buyout`, {
    locationId: store.locationId,
  });
  assertEquals([buy.subtotal, buy.balanceDue], ["0.00", "0.00"]);
  await payAndComplete(t, u, buy);
  assertEquals((await rental(r.id)).status, "purchased");
});
