import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import { runSeeds } from "../../app/seed.ts";
import { inventorySuite, type InventoryUsers, makeProduct } from "./_fixtures.ts";

let t: TestApp;
let u: InventoryUsers;

inventorySuite((s) => ({ t, u } = s));

const LOOKUPS = [
  {
    path: "/v1/lookups/unit-statuses",
    builtIns: ["in_stock", "sold", "rented", "in_repair", "reserved", "retired"],
  },
  { path: "/v1/lookups/item-conditions", builtIns: ["new", "excellent", "good", "fair", "poor"] },
];

Deno.test("lookups list the built-in values in order as { data }, unpaginated", async () => {
  for (const { path, builtIns } of LOOKUPS) {
    const res = await api(t.app, "GET", path, { token: u.viewer.token });
    assertEquals(res.status, 200);
    assertEquals(Object.keys(res.body), ["data"]);
    assertEquals(res.body.data.map((r: { value: string }) => r.value), builtIns);
    const first = res.body.data[0];
    assertEquals(Object.keys(first).sort(), ["id", "isBuiltIn", "label", "value"]);
    assertEquals(first.isBuiltIn, true);
  }
});

Deno.test("the lookup seed is idempotent", async () => {
  await runSeeds(t.deps.db);
  await runSeeds(t.deps.db);
  const res = await api(t.app, "GET", "/v1/lookups/unit-statuses", { token: u.viewer.token });
  assertEquals(res.body.data.filter((r: { isBuiltIn: boolean }) => r.isBuiltIn).length, 6);
});

Deno.test("custom lookup values: inventory.admin creates snake_case values, duplicates → 409", async () => {
  for (const { path } of LOOKUPS) {
    const value = `custom_${crypto.randomUUID().slice(0, 4).replace(/[^a-z0-9]/g, "x")}`;
    const editor = await api(t.app, "POST", path, {
      token: u.editor.token,
      body: { value, label: "Custom" },
    });
    assertEquals(editor.status, 403);
    const created = await api(t.app, "POST", path, {
      token: u.admin.token,
      body: { value, label: "Custom" },
    });
    assertEquals(created.status, 201);
    assertEquals(created.body.value, value);
    assertEquals(created.body.isBuiltIn, false);
    const dup = await api(t.app, "POST", path, {
      token: u.admin.token,
      body: { value, label: "Again" },
    });
    assertEquals(dup.status, 409);
    assertEquals(dup.body.code, "duplicate");
    const builtInDup = await api(t.app, "POST", path, {
      token: u.admin.token,
      body: { value: path.includes("statuses") ? "sold" : "good", label: "x" },
    });
    assertEquals(builtInDup.status, 409);
    for (const bad of ["Bad", "has space", "trailing_", "1abc", "double__u", ""]) {
      const res = await api(t.app, "POST", path, {
        token: u.admin.token,
        body: { value: bad, label: "x" },
      });
      assertEquals(res.status, 400, bad);
    }
    const noLabel = await api(t.app, "POST", path, { token: u.admin.token, body: { value } });
    assertEquals(noLabel.status, 400);
    const list = await api(t.app, "GET", path, { token: u.viewer.token });
    assertEquals(list.body.data.at(-1).value, value);
  }
});

Deno.test("parallel creation of the same lookup value: one 201, the rest 409", async () => {
  const results = await Promise.all(
    Array.from({ length: 5 }, () =>
      api(t.app, "POST", "/v1/lookups/item-conditions", {
        token: u.admin.token,
        body: { value: "mint_race", label: "Mint" },
      })),
  );
  assertEquals(results.map((r) => r.status).sort(), [201, 409, 409, 409, 409]);
});

Deno.test("units exist only for serialized and rental products (409 invalid_product_type)", async () => {
  for (const type of ["standard", "repair", "consumable"]) {
    const p = await makeProduct(t, u.editor.token, { type });
    const res = await api(t.app, "POST", `/v1/products/${p.id}/units`, {
      token: u.editor.token,
      body: { serialNumber: "X1" },
    });
    assertEquals(res.status, 409, type);
    assertEquals(res.body.code, "invalid_product_type");
  }
  for (const type of ["serialized", "rental"]) {
    const p = await makeProduct(t, u.editor.token, { type });
    const res = await api(t.app, "POST", `/v1/products/${p.id}/units`, {
      token: u.editor.token,
      body: { serialNumber: "X1" },
    });
    assertEquals(res.status, 201, type);
    assertEquals(res.body.status, "in_stock");
    assertEquals(res.body.condition, "new");
  }
  const none = await api(t.app, "POST", `/v1/products/${crypto.randomUUID()}/units`, {
    token: u.editor.token,
    body: {},
  });
  assertEquals(none.status, 404);
});

Deno.test("units: CRUD with status/condition validated against the lookups", async () => {
  const p = await makeProduct(t, u.editor.token, { type: "serialized" });
  const created = await api(t.app, "POST", `/v1/products/${p.id}/units`, {
    token: u.editor.token,
    body: { serialNumber: "SN-001", status: "reserved", condition: "good", notes: "Case scuffed" },
  });
  assertEquals(created.status, 201);
  const unit = created.body;
  assertEquals(unit.productId, p.id);
  assertEquals(unit.serialNumber, "SN-001");
  assertEquals(unit.notes, "Case scuffed");
  assert(unit.updatedAt);
  const badStatus = await api(t.app, "POST", `/v1/products/${p.id}/units`, {
    token: u.editor.token,
    body: { status: "lost" },
  });
  assertEquals(badStatus.status, 400);
  assertEquals(badStatus.body.code, "invalid_reference");
  assertEquals(badStatus.body.errors[0].path, "status");
  const badCondition = await api(t.app, "PATCH", `/v1/units/${unit.id}`, {
    token: u.editor.token,
    body: { condition: "mint" },
  });
  assertEquals(badCondition.status, 400);
  assertEquals(badCondition.body.code, "invalid_reference");
  const dupSerial = await api(t.app, "POST", `/v1/products/${p.id}/units`, {
    token: u.editor.token,
    body: { serialNumber: "SN-001" },
  });
  assertEquals(dupSerial.status, 409);
  assertEquals(dupSerial.body.code, "duplicate");

  await new Promise((resolve) => setTimeout(resolve, 5));
  const patched = await api(t.app, "PATCH", `/v1/units/${unit.id}`, {
    token: u.editor.token,
    body: { status: "sold", condition: "fair", notes: null },
  });
  assertEquals(patched.status, 200);
  assertEquals(patched.body.status, "sold");
  assertEquals(patched.body.notes, null);
  assert(patched.body.updatedAt > unit.updatedAt);
  const viewerPatch = await api(t.app, "PATCH", `/v1/units/${unit.id}`, {
    token: u.viewer.token,
    body: { notes: "x" },
  });
  assertEquals(viewerPatch.status, 403);
  const strict = await api(t.app, "PATCH", `/v1/units/${unit.id}`, {
    token: u.editor.token,
    body: { productId: crypto.randomUUID() },
  });
  assertEquals(strict.status, 400);

  const second = await api(t.app, "POST", `/v1/products/${p.id}/units`, {
    token: u.editor.token,
    body: { serialNumber: "SN-002" },
  });
  const list = await api(t.app, "GET", `/v1/products/${p.id}/units?sort=serialNumber`, {
    token: u.viewer.token,
  });
  assertEquals(list.body.data.map((x: { serialNumber: string }) => x.serialNumber), [
    "SN-001",
    "SN-002",
  ]);
  const sold = await api(t.app, "GET", `/v1/products/${p.id}/units?status=sold`, {
    token: u.viewer.token,
  });
  assertEquals(sold.body.pagination.total, 1);
  const search = await api(t.app, "GET", `/v1/products/${p.id}/units?q=sn-002`, {
    token: u.viewer.token,
  });
  assertEquals(search.body.data.map((x: { id: string }) => x.id), [second.body.id]);

  assertEquals(
    (await api(t.app, "DELETE", `/v1/units/${unit.id}`, { token: u.editor.token })).status,
    204,
  );
  assertEquals(
    (await api(t.app, "GET", `/v1/units/${unit.id}`, { token: u.viewer.token })).status,
    404,
  );
  // The serial number is free again once the unit is deleted.
  const reuse = await api(t.app, "POST", `/v1/products/${p.id}/units`, {
    token: u.editor.token,
    body: { serialNumber: "SN-001" },
  });
  assertEquals(reuse.status, 201);
});

Deno.test("deleting lookup values: built-ins → 409 built_in, in use → 409 in_use, else 204", async () => {
  const statuses = await api(t.app, "GET", "/v1/lookups/unit-statuses", { token: u.viewer.token });
  const sold = statuses.body.data.find((r: { value: string }) => r.value === "sold");
  const builtIn = await api(t.app, "DELETE", `/v1/lookups/unit-statuses/${sold.id}`, {
    token: u.admin.token,
  });
  assertEquals(builtIn.status, 409);
  assertEquals(builtIn.body.code, "built_in");

  const custom = await api(t.app, "POST", "/v1/lookups/unit-statuses", {
    token: u.admin.token,
    body: { value: "on_loan", label: "On loan" },
  });
  const p = await makeProduct(t, u.editor.token, { type: "rental" });
  const unit = await api(t.app, "POST", `/v1/products/${p.id}/units`, {
    token: u.editor.token,
    body: { status: "on_loan" },
  });
  assertEquals(unit.status, 201);
  assertEquals(
    (await api(t.app, "DELETE", `/v1/lookups/unit-statuses/${custom.body.id}`, {
      token: u.editor.token,
    })).status,
    403,
  );
  const inUse = await api(t.app, "DELETE", `/v1/lookups/unit-statuses/${custom.body.id}`, {
    token: u.admin.token,
  });
  assertEquals(inUse.status, 409);
  assertEquals(inUse.body.code, "in_use");
  await api(t.app, "PATCH", `/v1/units/${unit.body.id}`, {
    token: u.editor.token,
    body: { status: "in_stock" },
  });
  const ok = await api(t.app, "DELETE", `/v1/lookups/unit-statuses/${custom.body.id}`, {
    token: u.admin.token,
  });
  assertEquals(ok.status, 204);
  const again = await api(t.app, "DELETE", `/v1/lookups/unit-statuses/${custom.body.id}`, {
    token: u.admin.token,
  });
  assertEquals(again.status, 404);
  const conditionCustom = await api(t.app, "POST", "/v1/lookups/item-conditions", {
    token: u.admin.token,
    body: { value: "unused_one", label: "Unused" },
  });
  assertEquals(
    (await api(t.app, "DELETE", `/v1/lookups/item-conditions/${conditionCustom.body.id}`, {
      token: u.admin.token,
    })).status,
    204,
  );
});

Deno.test("deleting a lookup value while units are created with it never leaves a dangling value", async () => {
  const p = await makeProduct(t, u.editor.token, { type: "serialized" });
  for (let round = 0; round < 4; round++) {
    const value = `race_${round}_${crypto.randomUUID().slice(0, 4).replace(/[^a-z0-9]/g, "x")}`;
    const custom = await api(t.app, "POST", "/v1/lookups/unit-statuses", {
      token: u.admin.token,
      body: { value, label: "Race" },
    });
    const [del, ...units] = await Promise.all([
      api(t.app, "DELETE", `/v1/lookups/unit-statuses/${custom.body.id}`, {
        token: u.admin.token,
      }),
      ...Array.from({ length: 3 }, () =>
        api(t.app, "POST", `/v1/products/${p.id}/units`, {
          token: u.editor.token,
          body: { status: value },
        })),
    ]);
    const created = units.filter((r) => r.status === 201).length;
    assert(
      units.every((r) => r.status === 201 || r.status === 400),
      units.map((r) => r.text).join(),
    );
    if (del.status === 204) {
      assertEquals(created, 0, "units were created with a deleted status");
    } else {
      assertEquals(del.status, 409);
      assert(created > 0);
    }
  }
});
