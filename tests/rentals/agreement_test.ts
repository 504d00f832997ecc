// deno-lint-ignore-file no-explicit-any
/**
 * `GET /rentals/:id/agreement` (API §17): the rental's summary (parties, unit, serial, rate,
 * rent-to-own terms) as JSON, 40-column text and a printable HTML page; 404 and 403.
 */
import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import {
  call,
  chargesOf,
  makeFamily,
  makeInstrument,
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

function agreement(id: string, accept?: string, query = "", token = u.viewer.token) {
  return api(t.app, "GET", `/v1/rentals/${id}/agreement${query}`, {
    token,
    headers: accept ? { Accept: accept } : {},
  });
}

async function rentToOwn(familyName?: string): Promise<{ rental: any; family: any; units: any[] }> {
  const family = await makeFamily(t, u, familyName);
  const { product, units } = await makeInstrument(t, u);
  const rental = await call(t, u.desk, "POST", "/v1/rentals", {
    accountId: family.account.id,
    memberId: family.member.id,
    productId: product.id,
    unitId: units[0].id,
    startDate: await today(t),
    dueDate: await today(t, 270),
    billingInterval: "monthly",
    rate: "39.50",
    deposit: "50.00",
    rentToOwn: { purchasePrice: "600.00", equityPercent: "50.00" },
  });
  return { rental, family, units };
}

Deno.test("the agreement JSON names the parties, unit, serial, rate and rent-to-own terms", async () => {
  const { rental, family, units } = await rentToOwn();
  // One paid charge: 50% of 39.50 accrues as equity.
  await call(t, u.desk, "POST", "/v1/rentals/charges/generate", {
    through: await today(t),
  }, 200);
  const [charge] = await chargesOf(t, u, rental.id);
  const { locationId } = await storeWithDrawer(t, u);
  await payAndComplete(t, u, await startRentalPayment(t, u, locationId, [charge.id]));

  const res = await agreement(rental.id);
  assertEquals(res.status, 200, res.text);
  const store = await call(t, u.viewer, "GET", "/v1/store");
  const json = res.body;
  assertEquals(json.rentalId, rental.id);
  assertEquals(json.rentalNumber, rental.rentalNumber);
  assertEquals(json.status, "active");
  assertEquals(json.store.name, store.name);
  assertEquals(json.account, {
    id: family.account.id,
    accountNumber: family.account.accountNumber,
    name: family.account.name,
    email: family.account.email,
    phone: family.account.phone,
    address: family.account.address,
  });
  assertEquals(json.member, {
    id: family.member.id,
    name: `${family.member.firstName} ${family.member.lastName}`,
  });
  assertEquals(json.product, { id: rental.productId, name: rental.productName });
  assertEquals(json.unit, { id: units[0].id, serialNumber: units[0].serialNumber });
  assertEquals([json.rate, json.deposit, json.billingInterval], ["39.50", "50.00", "monthly"]);
  assertEquals([json.startDate, json.dueDate], [rental.startDate, rental.dueDate]);
  assertEquals(json.rentToOwn, {
    purchasePrice: "600.00",
    equityPercent: "50.00",
    equity: "19.75",
    payoffAmount: "580.25",
  });
});

Deno.test("the agreement's text fits 40 columns and its page escapes every value", async () => {
  const { rental, family } = await rentToOwn(`The <b>Bold</b> & "Quoted" O'Family`);
  const text = await agreement(rental.id, "text/plain");
  assertEquals(text.status, 200);
  assertStringIncludes(text.headers.get("Content-Type")!, "text/plain");
  const rows = text.text.split("\n");
  for (const row of rows) assert(Array.from(row).length <= 40, JSON.stringify(row));
  assert(rows.some((row) => row.trim() === "RENTAL AGREEMENT"));
  assert(rows.some((row) => row.trim() === rental.rentalNumber));
  assert(new RegExp(`^Account: +${family.account.accountNumber}$`, "m").test(text.text));
  assert(/^Rate: +39\.50 \/ month$/m.test(text.text), text.text);
  assert(/^Purchase price: +600\.00$/m.test(text.text));
  assert(/^Payoff: +600\.00$/m.test(text.text));
  assert(!text.text.includes(rental.id), "no UUID");

  const page = await agreement(rental.id, "text/html");
  assertEquals(page.status, 200);
  assertStringIncludes(page.headers.get("Content-Type")!, "text/html");
  assert(!page.text.includes("<b>Bold"), "the account name is not markup");
  assertStringIncludes(
    page.text,
    "The &lt;b&gt;Bold&lt;/b&gt; &amp; &quot;Quoted&quot; O&#39;Family",
  );
  for (const value of [rental.rentalNumber, rental.serialNumber, "39.50 / month", "600.00"]) {
    assertStringIncludes(page.text, `>${value}<`);
  }
  assertStringIncludes(page.text, "@page{size:80mm auto");
  assertStringIncludes((await agreement(rental.id, "text/html", "?paper=a4")).text, "size:A4");
  const bad = await agreement(rental.id, "text/html", "?paper=a3");
  assertEquals([bad.status, bad.body.code], [400, "validation_failed"]);
});

Deno.test("the agreement needs rentals.view and answers 404 for an unknown rental", async () => {
  const { rental } = await rentToOwn();
  for (const accept of [undefined, "text/plain", "text/html"]) {
    const missing = await agreement(crypto.randomUUID(), accept);
    assertEquals([missing.status, missing.body.code], [404, "not_found"]);
    assertEquals((await agreement("nope", accept)).status, 404);
    const refused = await agreement(rental.id, accept, "", u.nobody.token);
    assertEquals([refused.status, refused.body.code], [403, "forbidden"]);
    const cashier = await agreement(rental.id, accept, "", u.cashier.token);
    assertEquals(cashier.status, 403);
  }
  // A deleted rental is gone.
  await call(t, u.desk, "POST", `/v1/rentals/${rental.id}/cancel`, undefined, 200);
  await call(t, u.admin, "DELETE", `/v1/rentals/${rental.id}`);
  assertEquals((await agreement(rental.id)).status, 404);
});
