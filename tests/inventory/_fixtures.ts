/** Inventory test fixtures: users with the three inventory levels, and quick creators. */
import { assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { suiteOf } from "../_helpers/suite.ts";

export interface InventoryUsers {
  viewer: TestUser;
  editor: TestUser;
  admin: TestUser;
  nobody: TestUser;
}

export async function inventoryUsers(t: TestApp): Promise<InventoryUsers> {
  return {
    viewer: await createUserWithPermissions(t, ["inventory.view"]),
    editor: await createUserWithPermissions(t, ["inventory.edit"]),
    admin: await createUserWithPermissions(t, ["inventory.admin"]),
    nobody: await createUserWithPermissions(t, []),
  };
}

/**
 * One app (own database) for the test file with the inventory users, ready before the first
 * test: `inventorySuite((s) => ({ t, u } = s))`.
 */
export const inventorySuite = suiteOf(inventoryUsers);

/** API bodies are read loosely in tests; each assertion states the shape it expects. */
// deno-lint-ignore no-explicit-any
type Record_ = Record<string, any>;

let counter = 0;

/** A unique SKU per call (tests share one database per file). */
export function sku(prefix = "SKU"): string {
  return `${prefix}-${++counter}-${crypto.randomUUID().slice(0, 6)}`;
}

/** POSTs `body` to `path` and returns the created record (asserting 201). */
async function created(t: TestApp, token: string, path: string, body: unknown): Promise<Record_> {
  const res = await api(t.app, "POST", path, { token, body });
  assertEquals(res.status, 201, res.text);
  return res.body;
}

export function makeProduct(
  t: TestApp,
  token: string,
  body: Record<string, unknown> = {},
): Promise<Record_> {
  return created(t, token, "/v1/products", { name: "Widget", sku: sku(), price: "10.00", ...body });
}

export function makeSupplier(
  t: TestApp,
  token: string,
  body: Record<string, unknown> = {},
): Promise<Record_> {
  return created(t, token, "/v1/suppliers", { name: `Supplier ${++counter}`, ...body });
}

export function makeCategory(
  t: TestApp,
  token: string,
  body: Record<string, unknown> = {},
): Promise<Record_> {
  return created(t, token, "/v1/categories", { name: `Category ${++counter}`, ...body });
}
