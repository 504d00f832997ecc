/**
 * Point-of-sale contract rules: idempotent adjustments and refunds (API §1.4), manager
 * overrides switched on and off by config (API §4/§8), the `from`/`to`/`locationId`/
 * `registerId` filters, `q` on transactions and drawers, and `sort=createdAt` on drawers.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp } from "../_helpers/test_app.ts";
import {
  createSale,
  makeLocation,
  makeRegister,
  MANAGER_PIN,
  openDrawer,
  payAndComplete,
  posSuite,
  type PosUsers,
  setConfig,
  storeWithDrawer,
} from "./_fixtures.ts";

let t: TestApp;
let u: PosUsers;
// 2026-11-10 17:00 UTC = 12:00 in New York (the seeded store zone); 1 ms per reading.
let now = Date.parse("2026-11-10T17:00:00Z");

posSuite((s) => ({ t, u } = s), { clock: { now: () => new Date(now++) } });

const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((x) => x.id);

/** Moves a row's creation time (tokens would expire if the clock itself jumped days). */
async function backdate(table: "transactions" | "drawer_sessions", id: string, at: string) {
  if (table === "transactions") {
    await t.deps.db.updateTable("transactions").set({ created_at: new Date(at) })
      .where("id", "=", id).execute();
  } else {
    await t.deps.db.updateTable("drawer_sessions").set({ opened_at: new Date(at) })
      .where("id", "=", id).execute();
  }
}

async function completedSale(locationId: string, description = "Strings") {
  const tx = await createSale(t, u.cashier.token, locationId, [
    { description, quantity: 2, unitPrice: "5.00" },
  ]);
  return await payAndComplete(t, u.cashier.token, tx, "cash");
}

// ---------------------------------------------------------------- idempotency

Deno.test("POST /drawers/:id/adjustments replays with the same Idempotency-Key and adjusts once", async () => {
  const { session } = await storeWithDrawer(t, u);
  const path = `/v1/drawers/${session.id}/adjustments`;
  const headers = { "Idempotency-Key": `adj-${session.id}` };
  const body = { direction: "out", amount: "7.50", reason: "Pizza" };
  const first = await api(t.app, "POST", path, { token: u.manager.token, body, headers });
  const second = await api(t.app, "POST", path, { token: u.manager.token, body, headers });
  assertEquals(first.status, 201, first.text);
  assertEquals(second.status, 201);
  assertEquals(second.body, first.body);
  assertEquals(second.headers.get("Idempotent-Replayed"), "true");
  const reused = await api(t.app, "POST", path, {
    token: u.manager.token,
    body: { ...body, amount: "8.00" },
    headers,
  });
  assertEquals(reused.status, 409);
  assertEquals(reused.body.code, "idempotency_key_reused");
  const list = await api(t.app, "GET", path, { token: u.viewer.token });
  assertEquals(list.body.pagination.total, 1);
});

Deno.test("POST /transactions/:id/refunds replays with the same Idempotency-Key and refunds once", async () => {
  const { locationId } = await storeWithDrawer(t, u);
  const sale = await completedSale(locationId);
  const path = `/v1/transactions/${sale.id}/refunds`;
  const headers = { "Idempotency-Key": `refund-${sale.id}` };
  const body = { items: [{ itemId: sale.items[0].id, quantity: 1 }], method: "cash", reason: "x" };
  const first = await api(t.app, "POST", path, { token: u.manager.token, body, headers });
  const second = await api(t.app, "POST", path, { token: u.manager.token, body, headers });
  assertEquals(first.status, 201, first.text);
  assertEquals(second.status, 201);
  assertEquals(second.body.id, first.body.id);
  assertEquals(second.headers.get("Idempotent-Replayed"), "true");
  const original = await api(t.app, "GET", `/v1/transactions/${sale.id}`, {
    token: u.viewer.token,
  });
  assertEquals(original.body.items[0].refundedQuantity, 1);
  const refunds = await t.deps.db.selectFrom("transactions").select("id")
    .where("original_transaction_id", "=", sale.id).execute();
  assertEquals(refunds.length, 1);
});

// ---------------------------------------------------------------- manager overrides

Deno.test("with managerOverride on, refunds, big discounts and cash in/out need an override", async () => {
  const { locationId, session } = await storeWithDrawer(t, u);
  const sale = await completedSale(locationId);
  const refund = await api(t.app, "POST", `/v1/transactions/${sale.id}/refunds`, {
    token: u.cashier.token,
    body: { items: [{ itemId: sale.items[0].id, quantity: 1 }], method: "cash", reason: "x" },
  });
  assertEquals(refund.status, 403);
  assertEquals(refund.body.code, "manager_override_required");
  const pending = await createSale(t, u.cashier.token, locationId, [
    { description: "Amp", quantity: 1, unitPrice: "100.00" },
  ]);
  const discount = await api(t.app, "POST", `/v1/transactions/${pending.id}/discount`, {
    token: u.cashier.token,
    body: { kind: "percent", value: "50" },
  });
  assertEquals(discount.status, 403);
  assertEquals(discount.body.code, "manager_override_required");
  const cash = await api(t.app, "POST", `/v1/drawers/${session.id}/adjustments`, {
    token: u.cashier.token,
    body: { direction: "in", amount: "1.00", reason: "Coins" },
  });
  assertEquals(cash.status, 403);
  assertEquals(cash.body.code, "manager_override_required");
  const approved = await api(t.app, "POST", `/v1/transactions/${sale.id}/refunds`, {
    token: u.cashier.token,
    body: {
      items: [{ itemId: sale.items[0].id, quantity: 1 }],
      method: "cash",
      reason: "x",
      override: { code: `${u.manager.employeeNumber}${MANAGER_PIN}` },
    },
  });
  assertEquals(approved.status, 201, approved.text);
});

Deno.test("with managerOverride off for refund, discount and cashInOut, a cashier acts alone", async () => {
  const { locationId, session } = await storeWithDrawer(t, u);
  const sale = await completedSale(locationId);
  await setConfig(t, { managerOverride: { refund: false, discount: false, cashInOut: false } });
  try {
    const refund = await api(t.app, "POST", `/v1/transactions/${sale.id}/refunds`, {
      token: u.cashier.token,
      body: { items: [{ itemId: sale.items[0].id, quantity: 1 }], method: "cash", reason: "x" },
    });
    assertEquals(refund.status, 201, refund.text);
    const pending = await createSale(t, u.cashier.token, locationId, [
      { description: "Amp", quantity: 1, unitPrice: "100.00" },
    ]);
    const discount = await api(t.app, "POST", `/v1/transactions/${pending.id}/discount`, {
      token: u.cashier.token,
      body: { kind: "percent", value: "50" },
    });
    assertEquals(discount.status, 200, discount.text);
    assertEquals(discount.body.discountTotal, "50.00");
    const cash = await api(t.app, "POST", `/v1/drawers/${session.id}/adjustments`, {
      token: u.cashier.token,
      body: { direction: "in", amount: "1.00", reason: "Coins" },
    });
    assertEquals(cash.status, 201, cash.text);
    // void is still on: switching the others off does not touch it.
    const voided = await api(t.app, "POST", `/v1/transactions/${pending.id}/void`, {
      token: u.cashier.token,
      body: { reason: "x" },
    });
    assertEquals(voided.status, 403);
    assertEquals(voided.body.code, "manager_override_required");
  } finally {
    await setConfig(t, { managerOverride: { refund: true, discount: true, cashInOut: true } });
  }
});

// ---------------------------------------------------------------- filters, q, sort

Deno.test("GET /transactions filters by from/to (store-local days or instants), locationId and registerId", async () => {
  const { locationId, register } = await storeWithDrawer(t, u);
  const other = await storeWithDrawer(t, u);
  const item = [{ description: "Reed", quantity: 1, unitPrice: "3.00" }];
  const late11 = await createSale(t, u.cashier.token, locationId, item, {
    registerId: register.id,
  });
  await backdate("transactions", late11.id, "2026-11-12T04:30:00Z"); // 23:30 on the 11th, NY
  const on12 = await createSale(t, u.cashier.token, locationId, item);
  await backdate("transactions", on12.id, "2026-11-12T15:00:00Z");
  const elsewhere = await createSale(t, u.cashier.token, other.locationId, item, {
    registerId: other.register.id,
  });
  await backdate("transactions", elsewhere.id, "2026-11-12T15:00:01Z");

  const list = (query: string) =>
    api(t.app, "GET", `/v1/transactions?${query}&sort=createdAt&order=asc`, {
      token: u.viewer.token,
    });
  assertEquals(ids(await list(`locationId=${locationId}&from=2026-11-11&to=2026-11-11`)), [
    late11.id,
  ]);
  assertEquals(ids(await list(`locationId=${locationId}&from=2026-11-12`)), [on12.id]);
  assertEquals(ids(await list(`locationId=${locationId}&to=2026-11-12`)).includes(on12.id), true);
  assertEquals(
    ids(await list(`from=${encodeURIComponent("2026-11-12T10:00:00Z")}&to=2026-11-12`)),
    [on12.id, elsewhere.id],
  );
  assertEquals(ids(await list(`registerId=${register.id}`)), [late11.id]);
  assertEquals(ids(await list(`registerId=${other.register.id}`)), [elsewhere.id]);
  assertEquals(ids(await list(`locationId=${other.locationId}`)), [elsewhere.id]);
  const backwards = await list("from=2026-11-13&to=2026-11-11");
  assertEquals(backwards.status, 400);
  const notADate = await list("from=yesterday");
  assertEquals(notADate.status, 400);
});

Deno.test("GET /drawers filters by from/to on openedAt and sorts by createdAt", async () => {
  const locationId = await makeLocation(t);
  const a = await makeRegister(t, u, locationId);
  const b = await makeRegister(t, u, locationId);
  const first = await openDrawer(t, u, a.id);
  await backdate("drawer_sessions", first.id, "2026-11-20T15:00:00Z");
  const second = await openDrawer(t, u, b.id);
  await backdate("drawer_sessions", second.id, "2026-11-21T15:00:00Z");
  const list = (query: string) =>
    api(t.app, "GET", `/v1/drawers?locationId=${locationId}&${query}`, { token: u.viewer.token });
  assertEquals(ids(await list("from=2026-11-21")), [second.id]);
  assertEquals(ids(await list("to=2026-11-20")), [first.id]);
  assertEquals(ids(await list("from=2026-11-20&to=2026-11-21&sort=createdAt&order=asc")), [
    first.id,
    second.id,
  ]);
  assertEquals(ids(await list("sort=createdAt&order=desc")), [second.id, first.id]);
  assertEquals((await list("sort=name")).status, 400);
});

Deno.test("GET /drawers q searches the register name and the session notes", async () => {
  const locationId = await makeLocation(t);
  const marker = crypto.randomUUID().slice(0, 6);
  const named = await api(t.app, "POST", "/v1/registers", {
    token: u.admin.token,
    body: { name: `Front 50% ${marker}`, locationId },
  });
  assertEquals(named.status, 201, named.text);
  const plain = await makeRegister(t, u, locationId);
  const byName = await openDrawer(t, u, named.body.id);
  const byNotes = await openDrawer(t, u, plain.id);
  const closed = await api(t.app, "POST", `/v1/drawers/${byNotes.id}/close`, {
    token: u.cashier.token,
    body: { closingBalance: "100.00", notes: `Counted twice ${marker}` },
  });
  assertEquals(closed.status, 200, closed.text);
  const search = async (q: string) =>
    ids(
      await api(t.app, "GET", `/v1/drawers?q=${encodeURIComponent(q)}`, {
        token: u.viewer.token,
      }),
    );
  assertEquals(await search(`FRONT 50% ${marker}`), [byName.id]);
  assertEquals(await search(`counted twice ${marker}`), [byNotes.id]);
  assertEquals((await search(marker)).sort(), [byName.id, byNotes.id].sort());
  assertEquals(await search(`front 5_% ${marker}`), []);
  // A search sorts its matches as the list does: the open session (no closedAt) last.
  const sorted = async (query: string) =>
    ids(
      await api(t.app, "GET", `/v1/drawers?q=${marker}&${query}`, { token: u.viewer.token }),
    );
  assertEquals(await sorted("sort=closedAt&order=asc"), [byNotes.id, byName.id]);
  assertEquals(await sorted("sort=closedAt&order=desc"), [byNotes.id, byName.id]);
  assertEquals(await sorted("sort=createdAt&order=desc"), [byNotes.id, byName.id]);
  assertEquals(await sorted("sort=createdAt&order=asc"), [byName.id, byNotes.id]);
});

Deno.test("GET /transactions q matches the number, any line's description and the account name", async () => {
  const { locationId } = await storeWithDrawer(t, u);
  const marker = crypto.randomUUID().slice(0, 6);
  const editor = await createUserWithPermissions(t, ["accounts.edit"]);
  const account = await api(t.app, "POST", "/v1/accounts", {
    token: editor.token,
    body: { name: `Conservatory ${marker}` },
  });
  assertEquals(account.status, 201, account.text);
  const byItem = await createSale(t, u.cashier.token, locationId, [
    { description: "Cloth", quantity: 1, unitPrice: "1.00" },
    { description: `Valve oil 10% ${marker}`, quantity: 1, unitPrice: "4.00" },
  ]);
  const byAccount = await createSale(t, u.cashier.token, locationId, [
    { description: "Cloth", quantity: 1, unitPrice: "1.00" },
  ], { accountId: account.body.id });
  const search = async (q: string) =>
    ids(
      await api(t.app, "GET", `/v1/transactions?q=${encodeURIComponent(q)}`, {
        token: u.viewer.token,
      }),
    );
  assertEquals(await search(`VALVE OIL 10% ${marker}`), [byItem.id]);
  assertEquals(await search(`valve oil 1_% ${marker}`), []);
  assertEquals(await search(`conservatory ${marker}`), [byAccount.id]);
  assertEquals((await search(marker)).sort(), [byItem.id, byAccount.id].sort());
  assert((await search(String(byAccount.number))).includes(byAccount.id));
  assertEquals(await search(`#${byItem.number}`), [byItem.id]);
  const combined = await api(
    t.app,
    "GET",
    `/v1/transactions?q=${marker}&accountId=${account.body.id}`,
    { token: u.viewer.token },
  );
  assertEquals(ids(combined), [byAccount.id]);
});
