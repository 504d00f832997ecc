// deno-lint-ignore-file no-explicit-any
/**
 * What a receipt says besides lines and totals (API §17), in its three forms: a repair
 * payment names its ticket and the instrument (serial included); a tax-exempt transaction
 * says so with the exemption's certificate, as it was when the sale was priced; a refund
 * prints no "Change 0.00".
 */
import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { call } from "../_helpers/calls.ts";
import {
  createSale,
  payAndComplete,
  posSuite,
  type PosUsers,
  storeWithDrawer,
} from "./_fixtures.ts";

let t: TestApp;
let u: PosUsers;
let front: TestUser;
let approver: TestUser;
let repairs: TestUser;

posSuite(async (s) => {
  ({ t, u } = s);
  front = await createUserWithPermissions(t, ["accounts.edit"]);
  approver = await createUserWithPermissions(t, ["accounts.approve"]);
  repairs = await createUserWithPermissions(t, ["repairs.edit", "repairs.view"]);
});

/** The receipt's JSON, 40-column text and HTML page. */
async function forms(id: string) {
  const get = (accept?: string) =>
    api(t.app, "GET", `/v1/transactions/${id}/receipt`, {
      token: u.viewer.token,
      headers: accept ? { Accept: accept } : {},
    });
  const [json, text, html] = [await get(), await get("text/plain"), await get("text/html")];
  for (const res of [json, text, html]) assertEquals(res.status, 200, res.text);
  const rows = text.text.split("\n");
  for (const row of rows) assert(Array.from(row).length <= 40, JSON.stringify(row));
  return { json: json.body, rows, html: html.text };
}

async function account(): Promise<any> {
  return await call(t, front, "POST", "/v1/accounts", {
    name: `Receipt Family ${crypto.randomUUID().slice(0, 6)}`,
  });
}

Deno.test("a repair payment's receipt names the repair ticket and the instrument", async () => {
  const { locationId, register } = await storeWithDrawer(t, u);
  const family = await account();
  const serial = `VN-${crypto.randomUUID().slice(0, 6)}`;
  const ticket = await call(t, repairs, "POST", "/v1/repair-tickets", {
    accountId: family.id,
    itemDescription: "Violin 4/4 <full size>",
    serialNumber: serial,
  });
  await call(t, repairs, "POST", `/v1/repair-tickets/${ticket.id}/line-items`, {
    kind: "labor",
    description: "Reglue seam",
    quantity: 1,
    unitPrice: "45.00",
  });
  const pay = await call(t, u.cashier, "POST", "/v1/transactions", {
    locationId,
    registerId: register.id,
    type: "repair_payment",
    repairTicketId: ticket.id,
  });
  const done = await payAndComplete(t, u.cashier.token, pay);

  const { json, rows, html } = await forms(done.id);
  assertEquals(json.repair, {
    ticketNumber: ticket.ticketNumber,
    itemDescription: "Violin 4/4 <full size>",
    serialNumber: serial,
  });
  assertEquals([json.taxExempt, json.taxExemptCertificate], [false, null]);
  assert(rows.includes(`Repair ${ticket.ticketNumber}`), rows.join("\n"));
  assert(rows.includes("Item: Violin 4/4 <full size>"), rows.join("\n"));
  assert(rows.includes(`Serial: ${serial}`), rows.join("\n"));
  assertStringIncludes(html, `<th>Repair</th><td>${ticket.ticketNumber}</td>`);
  assertStringIncludes(html, "<th>Item</th><td>Violin 4/4 &lt;full size&gt;</td>");
  assertStringIncludes(html, `<th>Serial</th><td>${serial}</td>`);

  // A sale names no repair.
  const sale = await createSale(t, u.cashier.token, locationId, [
    { description: "Rosin", quantity: 1, unitPrice: "6.00" },
  ]);
  const plain = await forms(sale.id);
  assertEquals(plain.json.repair, null);
  assert(!plain.rows.some((row) => row.startsWith("Repair ")), plain.rows.join("\n"));
});

Deno.test("a tax-exempt sale's receipt names the certificate, as it was when the sale was priced", async () => {
  const { locationId } = await storeWithDrawer(t, u);
  const school = await account();
  const certificate = `EX-${crypto.randomUUID().slice(0, 8)}`;
  const exemption = await call(t, front, "POST", `/v1/accounts/${school.id}/tax-exemptions`, {
    certificateNumber: certificate,
    issuingState: "TX",
  });
  await call(t, approver, "POST", `/v1/tax-exemptions/${exemption.id}/approve`, undefined, 200);
  const sale = await payAndComplete(
    t,
    u.cashier.token,
    await createSale(t, u.cashier.token, locationId, [
      { description: "Music stands", quantity: 2, unitPrice: "20.00" },
    ], { accountId: school.id }),
  );
  assertEquals(sale.taxExempt, true);

  const check = async (id: string) => {
    const { json, rows, html } = await forms(id);
    assertEquals([json.taxExempt, json.taxExemptCertificate], [true, certificate]);
    assert(rows.includes(`Tax exempt, certificate ${certificate}`), rows.join("\n"));
    assertStringIncludes(html, `<td colspan="2">Tax exempt, certificate ${certificate}</td>`);
  };
  await check(sale.id);
  // Revoking the exemption later does not rewrite the receipt.
  await call(t, approver, "POST", `/v1/tax-exemptions/${exemption.id}/revoke`, {
    reason: "Expired paperwork",
  }, 200);
  await check(sale.id);
  // Its refund is exempt under the same certificate.
  const refund = await call(t, u.manager, "POST", `/v1/transactions/${sale.id}/refunds`, {
    items: [{ itemId: sale.items[0].id, quantity: 1 }],
    method: "card",
    reason: "One too many",
  });
  await check(refund.id);

  // A taxed sale says nothing of exemptions.
  const taxed = await createSale(t, u.cashier.token, locationId, [
    { description: "Music stands", quantity: 1, unitPrice: "20.00" },
  ], { accountId: school.id });
  const plain = await forms(taxed.id);
  assertEquals([plain.json.taxExempt, plain.json.taxExemptCertificate], [false, null]);
  assert(!plain.rows.some((row) => row.includes("Tax exempt")), plain.rows.join("\n"));
  assert(!plain.html.includes("Tax exempt"));
});

Deno.test("a cash refund's receipt prints no Change 0.00; a cash sale's still does", async () => {
  const { locationId } = await storeWithDrawer(t, u);
  const tx = await createSale(t, u.cashier.token, locationId, [
    { description: "Strings", quantity: 2, unitPrice: "5.00" },
  ]);
  const sale = await payAndComplete(t, u.cashier.token, tx, "cash");
  const refund = await call(t, u.manager, "POST", `/v1/transactions/${sale.id}/refunds`, {
    items: [{ itemId: sale.items[0].id, quantity: 1 }],
    method: "cash",
    reason: "Wrong gauge",
  });

  const refunded = await forms(refund.id);
  assertEquals(refunded.json.change, "0.00");
  assert(!refunded.rows.some((row) => row.startsWith("Change")), refunded.rows.join("\n"));
  assert(!refunded.html.includes("<th>Change</th>"), "no change row on the refund's page");
  assert(refunded.rows.some((row) => row.startsWith("Cash")), refunded.rows.join("\n"));

  const sold = await forms(sale.id);
  assert(sold.rows.some((row) => /^Change +0\.00$/.test(row)), sold.rows.join("\n"));
  assertStringIncludes(sold.html, "<th>Change</th>");
});
