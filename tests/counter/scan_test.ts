/**
 * The counter's scan (API §17): `GET /v1/scan/:code` finds one record by an exact,
 * trimmed, case-insensitive code of any kind — product SKU or UPC (UPC-A and its EAN-13 form
 * alike), unit serial, the serial on a repair ticket, repair ticket, rental, account and
 * receipt numbers — answering the same
 * record as its own GET; several matches are 409 `ambiguous` with the candidates; a misread
 * barcode is 400 `invalid_check_digit`; a kind the caller may not view is absent.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp } from "../_helpers/test_app.ts";
import {
  call,
  makeFamily,
  makeInstrument,
  makeRental,
  nextN,
  rentalsSuite,
  type RentalUsers,
  storeWithDrawer,
} from "../rentals/_fixtures.ts";

let t: TestApp;
let u: RentalUsers;
rentalsSuite((s) => ({ t, u } = s));

/** A valid UPC-A (GS1 check digit) built from 11 digits. */
function upcA(body11: string): string {
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += Number(body11[i]) * (i % 2 === 0 ? 3 : 1);
  return body11 + String((10 - (sum % 10)) % 10);
}

function uniqueDigits(n: number): string {
  return String(Date.now() * 1000 + nextN()).slice(-n).padStart(n, "7");
}

function scan(code: string, token = u.settings.token) {
  return api(t.app, "GET", `/v1/scan/${encodeURIComponent(code)}`, { token });
}

/** A user who may view every kind. */
let clerk: { token: string };
Deno.test.beforeAll(async () => {
  clerk = await createUserWithPermissions(t, [
    "inventory.view",
    "repairs.view",
    "rentals.view",
    "accounts.view",
    "pos.view",
  ]);
});

Deno.test("a UPC-A, its EAN-13 form and the SKU in any case each find the product", async () => {
  const upc = upcA(`0${uniqueDigits(10)}`);
  const sku = `GTR-${crypto.randomUUID().slice(0, 8)}`;
  const product = await call(t, u.stock, "POST", "/v1/products", {
    name: "Strat Copy",
    sku,
    upc,
    price: "299.00",
  });
  for (const code of [upc, `0${upc}`, ` ${sku.toLowerCase()} `, sku.toUpperCase()]) {
    const res = await scan(code, clerk.token);
    assertEquals(res.status, 200, `${code}: ${JSON.stringify(res.body)}`);
    assertEquals(res.body.kind, "product");
    assertEquals(res.body.id, product.id);
    assertEquals(res.body.label, `Strat Copy (${sku})`);
    assertEquals(res.body.record, await call(t, u.stock, "GET", `/v1/products/${product.id}`));
  }
  // A product stored with the 13-digit form is found by the 12-digit scan too.
  const ean = `0${upcA(`0${uniqueDigits(10)}`)}`;
  const stored13 = await call(t, u.stock, "POST", "/v1/products", {
    name: "Capo",
    sku: `CAPO-${crypto.randomUUID().slice(0, 8)}`,
    upc: ean,
    price: "12.00",
  });
  assertEquals((await scan(ean.slice(1), clerk.token)).body.id, stored13.id);
});

Deno.test("a serial, a ticket, a rental, an account and a receipt number each find their record", async () => {
  const store = await storeWithDrawer(t, u);
  const family = await makeFamily(t, u);
  const { product, units } = await makeInstrument(t, u, 1);
  const unit = units[0];
  const rental = await makeRental(t, u, {
    accountId: family.account.id,
    memberId: family.member.id,
    productId: product.id,
    unitId: unit.id,
  });
  const ticket = await call(t, u.repairs, "POST", "/v1/repair-tickets", {
    accountId: family.account.id,
    itemDescription: "Flute, sticky pads",
  });
  const strings = await call(t, u.stock, "POST", "/v1/products", {
    name: "Strings",
    sku: `STR-${crypto.randomUUID().slice(0, 8)}`,
    price: "9.00",
  });
  const sale = await call(t, u.cashier, "POST", "/v1/transactions", {
    locationId: store.locationId,
    items: [{ productId: strings.id, quantity: 1 }],
  });

  const serial = await scan(unit.serialNumber.toLowerCase(), clerk.token);
  assertEquals([serial.status, serial.body.kind, serial.body.id], [200, "unit", unit.id]);
  assertEquals(serial.body.label, `${product.name}, serial ${unit.serialNumber}`);
  assertEquals(serial.body.record, await call(t, u.stock, "GET", `/v1/units/${unit.id}`));

  const ticketNumber: string = ticket.ticketNumber;
  for (
    const code of [ticketNumber, ticketNumber.toLowerCase(), `r${Number(ticketNumber.slice(2))}`]
  ) {
    const res = await scan(code, clerk.token);
    assertEquals([res.status, res.body.kind, res.body.id], [200, "repair_ticket", ticket.id], code);
  }
  assertEquals((await scan(ticketNumber, clerk.token)).body.record.ticketNumber, ticketNumber);

  const byRental = await scan(rental.rentalNumber, clerk.token);
  assertEquals([byRental.status, byRental.body.kind, byRental.body.id], [200, "rental", rental.id]);
  assertEquals(byRental.body.label, `${rental.rentalNumber} ${family.account.name}`);
  assertEquals(byRental.body.record.rentalNumber, rental.rentalNumber);

  const byAccount = await scan(family.account.accountNumber.toLowerCase(), clerk.token);
  assertEquals([byAccount.body.kind, byAccount.body.id], ["account", family.account.id]);
  assertEquals(byAccount.body.record.name, family.account.name);

  const receiptNumber = `S-${String(sale.number).padStart(7, "0")}`;
  for (const code of [receiptNumber, `s${sale.number}`]) {
    const res = await scan(code, clerk.token);
    assertEquals([res.status, res.body.kind, res.body.id], [200, "transaction", sale.id], code);
    assertEquals(res.body.record.id, sale.id);
  }
});

Deno.test("a customer's instrument is found by the serial on its repair ticket: the open one, else the last", async () => {
  const family = await makeFamily(t, u);
  const serial = `VN-${crypto.randomUUID().slice(0, 8)}`;
  const ticket = (itemDescription: string, serialNumber = serial) =>
    call(t, u.repairs, "POST", "/v1/repair-tickets", {
      accountId: family.account.id,
      itemDescription,
      serialNumber,
    });
  const cancel = (id: string) =>
    call(t, u.repairs, "POST", `/v1/repair-tickets/${id}/status`, { status: "cancelled" }, 200);

  const first = await ticket("Violin 4/4, open seam");
  for (const code of [serial, ` ${serial.toLowerCase()} `]) {
    const res = await scan(code, clerk.token);
    assertEquals([res.status, res.body.kind, res.body.id], [200, "repair_ticket", first.id], code);
    assertEquals(res.body.label, `${first.ticketNumber} Violin 4/4, open seam`);
    assertEquals(
      res.body.record,
      await call(t, u.repairs, "GET", `/v1/repair-tickets/${first.id}`),
    );
  }
  // Back next year: the closed repair drops out, the open one answers.
  await cancel(first.id);
  const second = await ticket("Violin 4/4, new bridge");
  assertEquals((await scan(serial, clerk.token)).body.id, second.id);
  // Two open tickets of one instrument: the clerk chooses.
  const third = await ticket("Violin 4/4, pegs");
  const two = await scan(serial, clerk.token);
  assertEquals([two.status, two.body.code], [409, "ambiguous"]);
  assertEquals(
    two.body.candidates.map((c: { id: string }) => c.id).sort(),
    [second.id, third.id].sort(),
  );
  // Nothing open: the last repair.
  await cancel(second.id);
  await cancel(third.id);
  const last = await scan(serial, clerk.token);
  assertEquals([last.status, last.body.id], [200, third.id]);
  assertEquals(last.body.record.status, "cancelled");

  // Without repairs.view the tickets are not looked for.
  const stockOnly = await createUserWithPermissions(t, ["inventory.view"]);
  assertEquals((await scan(serial, stockOnly.token)).status, 404);
});

Deno.test("a serial that is also a unit of the shop's stock: the unit, and an open ticket beside it", async () => {
  const { units } = await makeInstrument(t, u, 1);
  const serial: string = units[0].serialNumber;
  const family = await makeFamily(t, u);
  const repair = await call(t, u.repairs, "POST", "/v1/repair-tickets", {
    accountId: family.account.id,
    itemDescription: "Trumpet, stuck valve",
    serialNumber: serial.toLowerCase(),
  });
  const both = await scan(serial, clerk.token);
  assertEquals([both.status, both.body.code], [409, "ambiguous"]);
  assertEquals(
    both.body.candidates.map((c: { kind: string; id: string }) => `${c.kind}:${c.id}`).sort(),
    [`repair_ticket:${repair.id}`, `unit:${units[0].id}`].sort(),
  );
  // Once the repair is closed the serial names the unit alone (its repairs are in its story).
  await call(t, u.repairs, "POST", `/v1/repair-tickets/${repair.id}/status`, {
    status: "cancelled",
  }, 200);
  const unit = await scan(serial, clerk.token);
  assertEquals([unit.status, unit.body.kind, unit.body.id], [200, "unit", units[0].id]);
});

Deno.test("a kind the caller may not view, or whose module is off, is treated as absent", async () => {
  const family = await makeFamily(t, u);
  const ticket = await call(t, u.repairs, "POST", "/v1/repair-tickets", {
    accountId: family.account.id,
    itemDescription: "Violin bridge",
  });
  const stockOnly = await createUserWithPermissions(t, ["inventory.view"]);
  for (const code of [ticket.ticketNumber, family.account.accountNumber]) {
    const hidden = await scan(code, stockOnly.token);
    assertEquals([hidden.status, hidden.body.code], [404, "not_found"], code);
  }
  assertEquals((await scan(ticket.ticketNumber, clerk.token)).status, 200);

  await call(t, u.settings, "PATCH", "/v1/modules/repairs", { enabled: false });
  try {
    assertEquals((await scan(ticket.ticketNumber, clerk.token)).status, 404);
  } finally {
    await call(t, u.settings, "PATCH", "/v1/modules/repairs", { enabled: true });
  }
  assertEquals((await scan(ticket.ticketNumber, clerk.token)).status, 200);
  assertEquals((await api(t.app, "GET", `/v1/scan/${ticket.ticketNumber}`)).status, 401);
});

Deno.test("several matches are 409 ambiguous naming every candidate", async () => {
  const shared = `SHARED-${crypto.randomUUID().slice(0, 8)}`;
  const a = await makeInstrument(t, u, 1, shared);
  const b = await makeInstrument(t, u, 1, shared);
  const res = await scan(`${shared}-1`, clerk.token);
  assertEquals([res.status, res.body.code], [409, "ambiguous"]);
  assertEquals(
    res.body.candidates.map((c: { id: string }) => c.id).sort(),
    [a.units[0].id, b.units[0].id].sort(),
  );
  assert(res.body.candidates.every((c: { kind: string }) => c.kind === "unit"));

  // A SKU that is also another product's serial number: two kinds.
  const code = `DUAL-${crypto.randomUUID().slice(0, 8)}`;
  const product = await call(t, u.stock, "POST", "/v1/products", {
    name: "Dual",
    sku: code,
    price: "1.00",
  });
  const instrument = await makeInstrument(t, u, 1, code.toLowerCase());
  const dual = await scan(`${code}-1`, clerk.token);
  assertEquals(dual.status, 200); // the unit's serial is `<code>-1`, the SKU is `<code>`
  await call(t, u.stock, "POST", `/v1/products/${instrument.product.id}/units`, {
    serialNumber: code,
  });
  const both = await scan(code, clerk.token);
  assertEquals([both.status, both.body.code], [409, "ambiguous"]);
  assertEquals(
    both.body.candidates.map((c: { kind: string }) => c.kind).sort(),
    ["product", "unit"],
  );
  assert(both.body.candidates.some((c: { id: string }) => c.id === product.id));
});

Deno.test("a misread barcode is 400 invalid_check_digit; a valid unknown one is 404", async () => {
  const good = upcA(`0${uniqueDigits(10)}`);
  const bad = good.slice(0, 11) + String((Number(good[11]) + 1) % 10);
  const misread = await scan(bad, clerk.token);
  assertEquals([misread.status, misread.body.code], [400, "invalid_check_digit"]);
  assertEquals([(await scan(`0${bad}`, clerk.token)).body.code], ["invalid_check_digit"]);
  assertEquals((await scan(good, clerk.token)).body.code, "not_found");
  // A code with a "wrong" check digit that is some product's SKU is that product.
  const product = await call(t, u.stock, "POST", "/v1/products", {
    name: "Numeric SKU",
    sku: bad,
    price: "3.00",
  });
  assertEquals((await scan(bad, clerk.token)).body.id, product.id);
});

Deno.test("deleted records are not found; bad codes get problems, never a 500", async () => {
  const sku = `GONE-${crypto.randomUUID().slice(0, 8)}`;
  const product = await call(t, u.stock, "POST", "/v1/products", {
    name: "Gone",
    sku,
    price: "1.00",
  });
  assertEquals((await scan(sku, clerk.token)).status, 200);
  await call(t, u.stock, "DELETE", `/v1/products/${product.id}`, undefined, 204);
  assertEquals((await scan(sku, clerk.token)).status, 404);

  const blank = await scan("   ", clerk.token);
  assertEquals(blank.body.code, "validation_failed", JSON.stringify(blank.body));
  assertEquals((await scan("x".repeat(600), clerk.token)).body.code, "validation_failed");
  assertEquals((await scan("S-", clerk.token)).status, 404);
  assertEquals((await scan("S-99999999999999999999", clerk.token)).status, 404);
  assertEquals((await scan("%' OR 1=1 --", clerk.token)).status, 404);
  const nul = await api(t.app, "GET", "/v1/scan/abc%00def", { token: clerk.token });
  assertEquals(nul.status, 404);
  assertEquals(nul.headers.get("content-type"), "application/problem+json");
});
