/**
 * The POS invariants across three server processes on one PostgreSQL: a sale completes once
 * however many terminals complete it through whichever process, a register has one open drawer,
 * and stock is conserved under parallel receipts and sales spread over the processes.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import {
  createSale,
  makeLocation,
  makeProduct,
  makeRegister,
  type PosUsers,
  posUsers,
  setStock,
  stockOf,
  storeWithDrawer,
} from "../pos/_fixtures.ts";
import { type Cluster, PROCESSES, testServerUrl, withCluster } from "./_cluster.ts";

let c: Cluster;
let t: TestApp;
let u: PosUsers;

withCluster(async (cluster) => {
  c = cluster;
  t = cluster.t;
  u = await posUsers(t);
});

const ignore = !testServerUrl();

/** Process `i % PROCESSES`: parallel calls numbered 0, 1, 2… go to every process in turn. */
function on(i: number) {
  return c.node(i % PROCESSES);
}

Deno.test({
  name: "completing one sale through every process at once succeeds exactly once",
  ignore,
  async fn() {
    const { locationId } = await storeWithDrawer(t, u);
    const product = await makeProduct(t, u);
    await setStock(t, product.id, 5);
    for (let round = 0; round < 3; round++) {
      const tx = await createSale(t, u.cashier.token, locationId, [{
        productId: product.id,
        quantity: 1,
      }]);
      const paid = await api(t.app, "POST", `/v1/transactions/${tx.id}/payments`, {
        token: u.cashier.token,
        body: { method: "card", amount: tx.total },
      });
      assertEquals(paid.status, 201, paid.text);
      const results = await Promise.all(
        Array.from(
          { length: 9 },
          (_, i) =>
            api(on(i), "POST", `/v1/transactions/${tx.id}/complete`, { token: u.cashier.token }),
        ),
      );
      assertEquals(
        results.map((r) => r.status).sort(),
        [200, 409, 409, 409, 409, 409, 409, 409, 409],
        results.map((r) => r.text).join("\n"),
      );
      assert(
        results.filter((r) => r.status === 409).every((r) => r.body.code === "invalid_transition"),
      );
    }
    assertEquals(await stockOf(t, product.id), 5 - 3);
  },
});

Deno.test({
  name: "opening one register's drawer through every process at once opens exactly one",
  ignore,
  async fn() {
    for (let round = 0; round < 3; round++) {
      const register = await makeRegister(t, u, await makeLocation(t));
      const results = await Promise.all(
        Array.from({ length: 9 }, (_, i) =>
          api(on(i), "POST", "/v1/drawers/open", {
            token: u.cashier.token,
            body: { registerId: register.id, openingBalance: "50.00" },
          })),
      );
      const statuses = results.map((r) => r.status).sort();
      assertEquals(statuses, [201, 409, 409, 409, 409, 409, 409, 409, 409]);
      assert(
        results.filter((r) => r.status === 409).every((r) => r.body.code === "drawer_already_open"),
      );
      const open = await t.deps.db.selectFrom("drawer_sessions").select("id")
        .where("register_id", "=", register.id).where("status", "=", "open").execute();
      assertEquals(open.length, 1);
    }
  },
});

Deno.test({
  name: "parallel receipts and sales through every process conserve stock",
  ignore,
  async fn() {
    const { locationId } = await storeWithDrawer(t, u);
    const a = await makeProduct(t, u);
    const b = await makeProduct(t, u);
    await setStock(t, a.id, 10);
    await setStock(t, b.id, 50);
    const supplier = await api(t.app, "POST", "/v1/suppliers", {
      token: u.inventory.token,
      body: { name: `Cluster supplier ${crypto.randomUUID().slice(0, 8)}` },
    });
    assertEquals(supplier.status, 201, supplier.text);
    // 12 paid sales, lines in both orders (row-lock order would matter without sorting).
    const sales = [];
    for (let i = 0; i < 12; i++) {
      const items = i % 2 === 0
        ? [{ productId: a.id, quantity: 1 }, { productId: b.id, quantity: 2 }]
        : [{ productId: b.id, quantity: 2 }, { productId: a.id, quantity: 1 }];
      const tx = await createSale(t, u.cashier.token, locationId, items);
      const paid = await api(t.app, "POST", `/v1/transactions/${tx.id}/payments`, {
        token: u.cashier.token,
        body: { method: "card", amount: tx.total },
      });
      assertEquals(paid.status, 201, paid.text);
      sales.push(tx);
    }
    const receipts = Array.from({ length: 12 }, (_, i) => ({
      productId: i % 2 === 0 ? a.id : b.id,
      supplierId: supplier.body.id,
      quantity: i + 1,
      costPerUnit: "1.00",
    }));
    const results = await Promise.all([
      ...sales.map((tx, i) =>
        api(on(i), "POST", `/v1/transactions/${tx.id}/complete`, { token: u.cashier.token })
      ),
      ...receipts.map((body, i) =>
        api(on(i + 1), "POST", "/v1/stock-receipts", { token: u.inventory.token, body })
      ),
    ]);
    assert(
      results.every((r) => r.status === 200 || r.status === 201),
      results.map((r) => `${r.status} ${r.text}`).join("\n"),
    );
    const received = (productId: string) =>
      receipts.filter((r) => r.productId === productId).reduce((sum, r) => sum + r.quantity, 0);
    assertEquals(await stockOf(t, a.id), 10 + received(a.id) - 12);
    assertEquals(await stockOf(t, b.id), 50 + received(b.id) - 24);
  },
});
