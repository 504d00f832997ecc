/** Completing under concurrency and retries, and the completion's bounded query count. */
import { completeCountingQueries } from "../_helpers/query_count.ts";
import { sql } from "kysely";
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import {
  createSale,
  makeProduct,
  posSuite,
  type PosUsers,
  setStock,
  stockOf,
  storeWithDrawer,
} from "./_fixtures.ts";

let t: TestApp;
let u: PosUsers;

posSuite((s) => ({ t, u } = s));

// ---------------------------------------------------------------- concurrency, retries

Deno.test("completing one transaction from several terminals at once succeeds exactly once", async () => {
  const { locationId } = await storeWithDrawer(t, u);
  const product = await makeProduct(t, u);
  await setStock(t, product.id, 5);
  const tx = await createSale(t, u.cashier.token, locationId, [{
    productId: product.id,
    quantity: 1,
  }]);
  await api(t.app, "POST", `/v1/transactions/${tx.id}/payments`, {
    token: u.cashier.token,
    body: { method: "card", amount: tx.total },
  });
  const results = await Promise.all(
    Array.from(
      { length: 5 },
      () => api(t.app, "POST", `/v1/transactions/${tx.id}/complete`, { token: u.cashier.token }),
    ),
  );
  assertEquals(results.map((r) => r.status).sort(), [200, 409, 409, 409, 409]);
  assert(
    results.filter((r) => r.status === 409).every((r) => r.body.code === "invalid_transition"),
  );
  assertEquals(await stockOf(t, product.id), 4);
});

Deno.test("parallel sales of the same products decrement stock exactly once each (no deadlock)", async () => {
  const { locationId } = await storeWithDrawer(t, u);
  const a = await makeProduct(t, u);
  const b = await makeProduct(t, u);
  await setStock(t, a.id, 3); // may go below zero: a sale is never blocked by a wrong count
  await setStock(t, b.id, 100);
  const sales = [];
  for (let i = 0; i < 8; i++) {
    // Lines in both orders, so row-lock order would matter without sorting.
    const items = i % 2 === 0
      ? [{ productId: a.id, quantity: 1 }, { productId: b.id, quantity: 2 }]
      : [{ productId: b.id, quantity: 2 }, { productId: a.id, quantity: 1 }];
    const tx = await createSale(t, u.cashier.token, locationId, items);
    await api(t.app, "POST", `/v1/transactions/${tx.id}/payments`, {
      token: u.cashier.token,
      body: { method: "card", amount: tx.total },
    });
    sales.push(tx);
  }
  const results = await Promise.all(
    sales.map((tx) =>
      api(t.app, "POST", `/v1/transactions/${tx.id}/complete`, { token: u.cashier.token })
    ),
  );
  assert(results.every((r) => r.status === 200), results.map((r) => r.text).join("\n"));
  assertEquals(await stockOf(t, a.id), 3 - 8);
  assertEquals(await stockOf(t, b.id), 100 - 16);
});

Deno.test("payments and completes replay with the same Idempotency-Key and do not act twice", async () => {
  const { locationId } = await storeWithDrawer(t, u);
  const product = await makeProduct(t, u);
  await setStock(t, product.id, 10);
  const createHeaders = { "Idempotency-Key": `create-${crypto.randomUUID()}` };
  const body = { locationId, items: [{ productId: product.id, quantity: 1 }] };
  const created = await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body,
    headers: createHeaders,
  });
  const createdAgain = await api(t.app, "POST", "/v1/transactions", {
    token: u.cashier.token,
    body,
    headers: createHeaders,
  });
  assertEquals(createdAgain.body.id, created.body.id);

  const key = { "Idempotency-Key": `pay-${created.body.id}` };
  const payBody = { method: "card", amount: "10.00" };
  const paths = `/v1/transactions/${created.body.id}`;
  const p1 = await api(t.app, "POST", `${paths}/payments`, {
    token: u.cashier.token,
    body: payBody,
    headers: key,
  });
  const p2 = await api(t.app, "POST", `${paths}/payments`, {
    token: u.cashier.token,
    body: payBody,
    headers: key,
  });
  assertEquals(p1.status, 201);
  assertEquals(p2.status, 201);
  assertEquals(p2.body.payment.id, p1.body.payment.id);
  assertEquals(p2.headers.get("Idempotent-Replayed"), "true");

  const ck = { "Idempotency-Key": `complete-${created.body.id}` };
  const c1 = await api(t.app, "POST", `${paths}/complete`, { token: u.cashier.token, headers: ck });
  const c2 = await api(t.app, "POST", `${paths}/complete`, { token: u.cashier.token, headers: ck });
  assertEquals(c1.status, 200, c1.text);
  assertEquals(c2.status, 200);
  assertEquals(c2.body, c1.body);
  const reused = await api(t.app, "POST", `${paths}/payments`, {
    token: u.cashier.token,
    body: { method: "cash", amount: "1.00" },
    headers: key,
  });
  assertEquals(reused.status, 409);
  assertEquals(reused.body.code, "idempotency_key_reused");

  const got = await api(t.app, "GET", paths, { token: u.viewer.token });
  assertEquals(got.body.payments.length, 1);
  assertEquals(await stockOf(t, product.id), 9);
});

// ---------------------------------------------------------------- performance

async function seedHistory(locationId: string, sessionId: string, count: number): Promise<void> {
  await sql`
    INSERT INTO transactions (id, type, status, location_id, drawer_session_id, subtotal, total,
      amount_paid, completed_at, created_at, updated_at)
    SELECT gen_random_uuid(), 'sale', 'complete', ${locationId}::uuid, ${sessionId}::uuid, 10, 10,
      10, now(), now() - (g || ' seconds')::interval, now()
    FROM generate_series(1, ${count}) AS g`.execute(t.deps.db);
  await sql`
    INSERT INTO transaction_items (id, transaction_id, kind, description, quantity, unit_price,
      tax_category, gross, net, created_at)
    SELECT gen_random_uuid(), t.id, 'sale', 'History line', 1, 10, 'goods', 10, 10, now()
    FROM transactions t WHERE t.drawer_session_id = ${sessionId}::uuid
      AND NOT EXISTS (SELECT 1 FROM transaction_items i WHERE i.transaction_id = t.id)`
    .execute(t.deps.db);
}

async function countedComplete(locationId: string, productIds: string[]): Promise<number> {
  const tx = await createSale(
    t,
    u.cashier.token,
    locationId,
    productIds.map((productId) => ({ productId, quantity: 1 })),
  );
  await api(t.app, "POST", `/v1/transactions/${tx.id}/payments`, {
    token: u.cashier.token,
    body: { method: "card", amount: tx.total },
  });
  return await completeCountingQueries(t, u.cashier, tx.id);
}

Deno.test("completing a 3-line sale takes a bounded number of queries, whatever the history size", async () => {
  const { locationId, session } = await storeWithDrawer(t, u);
  const products = [await makeProduct(t, u), await makeProduct(t, u), await makeProduct(t, u)];
  const ids = products.map((p) => p.id);
  await seedHistory(locationId, session.id, 50);
  const small = await countedComplete(locationId, ids);
  await seedHistory(locationId, session.id, 2_000);
  const large = await countedComplete(locationId, ids);
  assertEquals(large, small);
  // the row lock; lines + payments + open drawer; stock of the 3 products + status in one
  // statement (+ BEGIN/COMMIT)
  assert(small <= 3, `complete took ${small} queries`);
});
