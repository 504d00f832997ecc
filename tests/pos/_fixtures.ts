// deno-lint-ignore-file no-explicit-any
/** Point-of-sale test fixtures: users, a location with a register, products, quick sales. */
import { assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { suiteOf } from "../_helpers/suite.ts";
import { hashSecret } from "../../app/auth/passwords.ts";

export interface PosUsers {
  viewer: TestUser;
  cashier: TestUser;
  admin: TestUser;
  /** Holds pos.override (and pos.edit); has PIN 4321. */
  manager: TestUser;
  nobody: TestUser;
  inventory: TestUser;
  auditor: TestUser;
}

export const MANAGER_PIN = "4321";

export async function setPin(t: TestApp, userId: string, pin: string): Promise<void> {
  const pinHash = await hashSecret(pin, t.deps.config.bcryptCost);
  await t.deps.db.updateTable("users").set({ pin_hash: pinHash }).where("id", "=", userId)
    .execute();
}

export async function posUsers(t: TestApp): Promise<PosUsers> {
  const manager = await createUserWithPermissions(t, ["pos.edit", "pos.override"]);
  await setPin(t, manager.id, MANAGER_PIN);
  return {
    viewer: await createUserWithPermissions(t, ["pos.view"]),
    cashier: await createUserWithPermissions(t, ["pos.edit"]),
    admin: await createUserWithPermissions(t, ["pos.admin"]),
    manager,
    nobody: await createUserWithPermissions(t, []),
    inventory: await createUserWithPermissions(t, ["inventory.admin"]),
    auditor: await createUserWithPermissions(t, ["settings.admin", "reports.view"]),
  };
}

/** A new user holding the system role Sales Associate (pos.edit, no pos.override). */
export async function salesAssociate(t: TestApp): Promise<TestUser> {
  const user = await createUserWithPermissions(t, []);
  const role = await t.deps.db.selectFrom("roles").select("id")
    .where("slug", "=", "sales-associate").executeTakeFirstOrThrow();
  await t.deps.db.insertInto("user_roles")
    .values({ user_id: user.id, role_id: role.id, created_at: t.deps.clock.now() }).execute();
  return user;
}

/**
 * One app (own database) for the test file with the POS users, ready before the first test:
 * `posSuite((s) => ({ t, u } = s))`.
 */
export const posSuite = suiteOf(posUsers);

let counter = 0;

export async function makeLocation(t: TestApp, name = `Store ${++counter}`): Promise<string> {
  const id = t.deps.ids.uuid();
  const now = t.deps.clock.now();
  await t.deps.db.insertInto("locations").values({ id, name, created_at: now, updated_at: now })
    .execute();
  return id;
}

export async function makeRegister(t: TestApp, u: PosUsers, locationId: string): Promise<any> {
  const res = await api(t.app, "POST", "/v1/registers", {
    token: u.admin.token,
    body: { name: `Register ${++counter}`, locationId },
  });
  assertEquals(res.status, 201, res.text);
  return res.body;
}

export async function openDrawer(
  t: TestApp,
  u: PosUsers,
  registerId: string,
  opening = "100.00",
): Promise<any> {
  const res = await api(t.app, "POST", "/v1/drawers/open", {
    token: u.cashier.token,
    body: { registerId, openingBalance: opening },
  });
  assertEquals(res.status, 201, res.text);
  return res.body;
}

/** A new location with one register whose drawer is open. */
export async function storeWithDrawer(t: TestApp, u: PosUsers) {
  const locationId = await makeLocation(t);
  const register = await makeRegister(t, u, locationId);
  const session = await openDrawer(t, u, register.id);
  return { locationId, register, session };
}

export async function makeProduct(
  t: TestApp,
  u: PosUsers,
  body: Record<string, unknown> = {},
): Promise<any> {
  const res = await api(t.app, "POST", "/v1/products", {
    token: u.inventory.token,
    body: {
      name: `Product ${++counter}`,
      sku: `POS-${counter}-${crypto.randomUUID().slice(0, 8)}`,
      price: "10.00",
      ...body,
    },
  });
  assertEquals(res.status, 201, res.text);
  return res.body;
}

export async function setStock(t: TestApp, productId: string, qty: number): Promise<void> {
  await t.deps.db.updateTable("products").set({ qty_on_hand: qty }).where("id", "=", productId)
    .execute();
}

export async function stockOf(t: TestApp, productId: string): Promise<number> {
  const row = await t.deps.db.selectFrom("products").select("qty_on_hand")
    .where("id", "=", productId).executeTakeFirstOrThrow();
  return row.qty_on_hand;
}

export async function setConfig(t: TestApp, patch: Record<string, unknown>): Promise<void> {
  const admin = await createUserWithPermissions(t, ["settings.admin"]);
  const res = await api(t.app, "PATCH", "/v1/config", { token: admin.token, body: patch });
  assertEquals(res.status, 200, res.text);
}

export async function createSale(
  t: TestApp,
  token: string,
  locationId: string,
  items: Record<string, unknown>[],
  extra: Record<string, unknown> = {},
): Promise<any> {
  const res = await api(t.app, "POST", "/v1/transactions", {
    token,
    body: { locationId, type: "sale", items, ...extra },
  });
  assertEquals(res.status, 201, res.text);
  return res.body;
}

/** Pays the whole balance with `method` and completes; returns the completed transaction. */
export async function payAndComplete(
  t: TestApp,
  token: string,
  tx: any,
  method = "card",
  body: Record<string, unknown> | undefined = undefined,
): Promise<any> {
  if (tx.balanceDue !== "0.00") {
    const paid = await api(t.app, "POST", `/v1/transactions/${tx.id}/payments`, {
      token,
      body: { method, amount: tx.balanceDue },
    });
    assertEquals(paid.status, 201, paid.text);
  }
  const done = await api(t.app, "POST", `/v1/transactions/${tx.id}/complete`, { token, body });
  assertEquals(done.status, 200, done.text);
  return done.body;
}
