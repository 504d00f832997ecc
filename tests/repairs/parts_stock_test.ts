/**
 * Repair parts take stock (API §22 "Repair parts"): a line naming a product takes its quantity
 * out of `qtyOnHand` when added, gives it back when deleted, moves the difference when its
 * quantity or product changes; a part is taken once (paying for the ticket takes nothing
 * again); cancelled and deleted tickets keep their parts used; unit-carrying products are
 * refused. Concurrent edits: tests/repairs/concurrency_test.ts.
 */
import { assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import {
  addLine,
  call,
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
});

/** A product with `qty` on hand, received from a supplier. */
async function stocked(qty: number, body: Record<string, unknown> = {}): Promise<string> {
  const product = await makeProduct(t, u, body);
  const supplier = await call(t, u.stock, "POST", "/v1/suppliers", { name: "Parts Co" });
  await call(t, u.stock, "POST", "/v1/stock-receipts", {
    productId: product.id,
    supplierId: supplier.id,
    quantity: qty,
    costPerUnit: "1.00",
  });
  return product.id;
}

async function onHand(productId: string): Promise<number> {
  return (await call(t, u.stock, "GET", `/v1/products/${productId}`)).qtyOnHand;
}

function lineUrl(ticketId: string, lineId = ""): string {
  return `/v1/repair-tickets/${ticketId}/line-items${lineId ? `/${lineId}` : ""}`;
}

Deno.test("a part line takes its quantity from stock, a quantity change moves the difference, a product change swaps, DELETE gives it back", async () => {
  const pads = await stocked(10, { name: "Sax pad" });
  const corks = await stocked(10, { name: "Neck cork" });
  const ticket = await makeTicket(t, u);
  const line = await addLine(t, u, ticket.id, { kind: "part", productId: pads, quantity: 3 });
  assertEquals(await onHand(pads), 7);
  await call(t, u.tech, "PATCH", lineUrl(ticket.id, line.id), { quantity: 1 });
  assertEquals(await onHand(pads), 9);
  await call(t, u.tech, "PATCH", lineUrl(ticket.id, line.id), { quantity: 4 });
  assertEquals(await onHand(pads), 6);
  // Edits that keep product and quantity move nothing.
  await call(t, u.tech, "PATCH", lineUrl(ticket.id, line.id), { description: "Pads, low C" });
  assertEquals(await onHand(pads), 6);
  // Another product: the old one gets its 4 back, the new one gives 2.
  await call(t, u.tech, "PATCH", lineUrl(ticket.id, line.id), { productId: corks, quantity: 2 });
  assertEquals([await onHand(pads), await onHand(corks)], [10, 8]);
  // Unlinked: the product gets its count back; linked again: taken again.
  await call(t, u.tech, "PATCH", lineUrl(ticket.id, line.id), { productId: null });
  assertEquals(await onHand(corks), 10);
  await call(t, u.tech, "PATCH", lineUrl(ticket.id, line.id), { productId: corks });
  assertEquals(await onHand(corks), 8);
  await call(t, u.tech, "DELETE", lineUrl(ticket.id, line.id));
  assertEquals([await onHand(pads), await onHand(corks)], [10, 10]);
  // Lines without a product move no stock.
  await addLine(t, u, ticket.id, {
    kind: "part",
    description: "Felt",
    quantity: 5,
    unitPrice: "1",
  });
  assertEquals([await onHand(pads), await onHand(corks)], [10, 10]);
});

Deno.test("a consumable line takes stock too (internal, never billed), and stock may go below zero", async () => {
  const glue = await stocked(2, { name: "Hide glue", type: "consumable" });
  const ticket = await makeTicket(t, u);
  const line = await addLine(t, u, ticket.id, { kind: "part", productId: glue, quantity: 2 });
  assertEquals([line.isInternal, await onHand(glue)], [true, 0]);
  // A wrong count never blocks the repair: the count goes below zero.
  await call(t, u.tech, "PATCH", lineUrl(ticket.id, line.id), { quantity: 5 });
  assertEquals(await onHand(glue), -3);
  await call(t, u.tech, "DELETE", lineUrl(ticket.id, line.id));
  assertEquals(await onHand(glue), 2);
});

Deno.test("a part is taken once: paying the ticket at the POS (copied lines) takes nothing again, nor does a void give it back", async () => {
  const strings = await stocked(10, { name: "Violin strings", price: "24.00" });
  const glue = await stocked(10, { name: "Glue", type: "consumable" });
  const ticket = await makeTicket(t, u);
  await addLine(t, u, ticket.id, {
    kind: "labor",
    description: "Setup",
    quantity: 1,
    unitPrice: "40",
  });
  await addLine(t, u, ticket.id, { kind: "part", productId: strings, quantity: 2 });
  await addLine(t, u, ticket.id, { kind: "part", productId: glue, quantity: 1 });
  await walk(t, u, ticket.id, "intake", "in_progress", "ready_for_pickup");
  assertEquals([await onHand(strings), await onHand(glue)], [8, 9]);
  const tx = await startPayment(t, u, locationId, ticket.id);
  assertEquals(tx.items.map((i: { productId: string | null }) => i.productId), [null, null]);
  const done = await payAndComplete(t, u, tx);
  assertEquals(done.status, "complete");
  assertEquals([await onHand(strings), await onHand(glue)], [8, 9]);
  assertEquals(
    (await call(t, u.viewer, "GET", `/v1/repair-tickets/${ticket.id}`)).status,
    "picked_up",
  );
  await call(t, u.cashier, "POST", `/v1/transactions/${tx.id}/void`, { reason: "Wrong card" }, 200);
  assertEquals([await onHand(strings), await onHand(glue)], [8, 9]);
});

Deno.test("a service template's part lines are taken from stock when the ticket is created", async () => {
  const strings = await stocked(10, { name: "Cello string A" });
  const rosin = await stocked(10, { name: "Shop rosin", type: "consumable" });
  const template = await call(t, u.tech, "POST", "/v1/service-templates", {
    name: "Cello setup",
    itemCategory: "Cello",
    defaultLineItems: [
      { kind: "labor", description: "Setup", quantity: 1, unitPrice: "60.00" },
      { kind: "part", productId: strings, quantity: 2 },
      { kind: "part", productId: rosin, quantity: 1 },
      { kind: "part", productId: strings, quantity: 1 },
    ],
  });
  const ticket = await makeTicket(t, u, { serviceTemplateId: template.id });
  assertEquals([await onHand(strings), await onHand(rosin)], [7, 9]);
  const lines = await call(t, u.viewer, "GET", lineUrl(ticket.id));
  for (const line of lines.data) await call(t, u.tech, "DELETE", lineUrl(ticket.id, line.id));
  assertEquals([await onHand(strings), await onHand(rosin)], [10, 10]);
});

Deno.test("a cancelled ticket keeps its parts used until the line is deleted; a deleted ticket keeps them used", async () => {
  const pads = await stocked(10);
  const ticket = await makeTicket(t, u);
  const line = await addLine(t, u, ticket.id, { kind: "part", productId: pads, quantity: 3 });
  await walk(t, u, ticket.id, "cancelled");
  assertEquals(await onHand(pads), 7);
  await call(t, u.tech, "POST", `/v1/repair-tickets/${ticket.id}/reopen`, {}, 200);
  assertEquals(await onHand(pads), 7);
  await walk(t, u, ticket.id, "cancelled");
  await call(t, u.tech, "DELETE", lineUrl(ticket.id, line.id));
  assertEquals(await onHand(pads), 10);

  const gone = await makeTicket(t, u);
  await addLine(t, u, gone.id, { kind: "part", productId: pads, quantity: 2 });
  await call(t, u.admin, "DELETE", `/v1/repair-tickets/${gone.id}`);
  assertEquals(await onHand(pads), 8);
});

Deno.test("unit-carrying products are refused (400 invalid_product_type); a refused change moves nothing", async () => {
  const pads = await stocked(10);
  const ticket = await makeTicket(t, u);
  const line = await addLine(t, u, ticket.id, { kind: "part", productId: pads, quantity: 2 });
  for (const type of ["serialized", "rental"]) {
    const product = await makeProduct(t, u, { type });
    const add = await api(t.app, "POST", lineUrl(ticket.id), {
      token: u.tech.token,
      body: { kind: "part", productId: product.id, quantity: 1 },
    });
    assertEquals([add.status, add.body.code, add.body.errors?.[0]?.path], [
      400,
      "invalid_product_type",
      "productId",
    ]);
    const change = await api(t.app, "PATCH", lineUrl(ticket.id, line.id), {
      token: u.tech.token,
      body: { productId: product.id, quantity: 5 },
    });
    assertEquals([change.status, change.body.code], [400, "invalid_product_type"]);
    const template = await api(t.app, "POST", "/v1/service-templates", {
      token: u.tech.token,
      body: {
        name: "Refit",
        itemCategory: "Guitar",
        defaultLineItems: [{ kind: "part", productId: product.id, quantity: 1 }],
      },
    });
    assertEquals([template.status, template.body.code], [400, "invalid_product_type"]);
    assertEquals(await onHand(product.id), 0);
  }
  // An unknown product: refused too, and the line's stock stays where it was.
  const unknown = await api(t.app, "PATCH", lineUrl(ticket.id, line.id), {
    token: u.tech.token,
    body: { productId: crypto.randomUUID(), quantity: 1 },
  });
  assertEquals([unknown.status, unknown.body.code], [400, "invalid_reference"]);
  assertEquals(await onHand(pads), 8);
  const lines = await call(t, u.viewer, "GET", lineUrl(ticket.id));
  assertEquals(lines.data.map((l: { quantity: number }) => l.quantity), [2]);
});
