import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import {
  inventorySuite,
  type InventoryUsers,
  makeCategory,
  makeProduct,
  makeSupplier,
} from "./_fixtures.ts";

let t: TestApp;
let u: InventoryUsers;

inventorySuite((s) => ({ t, u } = s));

// ---------------------------------------------------------------- categories

Deno.test("categories: create, get, update, list, /all, with parentId and sortOrder", async () => {
  const root = await makeCategory(t, u.editor.token, { name: "Instruments", sortOrder: 2 });
  assertEquals(root.parentId, null);
  assertEquals(root.sortOrder, 2);
  const child = await makeCategory(t, u.editor.token, { name: "Guitars", parentId: root.id });
  assertEquals(child.parentId, root.id);
  assertEquals(child.sortOrder, 0);
  const got = await api(t.app, "GET", `/v1/categories/${child.id}`, { token: u.viewer.token });
  assertEquals(got.body, child);
  const renamed = await api(t.app, "PATCH", `/v1/categories/${child.id}`, {
    token: u.editor.token,
    body: { name: "Electric guitars", sortOrder: 5 },
  });
  assertEquals(renamed.status, 200);
  assertEquals(renamed.body.name, "Electric guitars");
  assertEquals(renamed.body.parentId, root.id);
  const children = await api(t.app, "GET", `/v1/categories?parentId=${root.id}`, {
    token: u.viewer.token,
  });
  assertEquals(children.body.data.map((c: { id: string }) => c.id), [child.id]);
  const search = await api(t.app, "GET", "/v1/categories?q=ELECTRIC&sort=name", {
    token: u.viewer.token,
  });
  assertEquals(search.body.pagination.total, 1);
  const all = await api(t.app, "GET", "/v1/categories/all", { token: u.viewer.token });
  assertEquals(all.status, 200);
  assertEquals(Object.keys(all.body), ["data"]);
  assert(all.body.data.some((c: { id: string }) => c.id === child.id));
  const badSort = await api(t.app, "GET", "/v1/categories?sort=parentId", {
    token: u.viewer.token,
  });
  assertEquals(badSort.status, 400);
  const badParent = await api(t.app, "POST", "/v1/categories", {
    token: u.editor.token,
    body: { name: "Orphan", parentId: crypto.randomUUID() },
  });
  assertEquals(badParent.status, 400);
  assertEquals(badParent.body.code, "invalid_reference");
});

Deno.test("categories: a move that would create a cycle → 400", async () => {
  const a = await makeCategory(t, u.editor.token);
  const b = await makeCategory(t, u.editor.token, { parentId: a.id });
  const c = await makeCategory(t, u.editor.token, { parentId: b.id });
  const self = await api(t.app, "PATCH", `/v1/categories/${a.id}`, {
    token: u.editor.token,
    body: { parentId: a.id },
  });
  assertEquals(self.status, 400);
  assertEquals(self.body.errors[0].path, "parentId");
  const loop = await api(t.app, "PATCH", `/v1/categories/${a.id}`, {
    token: u.editor.token,
    body: { parentId: c.id },
  });
  assertEquals(loop.status, 400);
  assertEquals(loop.body.code, "validation_failed");
  const fine = await api(t.app, "PATCH", `/v1/categories/${c.id}`, {
    token: u.editor.token,
    body: { parentId: a.id },
  });
  assertEquals(fine.status, 200);
  const toRoot = await api(t.app, "PATCH", `/v1/categories/${b.id}`, {
    token: u.editor.token,
    body: { parentId: null },
  });
  assertEquals(toRoot.body.parentId, null);
});

Deno.test("categories: concurrent opposite moves never produce a cycle", async () => {
  for (let round = 0; round < 5; round++) {
    const x = await makeCategory(t, u.editor.token);
    const y = await makeCategory(t, u.editor.token);
    const [r1, r2] = await Promise.all([
      api(t.app, "PATCH", `/v1/categories/${x.id}`, {
        token: u.editor.token,
        body: { parentId: y.id },
      }),
      api(t.app, "PATCH", `/v1/categories/${y.id}`, {
        token: u.editor.token,
        body: { parentId: x.id },
      }),
    ]);
    assertEquals([r1.status, r2.status].sort(), [200, 400]);
    const gx = await api(t.app, "GET", `/v1/categories/${x.id}`, { token: u.viewer.token });
    const gy = await api(t.app, "GET", `/v1/categories/${y.id}`, { token: u.viewer.token });
    assert(!(gx.body.parentId === y.id && gy.body.parentId === x.id), "cycle created");
  }
});

Deno.test("categories: delete is soft, needs inventory.admin, refused while in use", async () => {
  const parent = await makeCategory(t, u.editor.token);
  const child = await makeCategory(t, u.editor.token, { parentId: parent.id });
  const product = await makeProduct(t, u.editor.token, { categoryId: child.id });
  assertEquals(
    (await api(t.app, "DELETE", `/v1/categories/${child.id}`, { token: u.editor.token })).status,
    403,
  );
  const withChild = await api(t.app, "DELETE", `/v1/categories/${parent.id}`, {
    token: u.admin.token,
  });
  assertEquals(withChild.status, 409);
  assertEquals(withChild.body.code, "in_use");
  const withProduct = await api(t.app, "DELETE", `/v1/categories/${child.id}`, {
    token: u.admin.token,
  });
  assertEquals(withProduct.status, 409);
  await api(t.app, "PATCH", `/v1/products/${product.id}`, {
    token: u.editor.token,
    body: { categoryId: null },
  });
  assertEquals(
    (await api(t.app, "DELETE", `/v1/categories/${child.id}`, { token: u.admin.token })).status,
    204,
  );
  assertEquals(
    (await api(t.app, "GET", `/v1/categories/${child.id}`, { token: u.viewer.token })).status,
    404,
  );
  const all = await api(t.app, "GET", "/v1/categories/all", { token: u.viewer.token });
  assert(!all.body.data.some((c: { id: string }) => c.id === child.id));
  const row = await t.deps.db.selectFrom("categories").select("deleted_at")
    .where("id", "=", child.id).executeTakeFirst();
  assert(row?.deleted_at, "the row is kept");
  const reuse = await api(t.app, "POST", "/v1/products", {
    token: u.editor.token,
    body: { name: "x", sku: `S-${crypto.randomUUID()}`, price: "1.00", categoryId: child.id },
  });
  assertEquals(reuse.body.code, "invalid_reference");
  assertEquals(
    (await api(t.app, "DELETE", `/v1/categories/${parent.id}`, { token: u.admin.token })).status,
    204,
  );
});

// ---------------------------------------------------------------- suppliers

Deno.test("suppliers: CRUD, /all, search, soft delete; name required", async () => {
  const created = await api(t.app, "POST", "/v1/suppliers", {
    token: u.editor.token,
    body: {
      name: "Acme Music Supply",
      contactName: "Ann Smith",
      email: "orders@acme.test",
      phone: "555-0100",
      address: { line1: "1 Main St", city: "Springfield", state: "IL", postalCode: "62701" },
      accountNumber: "ACME-42",
      paymentTerms: "Net 30",
    },
  });
  assertEquals(created.status, 201);
  const s = created.body;
  assertEquals(s.contactName, "Ann Smith");
  assertEquals(s.address.city, "Springfield");
  const missingName = await api(t.app, "POST", "/v1/suppliers", {
    token: u.editor.token,
    body: { contactName: "x" },
  });
  assertEquals(missingName.status, 400);
  const badEmail = await api(t.app, "POST", "/v1/suppliers", {
    token: u.editor.token,
    body: { name: "x", email: "nope" },
  });
  assertEquals(badEmail.status, 400);
  const patched = await api(t.app, "PATCH", `/v1/suppliers/${s.id}`, {
    token: u.editor.token,
    body: { paymentTerms: "Net 60", phone: null },
  });
  assertEquals(patched.body.paymentTerms, "Net 60");
  assertEquals(patched.body.phone, null);
  assertEquals(patched.body.name, "Acme Music Supply");
  for (const q of ["acme music", "ann smi", "ORDERS@", "acme-42"]) {
    const res = await api(t.app, "GET", `/v1/suppliers?q=${encodeURIComponent(q)}`, {
      token: u.viewer.token,
    });
    assertEquals(res.body.data.map((x: { id: string }) => x.id), [s.id], q);
  }
  const all = await api(t.app, "GET", "/v1/suppliers/all", { token: u.viewer.token });
  assert(all.body.data.some((x: { id: string }) => x.id === s.id));
  assertEquals(
    (await api(t.app, "DELETE", `/v1/suppliers/${s.id}`, { token: u.editor.token })).status,
    403,
  );
  assertEquals(
    (await api(t.app, "DELETE", `/v1/suppliers/${s.id}`, { token: u.admin.token })).status,
    204,
  );
  assertEquals(
    (await api(t.app, "GET", `/v1/suppliers/${s.id}`, { token: u.viewer.token })).status,
    404,
  );
  const list = await api(t.app, "GET", "/v1/suppliers?q=acme", { token: u.viewer.token });
  assertEquals(list.body.pagination.total, 0);
});

// ---------------------------------------------------------------- product–supplier links

Deno.test("product suppliers: link, embed supplier details, duplicate → 409, patch, delete", async () => {
  const product = await makeProduct(t, u.editor.token);
  const s1 = await makeSupplier(t, u.editor.token, { contactName: "Bob", email: "b@s1.test" });
  const s2 = await makeSupplier(t, u.editor.token);
  const link = await api(t.app, "POST", `/v1/products/${product.id}/suppliers`, {
    token: u.editor.token,
    body: { supplierId: s1.id, supplierSku: "S1-9", cost: 4.5, isPreferred: true },
  });
  assertEquals(link.status, 201);
  assertEquals(link.body.cost, "4.50");
  assertEquals(link.body.isPreferred, true);
  assertEquals(link.body.supplier.id, s1.id);
  assertEquals(link.body.supplier.name, s1.name);
  assertEquals(link.body.supplier.contactName, "Bob");
  const dup = await api(t.app, "POST", `/v1/products/${product.id}/suppliers`, {
    token: u.editor.token,
    body: { supplierId: s1.id, isPreferred: false },
  });
  assertEquals(dup.status, 409);
  assertEquals(dup.body.code, "duplicate");
  const unknown = await api(t.app, "POST", `/v1/products/${product.id}/suppliers`, {
    token: u.editor.token,
    body: { supplierId: crypto.randomUUID(), isPreferred: false },
  });
  assertEquals(unknown.status, 400);
  assertEquals(unknown.body.code, "invalid_reference");
  const noProduct = await api(t.app, "POST", `/v1/products/${crypto.randomUUID()}/suppliers`, {
    token: u.editor.token,
    body: { supplierId: s1.id, isPreferred: false },
  });
  assertEquals(noProduct.status, 404);
  const viewerLink = await api(t.app, "POST", `/v1/products/${product.id}/suppliers`, {
    token: u.viewer.token,
    body: { supplierId: s2.id, isPreferred: false },
  });
  assertEquals(viewerLink.status, 403);

  const second = await api(t.app, "POST", `/v1/products/${product.id}/suppliers`, {
    token: u.editor.token,
    body: { supplierId: s2.id, isPreferred: true },
  });
  assertEquals(second.status, 201);
  const list = await api(t.app, "GET", `/v1/products/${product.id}/suppliers`, {
    token: u.viewer.token,
  });
  assertEquals(list.body.pagination.total, 2);
  const preferred = list.body.data.filter((l: { isPreferred: boolean }) => l.isPreferred);
  assertEquals(preferred.map((l: { supplierId: string }) => l.supplierId), [s2.id]);
  assert(list.body.data.every((l: { supplier: { name: string } }) => l.supplier.name));

  const patched = await api(t.app, "PATCH", `/v1/product-suppliers/${link.body.id}`, {
    token: u.editor.token,
    body: { isPreferred: true, cost: null, supplierSku: "NEW" },
  });
  assertEquals(patched.status, 200);
  assertEquals(patched.body.isPreferred, true);
  assertEquals(patched.body.cost, null);
  assertEquals(patched.body.supplierSku, "NEW");
  const otherNow = await api(t.app, "GET", `/v1/product-suppliers/${second.body.id}`, {
    token: u.viewer.token,
  });
  assertEquals(otherNow.body.isPreferred, false);
  const noSwap = await api(t.app, "PATCH", `/v1/product-suppliers/${link.body.id}`, {
    token: u.editor.token,
    body: { supplierId: s2.id },
  });
  assertEquals(noSwap.status, 400);

  assertEquals(
    (await api(t.app, "DELETE", `/v1/product-suppliers/${link.body.id}`, {
      token: u.editor.token,
    })).status,
    204,
  );
  assertEquals(
    (await api(t.app, "DELETE", `/v1/product-suppliers/${link.body.id}`, {
      token: u.editor.token,
    })).status,
    404,
  );
  // Deleting a supplier removes its links.
  await api(t.app, "DELETE", `/v1/suppliers/${s2.id}`, { token: u.admin.token });
  const empty = await api(t.app, "GET", `/v1/products/${product.id}/suppliers`, {
    token: u.viewer.token,
  });
  assertEquals(empty.body.pagination.total, 0);
});

Deno.test("product suppliers: parallel 'preferred' requests leave exactly one preferred link", async () => {
  const product = await makeProduct(t, u.editor.token);
  const suppliers = await Promise.all(
    Array.from({ length: 6 }, () => makeSupplier(t, u.editor.token)),
  );
  const created = await Promise.all(
    suppliers.map((s) =>
      api(t.app, "POST", `/v1/products/${product.id}/suppliers`, {
        token: u.editor.token,
        body: { supplierId: s.id, isPreferred: true },
      })
    ),
  );
  assert(created.every((r) => r.status === 201), created.map((r) => r.text).join("\n"));
  async function preferredCount(): Promise<number> {
    const list = await api(t.app, "GET", `/v1/products/${product.id}/suppliers?limit=100`, {
      token: u.viewer.token,
    });
    assertEquals(list.body.pagination.total, 6);
    return list.body.data.filter((l: { isPreferred: boolean }) => l.isPreferred).length;
  }
  assertEquals(await preferredCount(), 1);
  const patched = await Promise.all(
    created.map((r) =>
      api(t.app, "PATCH", `/v1/product-suppliers/${r.body.id}`, {
        token: u.editor.token,
        body: { isPreferred: true },
      })
    ),
  );
  assert(patched.every((r) => r.status === 200), patched.map((r) => r.text).join("\n"));
  assertEquals(await preferredCount(), 1);
});
