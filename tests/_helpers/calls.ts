// deno-lint-ignore-file no-explicit-any
/**
 * Calls the feature tests share: `call()` (an API call that asserts its status), and the
 * register a feature's payments go through (a location with an open drawer; pay a
 * transaction's whole balance and complete it).
 */
import { assertEquals } from "./assert.ts";
import { api, type ApiResponse, type TestApp, type TestUser } from "./test_app.ts";

/** `api()` that asserts the status (201 for POST, 204 for DELETE, else 200) and returns the body. */
export async function call(
  t: TestApp,
  user: TestUser,
  method: string,
  path: string,
  body?: unknown,
  expected = method === "POST" ? 201 : method === "DELETE" ? 204 : 200,
  headers?: Record<string, string>,
): Promise<any> {
  const res: ApiResponse = await api(t.app, method, path, { token: user.token, body, headers });
  assertEquals(res.status, expected, `${method} ${path}: ${res.text}`);
  return res.body;
}

/** A new location with one register whose drawer is open (`cashier`: pos.edit and pos.admin). */
export async function storeWithOpenDrawer(t: TestApp, cashier: TestUser, label: string) {
  const now = t.deps.clock.now();
  const locationId = t.deps.ids.uuid();
  const n = crypto.randomUUID().slice(0, 8);
  await t.deps.db.insertInto("locations")
    .values({ id: locationId, name: `${label} store ${n}`, created_at: now, updated_at: now })
    .execute();
  const register = await call(t, cashier, "POST", "/v1/registers", {
    name: `${label} register ${n}`,
    locationId,
  });
  await call(t, cashier, "POST", "/v1/drawers/open", {
    registerId: register.id,
    openingBalance: "100.00",
  });
  return { locationId, registerId: register.id as string };
}

/** Pays the transaction's whole balance by card and completes it (status as expected). */
export async function payAndCompleteAs(
  t: TestApp,
  cashier: TestUser,
  tx: any,
  expected = 200,
): Promise<any> {
  if (tx.balanceDue !== "0.00") {
    await call(t, cashier, "POST", `/v1/transactions/${tx.id}/payments`, {
      method: "card",
      amount: tx.balanceDue,
    });
  }
  return await call(t, cashier, "POST", `/v1/transactions/${tx.id}/complete`, {}, expected);
}
