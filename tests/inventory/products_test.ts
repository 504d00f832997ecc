import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import {
  inventorySuite,
  type InventoryUsers,
  makeCategory,
  makeProduct,
  makeSupplier,
  sku,
} from "./_fixtures.ts";

let t: TestApp;
let u: InventoryUsers;

inventorySuite((s) => ({ t, u } = s));

Deno.test("POST /products creates a product with the documented defaults and money strings", async () => {
  const res = await api(t.app, "POST", "/v1/products", {
    token: u.editor.token,
    body: { name: "Guitar strings", sku: sku("STR"), price: 12.5 },
  });
  assertEquals(res.status, 201);
  const p = res.body;
  assertEquals(p.price, "12.50");
  assertEquals(p.type, "standard");
  assertEquals(p.isActive, true);
  assertEquals(p.reorderPoint, 0);
  assertEquals(p.qtyOnHand, 0);
  assertEquals(p.isDualUseRepair, false);
  assertEquals(p.isConsumable, false);
  assertEquals(p.taxCategory, "goods");
  assertEquals(p.cost, null);
  assertEquals(p.upc, null);
  assertEquals(p.categoryId, null);
  const got = await api(t.app, "GET", `/v1/products/${p.id}`, { token: u.viewer.token });
  assertEquals(got.status, 200);
  assertEquals(got.body, p);
});

Deno.test("POST /products requires name, sku and price and refuses bad money", async () => {
  for (
    const body of [
      { sku: sku(), price: "1.00" },
      { name: "x", price: "1.00" },
      { name: "x", sku: sku() },
      { name: "x", sku: sku(), price: "1.234" },
      { name: "x", sku: sku(), price: -1 },
      { name: "x", sku: sku(), price: "1.00", type: "gadget" },
    ]
  ) {
    const res = await api(t.app, "POST", "/v1/products", { token: u.editor.token, body });
    assertEquals(res.status, 400, JSON.stringify(body));
    assertEquals(res.body.code, "validation_failed");
  }
});

Deno.test("qtyOnHand, id and other read-only fields cannot be set by a client body (400)", async () => {
  const create = await api(t.app, "POST", "/v1/products", {
    token: u.editor.token,
    body: { name: "x", sku: sku(), price: "1.00", qtyOnHand: 50 },
  });
  assertEquals(create.status, 400);
  assertEquals(create.body.code, "validation_failed");
  const p = await makeProduct(t, u.editor.token);
  for (const body of [{ qtyOnHand: 5 }, { id: crypto.randomUUID() }, { createdAt: "2020-01-01" }]) {
    const res = await api(t.app, "PATCH", `/v1/products/${p.id}`, { token: u.editor.token, body });
    assertEquals(res.status, 400, JSON.stringify(body));
  }
  const after = await api(t.app, "GET", `/v1/products/${p.id}`, { token: u.viewer.token });
  assertEquals(after.body.qtyOnHand, 0);
});

Deno.test("sku is unique among non-deleted products (409 duplicate, case-insensitive) and freed by a delete", async () => {
  const code = sku("DUP");
  const first = await makeProduct(t, u.editor.token, { sku: code });
  const again = await api(t.app, "POST", "/v1/products", {
    token: u.editor.token,
    body: { name: "Other", sku: code.toLowerCase(), price: "1.00" },
  });
  assertEquals(again.status, 409);
  assertEquals(again.body.code, "duplicate");
  const other = await makeProduct(t, u.editor.token);
  const patch = await api(t.app, "PATCH", `/v1/products/${other.id}`, {
    token: u.editor.token,
    body: { sku: code },
  });
  assertEquals(patch.status, 409);
  assertEquals(patch.body.code, "duplicate");

  const del = await api(t.app, "DELETE", `/v1/products/${first.id}`, { token: u.admin.token });
  assertEquals(del.status, 204);
  const gone = await api(t.app, "GET", `/v1/products/${first.id}`, { token: u.viewer.token });
  assertEquals(gone.status, 404);
  const reuse = await makeProduct(t, u.editor.token, { sku: code });
  assertEquals(reuse.sku, code);
  const delAgain = await api(t.app, "DELETE", `/v1/products/${first.id}`, {
    token: u.admin.token,
  });
  assertEquals(delAgain.status, 404);
});

Deno.test("parallel creates with the same sku: exactly one wins, the others get 409", async () => {
  const code = sku("RACE");
  const results = await Promise.all(
    Array.from({ length: 8 }, () =>
      api(t.app, "POST", "/v1/products", {
        token: u.editor.token,
        body: { name: "Race", sku: code, price: "1.00" },
      })),
  );
  assertEquals(results.filter((r) => r.status === 201).length, 1);
  assertEquals(results.filter((r) => r.status === 409).length, 7);
});

Deno.test("type consumable implies isConsumable; an explicit false is refused", async () => {
  const p = await makeProduct(t, u.editor.token, { type: "consumable" });
  assertEquals(p.isConsumable, true);
  const bad = await api(t.app, "POST", "/v1/products", {
    token: u.editor.token,
    body: { name: "x", sku: sku(), price: "1.00", type: "consumable", isConsumable: false },
  });
  assertEquals(bad.status, 400);
  const patchBad = await api(t.app, "PATCH", `/v1/products/${p.id}`, {
    token: u.editor.token,
    body: { isConsumable: false },
  });
  assertEquals(patchBad.status, 400);
  const standard = await makeProduct(t, u.editor.token);
  const toConsumable = await api(t.app, "PATCH", `/v1/products/${standard.id}`, {
    token: u.editor.token,
    body: { type: "consumable" },
  });
  assertEquals(toConsumable.status, 200);
  assertEquals(toConsumable.body.isConsumable, true);
});

Deno.test("PATCH updates fields, isActive is writable and unknown categoryId → 400 invalid_reference", async () => {
  const category = await makeCategory(t, u.editor.token);
  const p = await makeProduct(t, u.editor.token);
  const res = await api(t.app, "PATCH", `/v1/products/${p.id}`, {
    token: u.editor.token,
    body: {
      name: "Renamed",
      upc: "0123456789",
      isActive: false,
      categoryId: category.id,
      cost: "4.10",
      taxCategory: "service",
      reorderPoint: 3,
    },
  });
  assertEquals(res.status, 200);
  assertEquals(res.body.name, "Renamed");
  assertEquals(res.body.isActive, false);
  assertEquals(res.body.categoryId, category.id);
  assertEquals(res.body.cost, "4.10");
  assertEquals(res.body.taxCategory, "service");
  assertEquals(res.body.reorderPoint, 3);
  const clear = await api(t.app, "PATCH", `/v1/products/${p.id}`, {
    token: u.editor.token,
    body: { categoryId: null, upc: null },
  });
  assertEquals(clear.body.categoryId, null);
  assertEquals(clear.body.upc, null);
  const bad = await api(t.app, "PATCH", `/v1/products/${p.id}`, {
    token: u.editor.token,
    body: { categoryId: crypto.randomUUID() },
  });
  assertEquals(bad.status, 400);
  assertEquals(bad.body.code, "invalid_reference");
  const badCreate = await api(t.app, "POST", "/v1/products", {
    token: u.editor.token,
    body: { name: "x", sku: sku(), price: "1.00", categoryId: crypto.randomUUID() },
  });
  assertEquals(badCreate.body.code, "invalid_reference");
});

Deno.test("every price change is recorded in the price history, including the initial price", async () => {
  const p = await makeProduct(t, u.editor.token, { price: "10.00" });
  await api(t.app, "PATCH", `/v1/products/${p.id}`, {
    token: u.editor.token,
    body: { price: "12.00" },
  });
  // Same price (another spelling) and a name-only change add nothing.
  await api(t.app, "PATCH", `/v1/products/${p.id}`, { token: u.editor.token, body: { price: 12 } });
  await api(t.app, "PATCH", `/v1/products/${p.id}`, { token: u.editor.token, body: { name: "N" } });
  await api(t.app, "PATCH", `/v1/products/${p.id}`, {
    token: u.editor.token,
    body: { price: "9.99" },
  });
  const res = await api(t.app, "GET", `/v1/products/${p.id}/price-history`, {
    token: u.viewer.token,
  });
  assertEquals(res.status, 200);
  assertEquals(res.body.pagination.total, 3);
  assertEquals(
    res.body.data.map((h: { price: string; previousPrice: string | null }) => [
      h.price,
      h.previousPrice,
    ]),
    [["9.99", "12.00"], ["12.00", "10.00"], ["10.00", null]],
  );
  assertEquals(res.body.data[0].changedBy, u.editor.id);
  const asc = await api(t.app, "GET", `/v1/products/${p.id}/price-history?order=asc`, {
    token: u.viewer.token,
  });
  assertEquals(asc.body.data[0].price, "10.00");
  const missing = await api(t.app, "GET", `/v1/products/${crypto.randomUUID()}/price-history`, {
    token: u.viewer.token,
  });
  assertEquals(missing.status, 404);
});

Deno.test("a failed update leaves no price history behind (same transaction)", async () => {
  const taken = await makeProduct(t, u.editor.token);
  const p = await makeProduct(t, u.editor.token, { price: "5.00" });
  const res = await api(t.app, "PATCH", `/v1/products/${p.id}`, {
    token: u.editor.token,
    body: { price: "6.00", sku: taken.sku },
  });
  assertEquals(res.status, 409);
  const history = await api(t.app, "GET", `/v1/products/${p.id}/price-history`, {
    token: u.viewer.token,
  });
  assertEquals(history.body.pagination.total, 1);
  const after = await api(t.app, "GET", `/v1/products/${p.id}`, { token: u.viewer.token });
  assertEquals(after.body.price, "5.00");
});

Deno.test("list filters: categoryId, type, lowStock, isActive and pos", async () => {
  const category = await makeCategory(t, u.editor.token);
  const tag = `flt${crypto.randomUUID().slice(0, 6)}`;
  const a = await makeProduct(t, u.editor.token, {
    name: `${tag} a`,
    categoryId: category.id,
    reorderPoint: 2,
  });
  const b = await makeProduct(t, u.editor.token, { name: `${tag} b`, type: "consumable" });
  const c = await makeProduct(t, u.editor.token, { name: `${tag} c`, isActive: false });
  const d = await makeProduct(t, u.editor.token, { name: `${tag} d`, type: "serialized" });
  // d is above its reorder point thanks to a receipt? Serialized products do not count: use a
  // standard product with stock instead.
  const e = await makeProduct(t, u.editor.token, { name: `${tag} e` });
  const supplier = await makeSupplier(t, u.editor.token);
  const receipt = await api(t.app, "POST", "/v1/stock-receipts", {
    token: u.editor.token,
    body: { productId: e.id, supplierId: supplier.id, quantity: 5, costPerUnit: "1.00" },
  });
  assertEquals(receipt.status, 201);

  async function ids(query: string): Promise<string[]> {
    const res = await api(t.app, "GET", `/v1/products?q=${tag}&limit=100&${query}`, {
      token: u.viewer.token,
    });
    assertEquals(res.status, 200, res.text);
    return res.body.data.map((p: { id: string }) => p.id).sort();
  }
  assertEquals(await ids(`categoryId=${category.id}`), [a.id]);
  assertEquals(await ids("type=consumable"), [b.id]);
  assertEquals(await ids("type=serialized"), [d.id]);
  assertEquals(await ids("lowStock=true"), [a.id, b.id, c.id, d.id].sort());
  assertEquals(await ids("lowStock=false"), [e.id]);
  assertEquals(await ids("isActive=false"), [c.id]);
  assertEquals(await ids("isActive=true"), [a.id, b.id, d.id, e.id].sort());
  assertEquals(await ids("pos=true"), [a.id, d.id, e.id].sort());
  const bad = await api(t.app, "GET", "/v1/products?type=gadget", { token: u.viewer.token });
  assertEquals(bad.status, 400);
  const badBool = await api(t.app, "GET", "/v1/products?lowStock=yes", { token: u.viewer.token });
  assertEquals(badBool.status, 400);
  const unknown = await api(t.app, "GET", "/v1/products?color=red", { token: u.viewer.token });
  assertEquals(unknown.status, 400);
});

Deno.test("q searches name, sku and upc case-insensitively and treats % and _ literally", async () => {
  const tag = `qq${crypto.randomUUID().slice(0, 6)}`;
  const byName = await makeProduct(t, u.editor.token, { name: `Fender ${tag.toUpperCase()}` });
  const bySku = await makeProduct(t, u.editor.token, { sku: `${tag}-SKU` });
  const byUpc = await makeProduct(t, u.editor.token, { upc: `UPC${tag}99` });
  const pct = await makeProduct(t, u.editor.token, { name: `${tag} 100% cotton_x` });
  const res = await api(t.app, "GET", `/v1/products?q=${tag}&limit=100`, {
    token: u.viewer.token,
  });
  assertEquals(
    res.body.data.map((p: { id: string }) => p.id).sort(),
    [byName.id, bySku.id, byUpc.id, pct.id].sort(),
  );
  const literal = await api(t.app, "GET", `/v1/products?q=${encodeURIComponent("100%")}`, {
    token: u.viewer.token,
  });
  assert(literal.body.data.some((p: { id: string }) => p.id === pct.id));
  assert(literal.body.data.every((p: { name: string }) => p.name.includes("100%")));
  const underscore = await api(t.app, "GET", `/v1/products?q=${encodeURIComponent(`${tag}_`)}`, {
    token: u.viewer.token,
  });
  assertEquals(underscore.body.pagination.total, 0);
});

Deno.test("sorting by every documented field works and an unknown sort → 400", async () => {
  const tag = `srt${crypto.randomUUID().slice(0, 6)}`;
  await makeProduct(t, u.editor.token, { name: `${tag} b`, price: "3.00", sku: `${tag}-2` });
  await makeProduct(t, u.editor.token, { name: `${tag} a`, price: "20.00", sku: `${tag}-3` });
  await makeProduct(t, u.editor.token, { name: `${tag} c`, price: "1.00", sku: `${tag}-1` });
  async function names(query: string): Promise<string[]> {
    const res = await api(t.app, "GET", `/v1/products?q=${tag}&${query}`, {
      token: u.viewer.token,
    });
    assertEquals(res.status, 200);
    return res.body.data.map((p: { name: string }) => p.name.slice(-1));
  }
  assertEquals(await names("sort=name"), ["a", "b", "c"]);
  assertEquals(await names("sort=name&order=desc"), ["c", "b", "a"]);
  assertEquals(await names("sort=price"), ["c", "b", "a"]);
  assertEquals(await names("sort=sku"), ["c", "b", "a"]);
  const byCreated = await api(t.app, "GET", `/v1/products?q=${tag}&sort=createdAt`, {
    token: u.viewer.token,
  });
  const created = byCreated.body.data.map((p: { createdAt: string }) => p.createdAt);
  assertEquals(created, [...created].sort());
  assertEquals((await names("sort=qtyOnHand")).length, 3);
  const bad = await api(t.app, "GET", "/v1/products?sort=cost", { token: u.viewer.token });
  assertEquals(bad.status, 400);
  const page = await api(t.app, "GET", `/v1/products?q=${tag}&limit=2&page=2&sort=name`, {
    token: u.viewer.token,
  });
  assertEquals(page.body.pagination, {
    page: 2,
    limit: 2,
    total: 3,
    totalPages: 2,
    totalExact: true,
  });
  assertEquals(page.body.data.length, 1);
});

Deno.test("permissions: view reads, edit writes, admin deletes; checked before any lookup", async () => {
  const p = await makeProduct(t, u.editor.token);
  const ghost = crypto.randomUUID();
  assertEquals((await api(t.app, "GET", "/v1/products", { token: u.nobody.token })).status, 403);
  assertEquals(
    (await api(t.app, "GET", `/v1/products/${ghost}`, { token: u.nobody.token })).status,
    403,
  );
  const viewerCreate = await api(t.app, "POST", "/v1/products", {
    token: u.viewer.token,
    body: { name: "x", sku: sku(), price: "1.00" },
  });
  assertEquals(viewerCreate.status, 403);
  assertEquals(
    (await api(t.app, "PATCH", `/v1/products/${ghost}`, { token: u.viewer.token, body: {} }))
      .status,
    403,
  );
  assertEquals(
    (await api(t.app, "DELETE", `/v1/products/${p.id}`, { token: u.editor.token })).status,
    403,
  );
  assertEquals((await api(t.app, "GET", "/v1/products")).status, 401);
});

Deno.test("unknown or malformed product ids → 404", async () => {
  for (const id of [crypto.randomUUID(), "not-a-uuid"]) {
    const res = await api(t.app, "GET", `/v1/products/${id}`, { token: u.viewer.token });
    assertEquals(res.status, 404);
    assertEquals(res.body.code, "not_found");
    const patch = await api(t.app, "PATCH", `/v1/products/${id}`, {
      token: u.editor.token,
      body: { name: "x" },
    });
    assertEquals(patch.status, 404);
  }
});

Deno.test("a disabled inventory module → 403 module_disabled on every inventory path", async () => {
  await t.deps.db.updateTable("modules").set({ enabled: false }).where("slug", "=", "inventory")
    .execute();
  t.deps.modules.invalidate();
  try {
    for (
      const path of [
        "/v1/products",
        "/v1/categories/all",
        "/v1/suppliers",
        "/v1/lookups/unit-statuses",
        "/v1/stock-receipts",
      ]
    ) {
      const res = await api(t.app, "GET", path, { token: u.viewer.token });
      assertEquals(res.status, 403, path);
      assertEquals(res.body.code, "module_disabled");
    }
  } finally {
    await t.deps.db.updateTable("modules").set({ enabled: true }).where("slug", "=", "inventory")
      .execute();
    t.deps.modules.invalidate();
  }
  assertEquals((await api(t.app, "GET", "/v1/products", { token: u.viewer.token })).status, 200);
});
