/** Repair tickets over HTTP: create, read, change, soft delete, lists, filters, search, access. */
import { countingStatements } from "../_helpers/query_count.ts";
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import { listTickets } from "../../app/repairs/tickets_repo.ts";
import { ticketListQuery } from "../../app/repairs/ticket_schemas.ts";
import {
  call,
  makeAccount,
  makeTicket,
  nextN,
  repairsSuite,
  type RepairUsers,
} from "./_fixtures.ts";

let t: TestApp;
let u: RepairUsers;
repairsSuite((s) => ({ t, u } = s));

const ids = (page: { data: { id: string }[] }) => page.data.map((x) => x.id);

Deno.test("a new ticket is `new`, numbered R-nnnnnn in sequence, with zero money figures", async () => {
  const account = await makeAccount(t, u);
  const a = await makeTicket(t, u, { accountId: account.id, itemCount: 2 });
  const b = await makeTicket(t, u, { accountId: account.id });
  assertEquals(a.status, "new");
  assert(/^R-\d{6}$/.test(a.ticketNumber));
  assertEquals(Number(b.ticketNumber.slice(2)), Number(a.ticketNumber.slice(2)) + 1);
  assertEquals([a.itemCount, b.itemCount, a.isBatch, a.batchId], [2, 1, false, null]);
  assertEquals(
    [a.customerTotal, a.internalCost, a.amountPaid, a.balanceDue, a.estimateExceeded],
    ["0.00", "0.00", "0.00", "0.00", false],
  );
  assertEquals(a.createdBy, u.tech.id);
  assertEquals(await call(t, u.viewer, "GET", `/v1/repair-tickets/${a.id}`), a);
});

Deno.test("ticket bodies refuse server fields, unknown fields, bad values, NUL and far dates", async () => {
  const account = await makeAccount(t, u);
  const base = { accountId: account.id, itemDescription: "Flute" };
  for (
    const extra of [
      { status: "intake" },
      { ticketNumber: "R-999999" },
      { customerTotal: "1.00" },
      { isBatch: true },
      { id: crypto.randomUUID() },
      { itemCount: 0 },
      { itemCount: 1.5 },
      { estimate: "-1.00" },
      { estimate: "1.234" },
      { dueDate: "9999-12-31" },
      { dueDate: "2026-02-30" },
      { itemDescription: "" },
      { itemDescription: "x".repeat(501) },
      { itemDescription: "Flute\u0000" },
      { serialNumber: "S".repeat(101) },
    ]
  ) {
    const res = await api(t.app, "POST", "/v1/repair-tickets", {
      token: u.tech.token,
      body: { ...base, ...extra },
    });
    assertEquals(res.status, 400, JSON.stringify(extra));
  }
  const missing = await api(t.app, "POST", "/v1/repair-tickets", {
    token: u.tech.token,
    body: { accountId: account.id },
  });
  assertEquals(missing.status, 400);
});

Deno.test("unknown account, member of another account, location, batch or template → 400 invalid_reference", async () => {
  const account = await makeAccount(t, u);
  const other = await makeAccount(t, u, {
    primaryContact: { firstName: "Other", lastName: "Person" },
  });
  for (
    const extra of [
      { accountId: crypto.randomUUID() },
      { memberId: crypto.randomUUID() },
      { memberId: other.primaryMemberId },
      { locationId: crypto.randomUUID() },
      { batchId: crypto.randomUUID() },
      { serviceTemplateId: crypto.randomUUID() },
    ]
  ) {
    const res = await api(t.app, "POST", "/v1/repair-tickets", {
      token: u.tech.token,
      body: { accountId: account.id, itemDescription: "Horn", ...extra },
    });
    assertEquals(res.status, 400, JSON.stringify(extra));
    assertEquals(res.body.code, "invalid_reference", JSON.stringify(extra));
  }
  const ok = await makeTicket(t, u, { accountId: other.id, memberId: other.primaryMemberId });
  assertEquals(ok.memberId, other.primaryMemberId);
  // Moving the ticket to another account with the old member is refused.
  const moved = await api(t.app, "PATCH", `/v1/repair-tickets/${ok.id}`, {
    token: u.tech.token,
    body: { accountId: account.id },
  });
  assertEquals(moved.status, 400);
  assertEquals(moved.body.code, "invalid_reference");
  const cleared = await call(t, u.tech, "PATCH", `/v1/repair-tickets/${ok.id}`, {
    accountId: account.id,
    memberId: null,
  });
  assertEquals([cleared.accountId, cleared.memberId, cleared.accountName], [
    account.id,
    null,
    account.name,
  ]);
});

Deno.test("PATCH changes the given fields only and never the status; an unknown id → 404", async () => {
  const ticket = await makeTicket(t, u, { estimate: "50.00", serialNumber: "AB-1" });
  const changed = await call(t, u.tech, "PATCH", `/v1/repair-tickets/${ticket.id}`, {
    itemDescription: "Cello bow",
    estimate: 60,
    serialNumber: null,
  });
  assertEquals([changed.itemDescription, changed.estimate, changed.serialNumber, changed.dueDate], [
    "Cello bow",
    "60.00",
    null,
    null,
  ]);
  for (const body of [{ status: "intake" }, { serviceTemplateId: crypto.randomUUID() }]) {
    const res = await api(t.app, "PATCH", `/v1/repair-tickets/${ticket.id}`, {
      token: u.tech.token,
      body,
    });
    assertEquals(res.status, 400, JSON.stringify(body));
  }
  for (const id of [crypto.randomUUID(), "not-a-uuid", "1"]) {
    const res = await api(t.app, "PATCH", `/v1/repair-tickets/${id}`, {
      token: u.tech.token,
      body: { itemCount: 3 },
    });
    assertEquals(res.status, 404, id);
    assertEquals(res.body.code, "not_found");
  }
});

Deno.test("permissions: view reads, edit writes, admin deletes; the check comes before the lookup", async () => {
  const ticket = await makeTicket(t, u);
  const missing = crypto.randomUUID();
  const cases: Array<[string, string, string, unknown, number]> = [
    [u.nobody.token, "GET", "/v1/repair-tickets", undefined, 403],
    [u.nobody.token, "GET", `/v1/repair-tickets/${missing}`, undefined, 403],
    [
      u.viewer.token,
      "POST",
      "/v1/repair-tickets",
      { accountId: missing, itemDescription: "x" },
      403,
    ],
    [u.viewer.token, "PATCH", `/v1/repair-tickets/${ticket.id}`, { itemCount: 2 }, 403],
    [u.tech.token, "DELETE", `/v1/repair-tickets/${ticket.id}`, undefined, 403],
    [u.approver.token, "GET", `/v1/repair-tickets/${ticket.id}`, undefined, 200],
    ["", "GET", `/v1/repair-tickets/${ticket.id}`, undefined, 401],
  ];
  for (const [token, method, path, body, status] of cases) {
    const res = await api(t.app, method, path, { token: token || undefined, body });
    assertEquals(res.status, status, `${method} ${path}`);
  }
});

Deno.test("DELETE is soft: the ticket leaves reads and lists but keeps its row and number", async () => {
  const ticket = await makeTicket(t, u);
  await call(t, u.admin, "DELETE", `/v1/repair-tickets/${ticket.id}`);
  assertEquals(
    (await api(t.app, "GET", `/v1/repair-tickets/${ticket.id}`, { token: u.viewer.token })).status,
    404,
  );
  const again = await api(t.app, "DELETE", `/v1/repair-tickets/${ticket.id}`, {
    token: u.admin.token,
  });
  assertEquals(again.status, 404);
  const list = await call(t, u.viewer, "GET", `/v1/repair-tickets?q=${ticket.ticketNumber}`);
  assertEquals(list.data, []);
  const row = await t.deps.db.selectFrom("repair_tickets").select(["ticket_number", "deleted_at"])
    .where("id", "=", ticket.id).executeTakeFirstOrThrow();
  assertEquals(row.ticket_number, ticket.ticketNumber);
  assert(row.deleted_at !== null);
});

Deno.test("the list filters by status, account, batch and serial number, and searches number, item, serial and account name", async () => {
  const n = nextN();
  const account = await makeAccount(t, u, { name: `Quintessa Orchestra ${n}` });
  const a = await makeTicket(t, u, {
    accountId: account.id,
    itemDescription: `Bassoon zq${n} reed`,
    serialNumber: `SN-Xy-${n}`,
  });
  const b = await makeTicket(t, u, { accountId: account.id, itemDescription: "Oboe" });
  const c = await makeTicket(t, u, { itemDescription: "Clarinet 100%_\\ off" });
  await call(t, u.tech, "POST", `/v1/repair-tickets/${b.id}/status`, { status: "intake" }, 200);
  const get = (query: string) => call(t, u.viewer, "GET", `/v1/repair-tickets?${query}`);

  assertEquals(ids(await get(`accountId=${account.id}&sort=createdAt&order=asc`)), [a.id, b.id]);
  assertEquals(ids(await get(`accountId=${account.id}&status=intake`)), [b.id]);
  assertEquals(ids(await get(`serialNumber=${encodeURIComponent(`  sn-xY-${n} `)}`)), [a.id]);
  assertEquals(ids(await get(`serialNumber=SN-Xy`)), []);
  assertEquals(ids(await get(`q=ZQ${n}`)), [a.id]);
  assertEquals(ids(await get(`q=${encodeURIComponent(`sn-xy-${n}`)}`)), [a.id]);
  assertEquals(ids(await get(`q=${a.ticketNumber.toLowerCase()}`)), [a.id]);
  assertEquals(
    ids(await get(`q=${encodeURIComponent(`quintessa orchestra ${n}`)}&sort=createdAt&order=asc`)),
    [a.id, b.id],
  );
  // %, _ and \ are literal.
  assertEquals(ids(await get(`q=${encodeURIComponent("100%_\\")}`)), [c.id]);
  assertEquals((await get("q=%25%25%25zzzz")).data, []);
  const sorted = await get(`accountId=${account.id}&sort=itemDescription&order=desc`);
  assertEquals(ids(sorted), [b.id, a.id]);
  assertEquals(sorted.pagination, {
    page: 1,
    limit: 25,
    total: 2,
    totalPages: 1,
    totalExact: true,
  });
  const paged = await get(`accountId=${account.id}&limit=1&page=2&sort=createdAt&order=asc`);
  assertEquals([ids(paged), paged.pagination.total, paged.pagination.totalPages], [[b.id], 2, 2]);
  for (
    const bad of [
      "sort=price",
      "order=up",
      "page=0",
      "limit=x",
      "status=broken",
      "batchId=1",
      "q=a%00b",
    ]
  ) {
    const res = await api(t.app, "GET", `/v1/repair-tickets?${bad}`, { token: u.viewer.token });
    assertEquals(res.status, 400, bad);
  }
  const clamped = await get("limit=1000");
  assertEquals(clamped.pagination.limit, 100);
});

Deno.test("list pages: totals of full pages, of the last page and past the end, in order", async () => {
  const account = await makeAccount(t, u);
  for (let i = 0; i < 7; i++) await makeTicket(t, u, { accountId: account.id });
  const get = async (query: string) =>
    (await api(t.app, "GET", `/v1/repair-tickets?accountId=${account.id}&${query}`, {
      token: u.viewer.token,
    })).body;
  const all = await get("sort=ticketNumber&order=desc");
  assertEquals(all.data.length, 7);
  const pages = [];
  for (let page = 1; page <= 4; page++) {
    pages.push(await get(`sort=ticketNumber&order=desc&limit=3&page=${page}`));
  }
  // Full pages (counted), the last one (its total from its offset), one past the end (counted).
  assertEquals(pages.map((p) => p.data.length), [3, 3, 1, 0]);
  assertEquals(pages.map((p) => [p.pagination.total, p.pagination.totalPages]), [
    [7, 3],
    [7, 3],
    [7, 3],
    [7, 3],
  ]);
  assertEquals(pages.flatMap(ids), ids(all));
  assert(pages.every((p) => p.pagination.totalExact));
  // One statement a page; a page past the end counts apart.
  const statements = async (query: Record<string, unknown>) => {
    const counted = countingStatements(t.deps.db);
    await listTickets(counted.db, ticketListQuery.parse({ accountId: account.id, ...query }));
    return counted.count();
  };
  assertEquals(await statements({}), 1);
  assertEquals(await statements({ limit: "3" }), 1);
  assertEquals(await statements({ limit: "3", page: "4" }), 2);
});

Deno.test("the repairs module gates every repair route", async () => {
  const ticket = await makeTicket(t, u);
  await t.deps.db.updateTable("modules").set({ enabled: false }).where("slug", "=", "repairs")
    .execute();
  t.deps.modules.invalidate();
  try {
    for (
      const path of [
        "/v1/repair-tickets",
        `/v1/repair-tickets/${ticket.id}`,
        "/v1/repair-batches",
        "/v1/service-templates",
      ]
    ) {
      const res = await api(t.app, "GET", path, { token: u.viewer.token });
      assertEquals([res.status, res.body.code], [403, "module_disabled"], path);
    }
  } finally {
    await t.deps.db.updateTable("modules").set({ enabled: true }).where("slug", "=", "repairs")
      .execute();
    t.deps.modules.invalidate();
  }
});
