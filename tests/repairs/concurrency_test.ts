/**
 * Concurrency on real PostgreSQL (skipped on the embedded database, which has one connection):
 * concurrent status moves of one ticket (exactly one of competing moves wins, the history has no
 * gap or duplicate), parallel creates (no ticket number collides), terminals paying one
 * ticket at once (the balance never goes negative), and racing part line edits (stock stays
 * exact).
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import { testServerUrl } from "../_helpers/test_db.ts";
import { outboxTo } from "../email/_outbox.ts";
import {
  addLine,
  call,
  getTicket,
  makeAccount,
  makeProduct,
  makeTicket,
  nextN,
  repairsSuite,
  type RepairUsers,
  startPayment,
  storeWithDrawer,
  walk,
} from "./_fixtures.ts";

let t: TestApp;
let u: RepairUsers;
repairsSuite((s) => ({ t, u } = s));

const ignore = !testServerUrl();

interface History {
  fromStatus: string;
  toStatus: string;
}

/** The history is one chain from `new`: each change starts where the previous one ended. */
async function assertChain(ticketId: string, moves: number): Promise<History[]> {
  const history = (await call(t, u.viewer, "GET", `/v1/repair-tickets/${ticketId}/history`))
    .data as History[];
  assertEquals(history.length, moves);
  history.forEach((h, i) => assertEquals(h.fromStatus, i === 0 ? "new" : history[i - 1]!.toStatus));
  const seqs = await t.deps.db.selectFrom("repair_ticket_history").select("seq")
    .where("ticket_id", "=", ticketId).orderBy("seq").execute();
  assertEquals(seqs.map((r) => r.seq), history.map((_, i) => i + 1));
  const ticket = await getTicket(t, u, ticketId);
  assertEquals(ticket.status, history.at(-1)?.toStatus ?? "new");
  return history;
}

Deno.test({
  name: "competing status moves of one ticket: exactly one wins, one email, a history without gap",
  ignore,
  async fn() {
    const email = `race${nextN()}@example.test`;
    const ticket = await makeTicket(t, u, { accountId: (await makeAccount(t, u, { email })).id });
    await walk(t, u, ticket.id, "intake", "in_progress");
    const targets = Array.from(
      { length: 16 },
      (_, i) => i % 2 ? "ready_for_pickup" : "pending_parts",
    );
    const results = await Promise.all(
      targets.map((status, i) =>
        api(t.app, "POST", `/v1/repair-tickets/${ticket.id}/status`, {
          token: (i % 3 ? u.tech : u.tech2).token,
          body: { status },
        })
      ),
    );
    const won = results.filter((r) => r.status === 200);
    assertEquals(won.length, 1, results.map((r) => r.status).join(","));
    assert(results.every((r) => r.status === 200 || r.body.code === "invalid_transition"));
    const history = await assertChain(ticket.id, 3);
    assertEquals(history[2]!.toStatus, won[0]!.body.status);
    assertEquals(
      (await outboxTo(t, email)).length,
      won[0]!.body.status === "ready_for_pickup" ? 1 : 0,
    );
  },
});

Deno.test({
  name: "many concurrent back-and-forth moves leave one unbroken history",
  ignore,
  async fn() {
    const ticket = await makeTicket(t, u);
    await walk(t, u, ticket.id, "intake", "in_progress");
    const results = await Promise.all(
      Array.from(
        { length: 30 },
        (_, i) =>
          api(t.app, "POST", `/v1/repair-tickets/${ticket.id}/status`, {
            token: u.tech.token,
            body: { status: i % 2 ? "in_progress" : "pending_parts" },
          }),
      ),
    );
    const ok = results.filter((r) => r.status === 200).length;
    assert(ok >= 1);
    assert(results.every((r) => r.status === 200 || r.body.code === "invalid_transition"));
    await assertChain(ticket.id, 2 + ok);
  },
});

Deno.test({
  name: "parallel creates never share a ticket number",
  ignore,
  async fn() {
    const account = await makeAccount(t, u);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        api(t.app, "POST", "/v1/repair-tickets", {
          token: u.tech.token,
          body: { accountId: account.id, itemDescription: `Drum ${i}` },
        })),
    );
    assert(results.every((r) => r.status === 201), results.map((r) => r.text).join("\n"));
    const numbers = results.map((r) => r.body.ticketNumber as string);
    assertEquals(new Set(numbers).size, numbers.length);
    const values = numbers.map((n) => Number(n.slice(2))).sort((a, b) => a - b);
    assertEquals(values.at(-1)! - values[0]!, numbers.length - 1);
  },
});

Deno.test({
  name: "terminals completing payments of one ticket at once never pay it twice over",
  ignore,
  async fn() {
    const { locationId } = await storeWithDrawer(t, u);
    for (let round = 0; round < 3; round++) {
      const ticket = await makeTicket(t, u);
      await addLine(t, u, ticket.id, {
        kind: "labor",
        description: "Overhaul",
        quantity: 1,
        unitPrice: "70.00",
      });
      await walk(t, u, ticket.id, "intake", "in_progress", "ready_for_pickup");
      // Four terminals: two bill the whole ticket, two a 30.00 part of it.
      const txs = [
        await startPayment(t, u, locationId, ticket.id),
        await startPayment(t, u, locationId, ticket.id),
        ...await Promise.all([0, 1].map(() =>
          startPayment(t, u, locationId, ticket.id, {
            items: [{
              kind: "labor",
              description: "Part payment",
              quantity: 1,
              unitPrice: "30.00",
            }],
          })
        )),
      ];
      for (const tx of txs) {
        await call(t, u.cashier, "POST", `/v1/transactions/${tx.id}/payments`, {
          method: "cash",
          amount: tx.total,
        });
      }
      const done = await Promise.all(
        txs.map((tx) =>
          api(t.app, "POST", `/v1/transactions/${tx.id}/complete`, {
            token: u.cashier.token,
            body: {},
          })
        ),
      );
      assert(
        done.every((r) => r.status === 200 || r.body.code === "overpayment"),
        done.map((r) => r.text).join("\n"),
      );
      const paidCents = done.reduce(
        (sum, r, i) => sum + (r.status === 200 ? Math.round(Number(txs[i]!.subtotal) * 100) : 0),
        0,
      );
      assert(paidCents <= 7000, `paid ${paidCents}`);
      const after = await getTicket(t, u, ticket.id);
      assertEquals(Math.round(Number(after.amountPaid) * 100), paidCents);
      assertEquals(after.balanceDue, ((7000 - paidCents) / 100).toFixed(2));
      assertEquals(after.status, "picked_up");
      const history = await assertChain(ticket.id, 4);
      assertEquals(history[3]!.toStatus, "picked_up");
    }
  },
});

Deno.test({
  name:
    "racing part line edits, on one ticket and on several, and sales of the parts leave qtyOnHand exact",
  ignore,
  async fn() {
    const supplier = await call(t, u.stock, "POST", "/v1/suppliers", { name: "Race parts" });
    const products: string[] = [];
    for (let i = 0; i < 2; i++) {
      const product = await makeProduct(t, u, { name: `Race part ${i}`, price: "5.00" });
      await call(t, u.stock, "POST", "/v1/stock-receipts", {
        productId: product.id,
        supplierId: supplier.id,
        quantity: 1000,
        costPerUnit: "1.00",
      });
      products.push(product.id);
    }
    const [a, b] = products as [string, string];
    const { locationId } = await storeWithDrawer(t, u);
    const tickets = [await makeTicket(t, u), await makeTicket(t, u), await makeTicket(t, u)];
    const lines: Array<{ ticketId: string; id: string }> = [];
    for (const [i, ticket] of tickets.entries()) {
      for (const productId of [a, b]) {
        lines.push({
          ticketId: ticket.id,
          id: (await addLine(t, u, ticket.id, { kind: "part", productId, quantity: 1 + i })).id,
        });
      }
    }
    // Sales of both products, paid, completed in the middle of the edits.
    const sales: Array<{ id: string; total: string }> = [];
    for (let i = 0; i < 4; i++) {
      const sale = await call(t, u.cashier, "POST", "/v1/transactions", {
        locationId,
        items: [{ productId: a, quantity: 1 }, { productId: b, quantity: 2 }],
      });
      await call(t, u.cashier, "POST", `/v1/transactions/${sale.id}/payments`, {
        method: "card",
        amount: sale.total,
      });
      sales.push(sale);
    }
    const url = (l: { ticketId: string; id: string }) =>
      `/v1/repair-tickets/${l.ticketId}/line-items/${l.id}`;
    const edits = Array.from({ length: 36 }, (_, i) => {
      const line = lines[i % lines.length]!;
      const token = u.tech.token;
      switch (i % 4) {
        case 0: // quantity changes of the same lines
          return api(t.app, "PATCH", url(line), { token, body: { quantity: 1 + (i % 7) } });
        case 1: // product swaps, both ways (two products locked in one statement)
          return api(t.app, "PATCH", url(line), {
            token,
            body: { productId: i % 8 < 4 ? a : b, quantity: 2 },
          });
        case 2: // new lines on the same tickets
          return api(t.app, "POST", `/v1/repair-tickets/${line.ticketId}/line-items`, {
            token,
            body: { kind: "part", productId: i % 3 ? a : b, quantity: 3 },
          });
        default:
          return api(
            t.app,
            "POST",
            `/v1/transactions/${sales[Math.floor(i / 4) % sales.length]!.id}/complete`,
            {
              token: u.cashier.token,
              body: {},
            },
          );
      }
    });
    const results = await Promise.all(edits);
    assert(
      results.every((r) =>
        r.status === 200 || r.status === 201 || r.body?.code === "invalid_transition"
      ),
      results.map((r) => `${r.status} ${r.text}`).join("\n"),
    );
    const onLines = await t.deps.db.selectFrom("repair_line_items")
      .select(["product_id", "quantity"]).where("product_id", "in", products).execute();
    const completed = await t.deps.db.selectFrom("transactions").select("id")
      .where("id", "in", sales.map((s) => s.id)).where("status", "=", "complete").execute();
    assertEquals(completed.length, sales.length);
    for (const [productId, perSale] of [[a, 1], [b, 2]] as const) {
      const used = onLines.filter((l) => l.product_id === productId)
        .reduce((sum, l) => sum + Number(l.quantity), 0);
      const product = await call(t, u.stock, "GET", `/v1/products/${productId}`);
      assertEquals(product.qtyOnHand, 1000 - used - perSale * sales.length);
    }
    // Every line deleted at once: all of it comes back.
    const all = await t.deps.db.selectFrom("repair_line_items").select(["id", "ticket_id"])
      .where("product_id", "in", products).execute();
    const deleted = await Promise.all(
      all.map((l) =>
        api(t.app, "DELETE", url({ ticketId: l.ticket_id, id: l.id }), { token: u.tech.token })
      ),
    );
    assert(deleted.every((r) => r.status === 204));
    for (const [productId, perSale] of [[a, 1], [b, 2]] as const) {
      const product = await call(t, u.stock, "GET", `/v1/products/${productId}`);
      assertEquals(product.qtyOnHand, 1000 - perSale * sales.length);
    }
  },
});
