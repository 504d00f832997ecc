/**
 * Rentals over HTTP (API §13): create takes an in-stock unit of the product (unit rented,
 * rentalNumber L-…), return with a condition (in stock or in repair), cancel, the moves that
 * are refused, soft delete, lists with filters and `q`, permissions.
 */
import { assert, assertEquals, assertMatch } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp } from "../_helpers/test_app.ts";
import { PDF, uploadAs } from "../files/_fixtures.ts";
import {
  call,
  makeFamily,
  makeInstrument,
  makeRental,
  rentalsSuite,
  type RentalUsers,
  today,
} from "./_fixtures.ts";

let t: TestApp;
let u: RentalUsers;
rentalsSuite((s) => ({ t, u } = s));

async function unitStatus(unitId: string): Promise<{ status: string; condition: string }> {
  return await call(t, u.stock, "GET", `/v1/units/${unitId}`);
}

Deno.test("a rental takes an in-stock unit of the product: active, L-number, unit rented", async () => {
  const { account, member } = await makeFamily(t, u);
  const { product, units } = await makeInstrument(t, u);
  const rental = await call(t, u.desk, "POST", "/v1/rentals", {
    accountId: account.id,
    memberId: member.id,
    productId: product.id,
    unitId: units[0].id,
    startDate: await today(t),
    dueDate: await today(t, 270),
    billingInterval: "monthly",
    rate: 39.5,
    deposit: "50.00",
    rentToOwn: { purchasePrice: "600.00", equityPercent: "50.00" },
  });
  assertMatch(rental.rentalNumber, /^L-\d{6}$/);
  assertEquals(rental.status, "active");
  assertEquals(rental.rate, "39.50");
  assertEquals(rental.rentToOwn, { purchasePrice: "600.00", equityPercent: "50.00" });
  assertEquals([rental.balanceDue, rental.equity, rental.payoffAmount], ["0.00", "0.00", "600.00"]);
  assertEquals(rental.accountName, account.name);
  assertEquals(rental.serialNumber, units[0].serialNumber);
  assertEquals(rental.isOverdue, false);
  assertEquals((await unitStatus(units[0].id)).status, "rented");
  assertEquals(await call(t, u.viewer, "GET", `/v1/rentals/${rental.id}`), rental);

  // The unit is taken: a second rental of it is refused and changes nothing.
  const again = await api(t.app, "POST", "/v1/rentals", {
    token: u.desk.token,
    body: {
      accountId: account.id,
      productId: product.id,
      unitId: units[0].id,
      startDate: await today(t),
      billingInterval: "weekly",
      rate: "10.00",
    },
  });
  assertEquals(again.status, 409);
  assertEquals(again.body.code, "unit_unavailable");
  // Named for people: the serial number and the product's name, not their ids.
  assertEquals(
    again.body.detail,
    `Unit ${units[0].serialNumber} is not an in-stock unit of ${product.name} (status rented)`,
  );
});

Deno.test("creating refuses units of another product, unknown references and bad bodies", async () => {
  const { account, member } = await makeFamily(t, u);
  const a = await makeInstrument(t, u);
  const b = await makeInstrument(t, u);
  const base = {
    accountId: account.id,
    productId: a.product.id,
    unitId: a.units[0].id,
    startDate: await today(t),
    billingInterval: "monthly",
    rate: "40.00",
  };
  const post = (body: unknown) => api(t.app, "POST", "/v1/rentals", { token: u.desk.token, body });
  const otherProducts = await post({ ...base, unitId: b.units[0].id });
  assertEquals(otherProducts.body.code, "unit_unavailable");
  assertEquals(
    otherProducts.body.detail,
    `Unit ${b.units[0].serialNumber} is not an in-stock unit of ${a.product.name}`,
  );
  assertEquals(
    (await post({ ...base, accountId: crypto.randomUUID() })).body.code,
    "invalid_reference",
  );
  assertEquals(
    (await post({ ...base, productId: crypto.randomUUID() })).body.code,
    "invalid_reference",
  );
  const other = await makeFamily(t, u);
  assertEquals((await post({ ...base, memberId: other.member.id })).body.code, "invalid_reference");
  for (
    const bad of [
      { ...base, rate: "0.00" },
      { ...base, rate: "-5.00" },
      { ...base, billingInterval: "daily" },
      { ...base, status: "returned" },
      { ...base, dueDate: "2000-01-01" },
      { ...base, rentToOwn: { purchasePrice: "600.00", equityPercent: "150.00" } },
      { ...base, startDate: "9999-12-31" },
    ]
  ) {
    const res = await post(bad);
    assertEquals(res.status, 400, JSON.stringify(bad));
  }
  // Nothing was taken by the refused attempts.
  assertEquals((await unitStatus(a.units[0].id)).status, "in_stock");
  assertEquals(
    (await call(t, u.desk, "POST", "/v1/rentals", { ...base, memberId: member.id })).status,
    "active",
  );
});

Deno.test("return puts the unit back with its condition (or in repair); cancel; other moves 409", async () => {
  const back = await makeRental(t, u);
  const returned = await call(t, u.desk, "POST", `/v1/rentals/${back.id}/return`, {
    condition: "good",
    notes: "Valve oil needed",
  }, 200);
  assertEquals(returned.status, "returned");
  assertEquals(returned.returnCondition, "good");
  assert(returned.returnedAt);
  assertEquals(await unitStatus(back.unitId).then((x) => [x.status, x.condition]), [
    "in_stock",
    "good",
  ]);

  const toRepair = await makeRental(t, u);
  await call(t, u.desk, "POST", `/v1/rentals/${toRepair.id}/return`, {
    condition: "poor",
    toRepair: true,
  }, 200);
  assertEquals((await unitStatus(toRepair.unitId)).status, "in_repair");

  const badCondition = await makeRental(t, u);
  const res = await api(t.app, "POST", `/v1/rentals/${badCondition.id}/return`, {
    token: u.desk.token,
    body: { condition: "sparkling" },
  });
  assertEquals(res.status, 400);
  assertEquals((await call(t, u.viewer, "GET", `/v1/rentals/${badCondition.id}`)).status, "active");

  const cancelled = await call(
    t,
    u.desk,
    "POST",
    `/v1/rentals/${badCondition.id}/cancel`,
    undefined,
    200,
  );
  assertEquals(cancelled.status, "cancelled");
  assertEquals((await unitStatus(badCondition.unitId)).status, "in_stock");

  for (
    const [id, move] of [[back.id, "return"], [back.id, "cancel"], [badCondition.id, "cancel"]]
  ) {
    const r = await api(t.app, "POST", `/v1/rentals/${id}/${move}`, {
      token: u.desk.token,
      body: move === "return" ? { condition: "good" } : undefined,
    });
    assertEquals([r.status, r.body.code], [409, "invalid_transition"]);
  }
  // The returned unit can be rented again.
  const again = await makeRental(t, u, { productId: back.productId, unitId: back.unitId });
  assertEquals(again.status, "active");
});

Deno.test("delete is soft, rentals.admin only, and refused while the rental holds its unit", async () => {
  const rental = await makeRental(t, u);
  assertEquals(
    (await api(t.app, "DELETE", `/v1/rentals/${rental.id}`, { token: u.desk.token })).status,
    403,
  );
  const active = await api(t.app, "DELETE", `/v1/rentals/${rental.id}`, { token: u.admin.token });
  assertEquals([active.status, active.body.code], [409, "invalid_transition"]);
  await call(t, u.desk, "POST", `/v1/rentals/${rental.id}/cancel`, undefined, 200);
  await call(t, u.admin, "DELETE", `/v1/rentals/${rental.id}`);
  assertEquals(
    (await api(t.app, "GET", `/v1/rentals/${rental.id}`, { token: u.viewer.token })).status,
    404,
  );
  const row = await t.deps.db.selectFrom("rentals").select("deleted_at").where("id", "=", rental.id)
    .executeTakeFirstOrThrow();
  assert(row.deleted_at);
  const audit = await t.deps.db.selectFrom("audit_log").select("action")
    .where("entity_id", "=", rental.id).orderBy("at").execute();
  assertEquals(audit.map((a) => a.action), [
    "rental.created",
    "rental.cancelled",
    "rental.deleted",
  ]);
});

Deno.test("lists filter by status, account, member, product, overdue and search names and serials", async () => {
  const family = await makeFamily(t, u, `Zebediah Quartermaine ${crypto.randomUUID().slice(0, 4)}`);
  const late = await makeRental(t, u, {
    accountId: family.account.id,
    memberId: family.member.id,
    ...(await (async () => {
      const i = await makeInstrument(t, u, 1, `QSERIAL${crypto.randomUUID().slice(0, 5)}`);
      return { productId: i.product.id, unitId: i.units[0].id };
    })()),
    startDate: await today(t, -40),
    dueDate: await today(t, -1),
  });
  const onTime = await makeRental(t, u, {
    accountId: family.account.id,
    ...(await (async () => {
      const i = await makeInstrument(t, u);
      return { productId: i.product.id, unitId: i.units[0].id };
    })()),
    dueDate: await today(t, 30),
  });
  assertEquals(late.isOverdue, true);
  const list = (q: string) => call(t, u.viewer, "GET", `/v1/rentals?${q}`);
  const ids = async (q: string) => (await list(q)).data.map((r: { id: string }) => r.id).sort();

  assertEquals(await ids(`accountId=${family.account.id}`), [late.id, onTime.id].sort());
  assertEquals(await ids(`memberId=${family.member.id}`), [late.id]);
  assertEquals(await ids(`productId=${onTime.productId}`), [onTime.id]);
  assert((await ids("overdue=true")).includes(late.id));
  assert(!(await ids("overdue=true")).includes(onTime.id));
  assertEquals(await ids(`accountId=${family.account.id}&status=returned`), []);
  assertEquals(await ids(`q=${encodeURIComponent("quartermaine")}`), [late.id, onTime.id].sort());
  assertEquals(await ids(`q=${encodeURIComponent(late.serialNumber.toLowerCase())}`), [late.id]);
  assertEquals(await ids(`q=${encodeURIComponent(family.member.lastName)}`), [late.id]);
  const page = await list(`accountId=${family.account.id}&limit=1&sort=rentalNumber&order=asc`);
  assertEquals(page.pagination, { page: 1, limit: 1, total: 2, totalPages: 2, totalExact: true });
  assertEquals(page.data[0].id, late.id);
  for (const bad of ["sort=rate", "overdue=yes", "status=lost", "page=0"]) {
    assertEquals(
      (await api(t.app, "GET", `/v1/rentals?${bad}`, { token: u.viewer.token })).status,
      400,
      bad,
    );
  }
});

Deno.test("permissions: rentals.view reads, rentals.edit writes", async () => {
  const rental = await makeRental(t, u);
  assertEquals((await api(t.app, "GET", "/v1/rentals", { token: u.nobody.token })).status, 403);
  assertEquals(
    (await api(t.app, "POST", `/v1/rentals/${rental.id}/cancel`, { token: u.viewer.token })).status,
    403,
  );
  const patched = await call(t, u.desk, "PATCH", `/v1/rentals/${rental.id}`, {
    rate: "45.00",
    notes: "Second-year student",
  });
  assertEquals([patched.rate, patched.notes], ["45.00", "Second-year student"]);
  const bad = await api(t.app, "PATCH", `/v1/rentals/${rental.id}`, {
    token: u.desk.token,
    body: { status: "returned" },
  });
  assertEquals(bad.status, 400);
});

Deno.test("the signed agreement attaches to the rental as a rental_agreement file", async () => {
  const rental = await makeRental(t, u);
  const uploader = await createUserWithPermissions(t, ["files.upload"]);
  const agreement = await uploadAs(t, uploader.token, PDF, {
    entityType: "rental_agreement",
    entityId: rental.id,
    category: "agreement",
  }, { name: "agreement.pdf" });
  assertEquals(agreement.status, 201, agreement.text);
  const listed = await call(
    t,
    uploader,
    "GET",
    `/v1/files?entityType=rental_agreement&entityId=${rental.id}`,
  );
  assertEquals(listed.data.map((f: { id: string }) => f.id), [agreement.body.id]);
  const stray = await uploadAs(t, uploader.token, PDF, {
    entityType: "rental_agreement",
    entityId: crypto.randomUUID(),
  });
  assertEquals(stray.status >= 400 && stray.status < 500, true, stray.text);
});
