/**
 * A shop upgrading with tickets from before repair parts took stock (API §22 "Repair parts";
 * migration 20261204_130000_add_repair_line_stock): their lines took nothing, so they hold
 * nothing. Deleting one gives nothing back; changing its quantity or product takes the new
 * quantity in full, as if added now; other edits move nothing; an older line naming a
 * serialized or rental product can still be edited (it moves no stock), only naming such a
 * product anew is refused.
 */
import { sql } from "kysely";
import { assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import * as repairLineStock from "../../migrations/20261204_130000_add_repair_line_stock.ts";
import { call, makeProduct, makeTicket, repairsSuite, type RepairUsers } from "./_fixtures.ts";

let t: TestApp;
let u: RepairUsers;
repairsSuite((s) => ({ t, u } = s));

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

function lineUrl(ticketId: string, lineId: string): string {
  return `/v1/repair-tickets/${ticketId}/line-items/${lineId}`;
}

/**
 * Lines written the way the code before the migration wrote them (no stock taken, no stock
 * columns), then the migration applied over them.
 */
async function upgradeWith(
  ticketId: string,
  lines: ReadonlyArray<{ productId: string; quantity: number }>,
): Promise<string[]> {
  const db = t.deps.db;
  await repairLineStock.down(db);
  const ids = lines.map(() => crypto.randomUUID());
  for (const [i, line] of lines.entries()) {
    await sql`
      INSERT INTO repair_line_items (id, ticket_id, kind, description, quantity, unit_price,
        product_id, is_internal, created_at, updated_at)
      VALUES (${ids[i]}, ${ticketId}, 'part', ${`Old line ${i + 1}`}, ${line.quantity}, 10.00,
        ${line.productId}, false, now(), now())`.execute(db);
  }
  await repairLineStock.up(db);
  return ids;
}

Deno.test("lines from before the upgrade hold nothing: DELETE gives nothing back, a quantity or product change takes the new quantity in full", async () => {
  const pads = await stocked(10, { name: "Old pads" });
  const corks = await stocked(10, { name: "Old corks" });
  const ticket = await makeTicket(t, u);
  const [deleted, edited, swapped] = await upgradeWith(ticket.id, [
    { productId: pads, quantity: 3 },
    { productId: pads, quantity: 2 },
    { productId: corks, quantity: 4 },
  ]);
  const held = await t.deps.db.selectFrom("repair_line_items")
    .select(["stock_product_id", "stock_quantity"]).where("ticket_id", "=", ticket.id).execute();
  assertEquals(held.map((r) => [r.stock_product_id, Number(r.stock_quantity)]), [
    [null, 0],
    [null, 0],
    [null, 0],
  ]);
  assertEquals([await onHand(pads), await onHand(corks)], [10, 10]);

  // It never took its 3 pads: deleting it gives none back.
  await call(t, u.tech, "DELETE", lineUrl(ticket.id, deleted!));
  assertEquals(await onHand(pads), 10);

  // An edit that changes neither quantity nor product moves nothing, and keeps holding none.
  await call(t, u.tech, "PATCH", lineUrl(ticket.id, edited!), {
    description: "Pads, low C",
    unitPrice: "12.00",
    quantity: 2,
  });
  assertEquals(await onHand(pads), 10);
  // A quantity change takes the new quantity in full, as if the line were added now ...
  await call(t, u.tech, "PATCH", lineUrl(ticket.id, edited!), { quantity: 5 });
  assertEquals(await onHand(pads), 5);
  // ... and from then on the line moves differences and gives back what it took.
  await call(t, u.tech, "PATCH", lineUrl(ticket.id, edited!), { quantity: 1 });
  assertEquals(await onHand(pads), 9);
  await call(t, u.tech, "DELETE", lineUrl(ticket.id, edited!));
  assertEquals(await onHand(pads), 10);

  // A product change gives the old product nothing back and takes the new one's quantity.
  await call(t, u.tech, "PATCH", lineUrl(ticket.id, swapped!), { productId: pads });
  assertEquals([await onHand(pads), await onHand(corks)], [6, 10]);
  await call(t, u.tech, "DELETE", lineUrl(ticket.id, swapped!));
  assertEquals([await onHand(pads), await onHand(corks)], [10, 10]);
});

Deno.test("an older line naming a serialized or rental product can still be edited (no stock moves); naming one anew is refused", async () => {
  const pads = await stocked(10, { name: "Pads for old units" });
  const guitar = await makeProduct(t, u, { type: "serialized" });
  const other = await makeProduct(t, u, { type: "rental" });
  const ticket = await makeTicket(t, u);
  const [unitLine, rentalLine] = await upgradeWith(ticket.id, [
    { productId: guitar.id, quantity: 1 },
    { productId: other.id, quantity: 1 },
  ]);

  const kept = await call(t, u.tech, "PATCH", lineUrl(ticket.id, unitLine!), {
    description: "Guitar from the old system",
    quantity: 2,
    productId: guitar.id,
  });
  assertEquals([kept.productId, kept.quantity], [guitar.id, 2]);
  await call(t, u.tech, "PATCH", lineUrl(ticket.id, rentalLine!), { unitPrice: "5.00" });
  assertEquals([await onHand(guitar.id), await onHand(other.id)], [0, 0]);

  // Another unit-carrying product is refused, and the line is left as it was.
  const refused = await api(t.app, "PATCH", lineUrl(ticket.id, unitLine!), {
    token: u.tech.token,
    body: { productId: other.id },
  });
  assertEquals([refused.status, refused.body.code], [400, "invalid_product_type"]);
  assertEquals(
    (await call(t, u.viewer, "GET", lineUrl(ticket.id, unitLine!))).productId,
    guitar.id,
  );

  // A counted product instead: taken as a line added now; deleting gives it back.
  await call(t, u.tech, "PATCH", lineUrl(ticket.id, unitLine!), { productId: pads });
  assertEquals(await onHand(pads), 8);
  await call(t, u.tech, "DELETE", lineUrl(ticket.id, unitLine!));
  await call(t, u.tech, "DELETE", lineUrl(ticket.id, rentalLine!));
  assertEquals([await onHand(pads), await onHand(guitar.id), await onHand(other.id)], [10, 0, 0]);
});
