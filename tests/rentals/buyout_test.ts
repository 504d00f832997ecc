/**
 * A rent-to-own buyout and the rent it counted (API §13): the buyout sale completes only at
 * the payoff it was started at (rent refunded or paid since → 409 payoff_changed with the
 * current payoff), and the rent whose equity a completed buyout counted cannot be refunded or
 * voided (409 equity_consumed) until the buyout sale is refunded or voided. Both at once on
 * real PostgreSQL: concurrency_test.ts.
 */
import { down, up } from "../../migrations/20261204_100000_add_rental_charge_buyout.ts";
import { assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import {
  call,
  chargesOf,
  makeRental,
  payAndComplete,
  rentalsSuite,
  type RentalUsers,
  startRentalPayment,
  storeWithDrawer,
  today,
} from "./_fixtures.ts";

let t: TestApp;
let u: RentalUsers;
rentalsSuite((s) => ({ t, u } = s));

/** A rent-to-own rental (600.00, half of each 40.00 month as equity) with `months` billed. */
async function billedRental(months: number) {
  const rental = await makeRental(t, u, {
    startDate: await today(t, -31 * (months - 1) - 1),
    rate: "40.00",
    rentToOwn: { purchasePrice: "600.00", equityPercent: "50.00" },
  });
  await call(t, u.desk, "POST", "/v1/rentals/charges/generate", {}, 200);
  const charges = await chargesOf(t, u, rental.id);
  assertEquals(charges.length, months);
  return { rental, charges };
}

async function pay(locationId: string, chargeIds: string[]) {
  return await payAndComplete(t, u, await startRentalPayment(t, u, locationId, chargeIds));
}

function startBuyout(rentalId: string, locationId: string) {
  return call(t, u.desk, "POST", `/v1/rentals/${rentalId}/buyout`, { locationId });
}

function refund(tx: { id: string }, itemId: string) {
  return api(t.app, "POST", `/v1/transactions/${tx.id}/refunds`, {
    token: u.cashier.token,
    body: { items: [{ itemId, quantity: 1 }], method: "card", reason: "Customer asked" },
  });
}

function voidTx(tx: { id: string }) {
  return api(t.app, "POST", `/v1/transactions/${tx.id}/void`, {
    token: u.cashier.token,
    body: { reason: "Rung up in error" },
  });
}

async function rentalNow(id: string) {
  const rental = await call(t, u.viewer, "GET", `/v1/rentals/${id}`);
  const unit = await call(t, u.stock, "GET", `/v1/units/${rental.unitId}`);
  return { status: rental.status, unit: unit.status, payoff: rental.payoffAmount };
}

Deno.test("a buyout completes only at its payoff: rent refunded or paid since → 409 payoff_changed", async () => {
  const store = await storeWithDrawer(t, u);
  const { rental, charges } = await billedRental(3);
  const rent = await pay(store.locationId, [charges[0].id, charges[1].id]);
  const stale = await startBuyout(rental.id, store.locationId);
  assertEquals(stale.subtotal, "560.00");

  // Rent refunded after the sale started: the equity is back with the shop, the payoff rose.
  assertEquals((await refund(rent, rent.items[1].id)).status, 201);
  const refused = await payAndComplete(t, u, stale, 409);
  assertEquals([refused.code, refused.payoffAmount], ["payoff_changed", "580.00"]);
  assertEquals(await rentalNow(rental.id), { status: "active", unit: "rented", payoff: "580.00" });
  const still = await call(t, u.cashier, "GET", `/v1/transactions/${stale.id}`);
  assertEquals([still.status, still.amountPaid], ["pending", "560.00"]);
  assertEquals((await voidTx(stale)).status, 200);

  // Rent paid after the sale started: the payoff fell, the sale would overcharge.
  const higher = await startBuyout(rental.id, store.locationId);
  assertEquals(higher.subtotal, "580.00");
  await pay(store.locationId, [charges[2].id]);
  const again = await payAndComplete(t, u, higher, 409);
  assertEquals([again.code, again.payoffAmount], ["payoff_changed", "560.00"]);
  assertEquals((await voidTx(higher)).status, 200);

  // Started again at the current payoff, it completes.
  const buyout = await startBuyout(rental.id, store.locationId);
  assertEquals(buyout.subtotal, "560.00");
  await payAndComplete(t, u, buyout);
  assertEquals(await rentalNow(rental.id), { status: "purchased", unit: "sold", payoff: "560.00" });
});

Deno.test("rent a completed buyout counted cannot be refunded or voided until the buyout is refunded", async () => {
  const store = await storeWithDrawer(t, u);
  const { rental, charges } = await billedRental(2);
  const counted = await pay(store.locationId, [charges[0].id]);
  const buyout = await startBuyout(rental.id, store.locationId);
  await payAndComplete(t, u, buyout);
  // The second month, paid after the purchase: its equity was not in the payoff.
  const after = await pay(store.locationId, [charges[1].id]);

  const refused = await refund(counted, counted.items[0].id);
  assertEquals([refused.status, refused.body.code, refused.body.buyoutTransactionId], [
    409,
    "equity_consumed",
    buyout.id,
  ]);
  const unvoided = await voidTx(counted);
  assertEquals([unvoided.status, unvoided.body.code], [409, "equity_consumed"]);
  assertEquals((await chargesOf(t, u, rental.id)).map((c) => c.status), ["paid", "paid"]);
  assertEquals((await refund(after, after.items[0].id)).status, 201);

  // The buyout refunded: its money goes back, the rental stays purchased with the unit sold,
  // and the rent it counted can be refunded again.
  assertEquals((await refund(buyout, buyout.items[0].id)).status, 201);
  assertEquals(await rentalNow(rental.id), { status: "purchased", unit: "sold", payoff: "580.00" });
  assertEquals((await refund(counted, counted.items[0].id)).status, 201);
  assertEquals((await chargesOf(t, u, rental.id)).map((c) => c.status), ["unpaid", "unpaid"]);
  assertEquals((await rentalNow(rental.id)).payoff, "600.00");
});

Deno.test("voiding a completed buyout makes the rental active again and frees the rent it counted", async () => {
  const store = await storeWithDrawer(t, u);
  const { rental, charges } = await billedRental(1);
  const rent = await pay(store.locationId, [charges[0].id]);
  const buyout = await startBuyout(rental.id, store.locationId);
  await payAndComplete(t, u, buyout);
  assertEquals((await voidTx(rent)).body.code, "equity_consumed");

  assertEquals((await voidTx(buyout)).status, 200);
  assertEquals(await rentalNow(rental.id), { status: "active", unit: "rented", payoff: "580.00" });
  assertEquals((await voidTx(rent)).status, 200);
  assertEquals((await chargesOf(t, u, rental.id))[0].status, "unpaid");
  assertEquals((await rentalNow(rental.id)).payoff, "600.00");
  // A new buyout is priced at the new payoff and completes.
  const again = await startBuyout(rental.id, store.locationId);
  assertEquals(again.subtotal, "600.00");
  await payAndComplete(t, u, again);
  assertEquals((await rentalNow(rental.id)).status, "purchased");
});

Deno.test("the migration marks the rent counted by buyouts completed before it", async () => {
  const store = await storeWithDrawer(t, u);
  const standing = await billedRental(2);
  const counted = await pay(store.locationId, [standing.charges[0].id]);
  await payAndComplete(t, u, await startBuyout(standing.rental.id, store.locationId));
  const later = await pay(store.locationId, [standing.charges[1].id]);
  const refunded = await billedRental(1);
  const rent = await pay(store.locationId, [refunded.charges[0].id]);
  const buyout = await payAndComplete(
    t,
    u,
    await startBuyout(refunded.rental.id, store.locationId),
  );
  assertEquals((await refund(buyout, buyout.items[0].id)).status, 201);

  // As the database was before the migration, then migrated.
  await down(t.deps.db);
  await up(t.deps.db);
  assertEquals((await refund(counted, counted.items[0].id)).body.code, "equity_consumed");
  assertEquals((await refund(later, later.items[0].id)).status, 201);
  assertEquals((await refund(rent, rent.items[0].id)).status, 201);
});
