/** Repair batches (approval workflow, tickets joining only drafts) and service templates. */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import {
  call,
  getTicket,
  makeAccount,
  makeProduct,
  makeTicket,
  nextN,
  repairsSuite,
  type RepairUsers,
} from "./_fixtures.ts";

let t: TestApp;
let u: RepairUsers;
repairsSuite((s) => ({ t, u } = s));

async function makeBatch(body: Record<string, unknown> = {}) {
  const account = await makeAccount(t, u, { name: `Lincoln High Band ${nextN()}` });
  return await call(t, u.tech, "POST", "/v1/repair-batches", {
    name: "Fall instrument check",
    accountId: account.id,
    notes: "32 instruments",
    ...body,
  });
}

Deno.test("a batch goes draft → submitted → approved, each step answering the batch; other moves → 409", async () => {
  const batch = await makeBatch();
  assertEquals([batch.status, batch.ticketCount, batch.submittedAt], ["draft", 0, null]);
  const base = `/v1/repair-batches/${batch.id}`;
  for (const action of ["approve", "reject"]) {
    const early = await api(t.app, "POST", `${base}/${action}`, {
      token: u.approver.token,
      body: action === "reject" ? { reason: "No" } : {},
    });
    assertEquals([early.status, early.body.code], [409, "invalid_transition"], action);
  }
  const submitted = await call(t, u.tech, "POST", `${base}/submit`, undefined, 200);
  assertEquals([submitted.status, submitted.submittedBy], ["submitted", u.tech.id]);
  assertEquals(
    (await call(t, u.tech, "POST", `${base}/submit`, undefined, 409)).code,
    "invalid_transition",
  );
  // repairs.edit does not imply repairs.approve.
  assertEquals((await api(t.app, "POST", `${base}/approve`, { token: u.tech.token })).status, 403);
  const approved = await call(t, u.approver, "POST", `${base}/approve`, { note: "Go ahead" }, 200);
  assertEquals([
    approved.status,
    approved.decidedBy,
    approved.approvalNote,
    approved.rejectionReason,
  ], [
    "approved",
    u.approver.id,
    "Go ahead",
    null,
  ]);
  const late = await call(t, u.approver, "POST", `${base}/reject`, { reason: "Too late" }, 409);
  assertEquals(late.code, "invalid_transition");
  const audit = await call(
    t,
    u.settings,
    "GET",
    `/v1/audit-log?action=repair_batch.approved&entityId=${batch.id}`,
  );
  assertEquals(audit.data.length, 1);
});

Deno.test("rejecting needs a reason; the reason is kept", async () => {
  const batch = await makeBatch();
  const base = `/v1/repair-batches/${batch.id}`;
  await call(t, u.tech, "POST", `${base}/submit`, undefined, 200);
  for (const body of [undefined, {}, { reason: "" }, { reason: "  " }]) {
    const res = await api(t.app, "POST", `${base}/reject`, { token: u.approver.token, body });
    assertEquals(res.status, 400, JSON.stringify(body));
  }
  const rejected = await call(t, u.approver, "POST", `${base}/reject`, {
    reason: "Budget not approved",
  }, 200);
  assertEquals([rejected.status, rejected.rejectionReason, rejected.approvalNote], [
    "rejected",
    "Budget not approved",
    null,
  ]);
});

Deno.test("tickets join and leave a batch only while it is a draft; isBatch follows batchId", async () => {
  const batch = await makeBatch();
  const ticket = await makeTicket(t, u, { batchId: batch.id });
  assertEquals([ticket.isBatch, ticket.batchId], [true, batch.id]);
  const loose = await makeTicket(t, u);
  const joined = await call(t, u.tech, "PATCH", `/v1/repair-tickets/${loose.id}`, {
    batchId: batch.id,
  });
  assertEquals(joined.isBatch, true);
  assertEquals((await call(t, u.viewer, "GET", `/v1/repair-batches/${batch.id}`)).ticketCount, 2);
  const listed = await call(
    t,
    u.viewer,
    "GET",
    `/v1/repair-tickets?batchId=${batch.id}&sort=createdAt&order=asc`,
  );
  assertEquals(listed.data.map((x: { id: string }) => x.id), [ticket.id, loose.id]);
  await call(t, u.tech, "POST", `/v1/repair-batches/${batch.id}/submit`, undefined, 200);
  const late = await makeTicket(t, u);
  const join = await api(t.app, "PATCH", `/v1/repair-tickets/${late.id}`, {
    token: u.tech.token,
    body: { batchId: batch.id },
  });
  assertEquals([join.status, join.body.code], [409, "invalid_transition"]);
  const create = await api(t.app, "POST", "/v1/repair-tickets", {
    token: u.tech.token,
    body: { accountId: late.accountId, itemDescription: "Snare", batchId: batch.id },
  });
  assertEquals([create.status, create.body.code], [409, "invalid_transition"]);
  const leave = await api(t.app, "PATCH", `/v1/repair-tickets/${ticket.id}`, {
    token: u.tech.token,
    body: { batchId: null },
  });
  assertEquals([leave.status, leave.body.code], [409, "invalid_transition"]);
  // Other fields of a ticket in a submitted batch still change.
  const renamed = await call(t, u.tech, "PATCH", `/v1/repair-tickets/${ticket.id}`, {
    itemDescription: "Trombone",
    batchId: batch.id,
  });
  assertEquals([renamed.itemDescription, renamed.batchId], ["Trombone", batch.id]);
  // A draft batch gives its tickets up.
  const draft = await makeBatch();
  const moved = await makeTicket(t, u, { batchId: draft.id });
  const left = await call(t, u.tech, "PATCH", `/v1/repair-tickets/${moved.id}`, { batchId: null });
  assertEquals([left.isBatch, left.batchId], [false, null]);
});

Deno.test("batch CRUD: bodies, references, list filters, soft delete refused while tickets are in it", async () => {
  const batch = await makeBatch();
  for (
    const body of [{ name: "x" }, { name: "", accountId: batch.accountId }, {
      name: "x",
      accountId: batch.accountId,
      status: "approved",
    }]
  ) {
    assertEquals(
      (await api(t.app, "POST", "/v1/repair-batches", { token: u.tech.token, body })).status,
      400,
    );
  }
  const unknown = await api(t.app, "POST", "/v1/repair-batches", {
    token: u.tech.token,
    body: { name: "x", accountId: crypto.randomUUID() },
  });
  assertEquals([unknown.status, unknown.body.code], [400, "invalid_reference"]);
  const renamed = await call(t, u.tech, "PATCH", `/v1/repair-batches/${batch.id}`, {
    name: "Spring check",
    notes: null,
  });
  assertEquals([renamed.name, renamed.notes], ["Spring check", null]);
  const filtered = await call(
    t,
    u.viewer,
    "GET",
    `/v1/repair-batches?accountId=${batch.accountId}&status=draft`,
  );
  assertEquals(filtered.data.map((b: { id: string }) => b.id), [batch.id]);
  const searched = await call(
    t,
    u.viewer,
    "GET",
    `/v1/repair-batches?q=${encodeURIComponent(renamed.accountName)}`,
  );
  assertEquals(searched.data.map((b: { id: string }) => b.id), [batch.id]);
  const ticket = await makeTicket(t, u, { batchId: batch.id });
  assertEquals(
    (await api(t.app, "DELETE", `/v1/repair-batches/${batch.id}`, { token: u.tech.token })).status,
    403,
  );
  const busy = await api(t.app, "DELETE", `/v1/repair-batches/${batch.id}`, {
    token: u.admin.token,
  });
  assertEquals([busy.status, busy.body.code], [409, "in_use"]);
  await call(t, u.tech, "PATCH", `/v1/repair-tickets/${ticket.id}`, { batchId: null });
  await call(t, u.admin, "DELETE", `/v1/repair-batches/${batch.id}`);
  assertEquals(
    (await api(t.app, "GET", `/v1/repair-batches/${batch.id}`, { token: u.viewer.token })).status,
    404,
  );
});

Deno.test("service templates: CRUD, soft delete, itemCategory filter, default lines copied onto a new ticket", async () => {
  const strings = await makeProduct(t, u, { name: "Cello string A", price: "18.00" });
  const rosin = await makeProduct(t, u, { name: "Shop rosin", price: "0.75", type: "consumable" });
  const category = `Strings ${nextN()}`;
  const template = await call(t, u.tech, "POST", "/v1/service-templates", {
    name: "Cello setup",
    description: "Full setup",
    itemCategory: category,
    estimatedMinutes: 90,
    defaultLineItems: [
      { kind: "labor", description: "Setup", quantity: 1, unitPrice: "60.00" },
      { kind: "part", productId: strings.id, quantity: 2 },
      { kind: "part", productId: rosin.id, quantity: 1 },
    ],
  });
  assertEquals(template.defaultLineItems.length, 3);
  assertEquals(template.estimatedMinutes, 90);
  const filtered = await call(
    t,
    u.viewer,
    "GET",
    `/v1/service-templates?itemCategory=${encodeURIComponent(category.toUpperCase())}`,
  );
  assertEquals(filtered.data.map((x: { id: string }) => x.id), [template.id]);

  const ticket = await makeTicket(t, u, {
    serviceTemplateId: template.id,
    itemDescription: "Cello",
  });
  assertEquals(ticket.serviceTemplateId, template.id);
  assertEquals([ticket.customerTotal, ticket.internalCost], ["96.00", "0.75"]);
  const lines = await call(t, u.viewer, "GET", `/v1/repair-tickets/${ticket.id}/line-items`);
  assertEquals(
    lines.data.map((
      l: { description: string; isInternal: boolean },
    ) => [l.description, l.isInternal]),
    [["Setup", false], ["Cello string A", false], ["Shop rosin", true]],
  );

  for (
    const body of [
      { name: "x", itemCategory: "y", defaultLineItems: [{ kind: "labor", quantity: 1 }] },
      {
        name: "x",
        itemCategory: "y",
        defaultLineItems: [{ kind: "part", quantity: 1, productId: crypto.randomUUID() }],
      },
      { name: "x" },
      { name: "x", itemCategory: "y", estimatedMinutes: 0 },
    ]
  ) {
    const res = await api(t.app, "POST", "/v1/service-templates", { token: u.tech.token, body });
    assertEquals(res.status, 400, JSON.stringify(body));
  }
  const changed = await call(t, u.tech, "PATCH", `/v1/service-templates/${template.id}`, {
    defaultLineItems: [],
    estimatedMinutes: null,
  });
  assertEquals([changed.defaultLineItems, changed.estimatedMinutes], [[], null]);
  assertEquals((await getTicket(t, u, ticket.id)).customerTotal, "96.00");
  assertEquals(
    (await api(t.app, "DELETE", `/v1/service-templates/${template.id}`, { token: u.tech.token }))
      .status,
    403,
  );
  await call(t, u.admin, "DELETE", `/v1/service-templates/${template.id}`);
  assertEquals(
    (await api(t.app, "GET", `/v1/service-templates/${template.id}`, { token: u.viewer.token }))
      .status,
    404,
  );
  const gone = await api(t.app, "POST", "/v1/repair-tickets", {
    token: u.tech.token,
    body: { accountId: ticket.accountId, itemDescription: "Cello", serviceTemplateId: template.id },
  });
  assertEquals([gone.status, gone.body.code], [400, "invalid_reference"]);
  assert(
    (await call(t, u.viewer, "GET", "/v1/service-templates?limit=100")).data.every((
      x: { id: string },
    ) => x.id !== template.id),
  );
});
