import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import { withTransaction } from "../../app/db/transaction.ts";
import { adjustStock, moveRepairPartStock, setUnitStatus } from "../../app/inventory/stock.ts";
import { InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import { inventorySuite, type InventoryUsers, makeProduct, makeSupplier } from "./_fixtures.ts";

let t: TestApp;
let u: InventoryUsers;

inventorySuite((s) => ({ t, u } = s));

async function qty(productId: string): Promise<number> {
  const res = await api(t.app, "GET", `/v1/products/${productId}`, { token: u.viewer.token });
  return res.body.qtyOnHand;
}

// ---------------------------------------------------------------- receipts

Deno.test("POST /stock-receipts records the receipt and increments qtyOnHand", async () => {
  const product = await makeProduct(t, u.editor.token);
  const supplier = await makeSupplier(t, u.editor.token);
  const res = await api(t.app, "POST", "/v1/stock-receipts", {
    token: u.editor.token,
    body: {
      productId: product.id,
      supplierId: supplier.id,
      quantity: 12,
      costPerUnit: 2.25,
      invoiceNumber: "INV-7",
      receivedAt: "2026-11-20T10:00:00Z",
    },
  });
  assertEquals(res.status, 201);
  assertEquals(res.body.quantity, 12);
  assertEquals(res.body.costPerUnit, "2.25");
  assertEquals(res.body.totalCost, "27.00");
  assertEquals(res.body.invoiceNumber, "INV-7");
  assertEquals(res.body.receivedAt, "2026-11-20T10:00:00.000Z");
  assertEquals(res.body.stockIncremented, true);
  assertEquals(res.body.product.qtyOnHand, 12);
  assertEquals(res.body.supplier.name, supplier.name);
  assertEquals(res.body.createdBy, u.editor.id);
  assertEquals(await qty(product.id), 12);
  const got = await api(t.app, "GET", `/v1/stock-receipts/${res.body.id}`, {
    token: u.viewer.token,
  });
  assertEquals(got.body.id, res.body.id);
});

Deno.test("receipts for serialized products are recorded without touching qtyOnHand", async () => {
  const product = await makeProduct(t, u.editor.token, { type: "serialized" });
  const supplier = await makeSupplier(t, u.editor.token);
  const res = await api(t.app, "POST", "/v1/stock-receipts", {
    token: u.editor.token,
    body: { productId: product.id, supplierId: supplier.id, quantity: 3, costPerUnit: "100.00" },
  });
  assertEquals(res.status, 201);
  assertEquals(res.body.stockIncremented, false);
  assertEquals(await qty(product.id), 0);
});

Deno.test("receipt refusals: bad quantity/cost → 400, unknown product or supplier → 400 invalid_reference, viewer → 403", async () => {
  const product = await makeProduct(t, u.editor.token);
  const supplier = await makeSupplier(t, u.editor.token);
  const base = { productId: product.id, supplierId: supplier.id, quantity: 1, costPerUnit: "1.00" };
  for (
    const body of [
      { ...base, quantity: 0 },
      { ...base, quantity: 1.5 },
      { ...base, costPerUnit: "1.001" },
      { ...base, receivedAt: "yesterday" },
      { ...base, extra: true },
    ]
  ) {
    const res = await api(t.app, "POST", "/v1/stock-receipts", { token: u.editor.token, body });
    assertEquals(res.status, 400, JSON.stringify(body));
    assertEquals(res.body.code, "validation_failed");
  }
  const noProduct = await api(t.app, "POST", "/v1/stock-receipts", {
    token: u.editor.token,
    body: { ...base, productId: crypto.randomUUID() },
  });
  assertEquals(noProduct.status, 400);
  assertEquals(noProduct.body.code, "invalid_reference");
  assertEquals(noProduct.body.errors[0].path, "productId");
  const noSupplier = await api(t.app, "POST", "/v1/stock-receipts", {
    token: u.editor.token,
    body: { ...base, supplierId: crypto.randomUUID() },
  });
  assertEquals(noSupplier.body.code, "invalid_reference");
  const viewer = await api(t.app, "POST", "/v1/stock-receipts", {
    token: u.viewer.token,
    body: base,
  });
  assertEquals(viewer.status, 403);
  assertEquals(await qty(product.id), 0);
});

Deno.test("20 parallel receipts for one product never lose an increment", async () => {
  const product = await makeProduct(t, u.editor.token);
  const supplier = await makeSupplier(t, u.editor.token);
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      api(t.app, "POST", "/v1/stock-receipts", {
        token: u.editor.token,
        body: {
          productId: product.id,
          supplierId: supplier.id,
          quantity: i + 1,
          costPerUnit: "1.00",
        },
      })),
  );
  assert(results.every((r) => r.status === 201), results.map((r) => r.text).join("\n"));
  assertEquals(await qty(product.id), 210);
  const list = await api(t.app, "GET", `/v1/stock-receipts?productId=${product.id}&limit=100`, {
    token: u.viewer.token,
  });
  assertEquals(list.body.pagination.total, 20);
});

Deno.test("a retried receipt with the same Idempotency-Key is applied once", async () => {
  const product = await makeProduct(t, u.editor.token);
  const supplier = await makeSupplier(t, u.editor.token);
  const body = { productId: product.id, supplierId: supplier.id, quantity: 4, costPerUnit: "1.00" };
  const key = crypto.randomUUID();
  const first = await api(t.app, "POST", "/v1/stock-receipts", {
    token: u.editor.token,
    body,
    headers: { "Idempotency-Key": key },
  });
  const retry = await api(t.app, "POST", "/v1/stock-receipts", {
    token: u.editor.token,
    body,
    headers: { "Idempotency-Key": key },
  });
  assertEquals(first.status, 201);
  assertEquals(retry.status, 201);
  assertEquals(retry.body.id, first.body.id);
  assertEquals(await qty(product.id), 4);
  const reused = await api(t.app, "POST", "/v1/stock-receipts", {
    token: u.editor.token,
    body: { ...body, quantity: 5 },
    headers: { "Idempotency-Key": key },
  });
  assertEquals(reused.status, 409);
  assertEquals(reused.body.code, "idempotency_key_reused");
});

Deno.test("GET /stock-receipts filters by productId and supplierId, newest first", async () => {
  const product = await makeProduct(t, u.editor.token);
  const s1 = await makeSupplier(t, u.editor.token);
  const s2 = await makeSupplier(t, u.editor.token);
  for (
    const [supplierId, receivedAt] of [
      [s1.id, "2026-01-01T00:00:00Z"],
      [s2.id, "2026-03-01T00:00:00Z"],
      [s1.id, "2026-02-01T00:00:00Z"],
    ]
  ) {
    const res = await api(t.app, "POST", "/v1/stock-receipts", {
      token: u.editor.token,
      body: { productId: product.id, supplierId, quantity: 1, costPerUnit: "1.00", receivedAt },
    });
    assertEquals(res.status, 201);
  }
  const all = await api(t.app, "GET", `/v1/stock-receipts?productId=${product.id}`, {
    token: u.viewer.token,
  });
  assertEquals(all.body.data.map((r: { receivedAt: string }) => r.receivedAt.slice(0, 7)), [
    "2026-03",
    "2026-02",
    "2026-01",
  ]);
  const bySupplier = await api(
    t.app,
    "GET",
    `/v1/stock-receipts?productId=${product.id}&supplierId=${s1.id}&order=asc`,
    { token: u.viewer.token },
  );
  assertEquals(bySupplier.body.pagination.total, 2);
  assertEquals(bySupplier.body.data[0].receivedAt.slice(0, 7), "2026-01");
  const bad = await api(t.app, "GET", "/v1/stock-receipts?productId=nope", {
    token: u.viewer.token,
  });
  assertEquals(bad.status, 400);
});

Deno.test("the OpenAPI document marks POST /stock-receipts idempotent", async () => {
  const res = await api(t.app, "GET", "/v1/openapi.json");
  const op = res.body.paths["/v1/stock-receipts"].post;
  assert(JSON.stringify(op).includes("Idempotency-Key"));
  assert(res.body.paths["/v1/products/{id}/price-history"]);
});

// ---------------------------------------------------------------- stock.ts for POS

Deno.test("adjustStock() increments and decrements atomically and may go below zero", async () => {
  const product = await makeProduct(t, u.editor.token);
  await Promise.all(
    Array.from(
      { length: 10 },
      () =>
        withTransaction(t.deps.db, (trx) => adjustStock(trx, product.id, -1, t.deps.clock.now())),
    ),
  );
  assertEquals(await qty(product.id), -10);
  const after = await withTransaction(
    t.deps.db,
    (trx) => adjustStock(trx, product.id, 15, t.deps.clock.now()),
  );
  assertEquals(after, 5);
  let error: unknown;
  try {
    await withTransaction(
      t.deps.db,
      (trx) => adjustStock(trx, crypto.randomUUID(), 1, t.deps.clock.now()),
    );
  } catch (e) {
    error = e;
  }
  assert(error instanceof NotFoundError);
});

Deno.test("moveRepairPartStock() moves counted products (deleted ones too), never unit-carrying ones", async () => {
  const standard = await makeProduct(t, u.editor.token);
  const consumable = await makeProduct(t, u.editor.token, { type: "consumable" });
  const serialized = await makeProduct(t, u.editor.token, { type: "serialized" });
  const rental = await makeProduct(t, u.editor.token, { type: "rental" });
  const gone = await makeProduct(t, u.editor.token);
  const removed = await api(t.app, "DELETE", `/v1/products/${gone.id}`, { token: u.admin.token });
  assertEquals(removed.status, 204);
  const cause = { repairTicketId: crypto.randomUUID(), actorId: null };
  await withTransaction(t.deps.db, (trx) =>
    moveRepairPartStock(trx, cause, [
      { productId: standard.id, delta: -3 },
      { productId: consumable.id, delta: -2 },
      { productId: serialized.id, delta: -1 },
      { productId: rental.id, delta: 4 },
      { productId: gone.id, delta: 5 },
      { productId: standard.id, delta: 0 },
    ], t.deps.clock.now()));
  assertEquals(
    await Promise.all([standard, consumable, serialized, rental].map((p) => qty(p.id))),
    [-3, -2, 0, 0],
  );
  const deleted = await t.deps.db.selectFrom("products").select("qty_on_hand")
    .where("id", "=", gone.id).executeTakeFirstOrThrow();
  assertEquals(Number(deleted.qty_on_hand), 5);
});

Deno.test("setUnitStatus() sets a known status and refuses an unknown one", async () => {
  const product = await makeProduct(t, u.editor.token, { type: "serialized" });
  const unit = await api(t.app, "POST", `/v1/products/${product.id}/units`, {
    token: u.editor.token,
    body: { serialNumber: "POS-1" },
  });
  const updated = await withTransaction(
    t.deps.db,
    (trx) => setUnitStatus(trx, unit.body.id, "sold", t.deps.clock.now()),
  );
  assertEquals(updated.status, "sold");
  let error: unknown;
  try {
    await withTransaction(
      t.deps.db,
      (trx) => setUnitStatus(trx, unit.body.id, "vanished", t.deps.clock.now()),
    );
  } catch (e) {
    error = e;
  }
  assert(error instanceof InvalidReferenceError);
});
