/**
 * Status moves over HTTP: the transition table, reopen, history, the ready-for-pickup list and
 * its email, and the claim tag.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import { mailsTo, outboxTo } from "../email/_outbox.ts";
import { REPAIR_STATUSES } from "../../domain/repairs/status_machine.ts";
import {
  addLine,
  call,
  getTicket,
  makeAccount,
  makeTicket,
  move,
  nextN,
  repairsSuite,
  type RepairUsers,
  walk,
} from "./_fixtures.ts";

let t: TestApp;
let u: RepairUsers;
repairsSuite((s) => ({ t, u } = s));

/** A path from `new` to each status, through allowed moves. */
const PATHS: Record<string, string[]> = {
  new: [],
  in_transit: ["in_transit"],
  intake: ["intake"],
  in_progress: ["intake", "in_progress"],
  pending_parts: ["intake", "pending_parts"],
  ready_for_pickup: ["intake", "in_progress", "ready_for_pickup"],
  picked_up: ["intake", "in_progress", "ready_for_pickup", "picked_up"],
  delivered: ["intake", "in_progress", "ready_for_pickup", "delivered"],
  cancelled: ["cancelled"],
};

const ALLOWED: Record<string, string[]> = {
  new: ["in_transit", "intake", "cancelled"],
  in_transit: ["intake", "cancelled"],
  intake: ["in_progress", "pending_parts", "cancelled"],
  in_progress: ["pending_parts", "ready_for_pickup", "cancelled"],
  pending_parts: ["in_progress", "cancelled"],
  ready_for_pickup: ["picked_up", "delivered", "in_progress"],
  picked_up: [],
  delivered: [],
  cancelled: [],
};

Deno.test("POST /status allows exactly the table's moves from every status; a refused move changes nothing", async () => {
  const account = await makeAccount(t, u);
  for (const from of REPAIR_STATUSES) {
    for (const to of REPAIR_STATUSES) {
      if (!ALLOWED[from]!.includes(to)) continue;
      const ticket = await makeTicket(t, u, { accountId: account.id });
      await walk(t, u, ticket.id, ...PATHS[from]!);
      assertEquals((await move(t, u, ticket.id, to)).status, to, `${from} → ${to}`);
    }
    const ticket = await makeTicket(t, u, { accountId: account.id });
    await walk(t, u, ticket.id, ...PATHS[from]!);
    const before = await getTicket(t, u, ticket.id);
    for (const to of REPAIR_STATUSES.filter((s) => !ALLOWED[from]!.includes(s))) {
      const refused = await move(t, u, ticket.id, to, 409);
      assertEquals(refused.code, "invalid_transition", `${from} → ${to}`);
    }
    assertEquals(await getTicket(t, u, ticket.id), before);
  }
  const bad = await api(t.app, "POST", `/v1/repair-tickets/${crypto.randomUUID()}/status`, {
    token: u.tech.token,
    body: { status: "intake" },
  });
  assertEquals(bad.status, 404);
  const unknown = await api(t.app, "POST", `/v1/repair-tickets/${crypto.randomUUID()}/status`, {
    token: u.tech.token,
    body: { status: "fixed" },
  });
  assertEquals(unknown.status, 400);
  const viewer = await api(t.app, "POST", `/v1/repair-tickets/${crypto.randomUUID()}/status`, {
    token: u.viewer.token,
    body: { status: "intake" },
  });
  assertEquals(viewer.status, 403);
});

Deno.test("reopen takes a cancelled ticket back to where it was; anything else → 409", async () => {
  for (const from of ["new", "in_transit", "intake", "in_progress", "pending_parts"]) {
    const ticket = await makeTicket(t, u);
    await walk(t, u, ticket.id, ...PATHS[from]!, "cancelled");
    const reopened = await call(t, u.tech, "POST", `/v1/repair-tickets/${ticket.id}/reopen`, {
      note: "Customer changed their mind",
    }, 200);
    assertEquals(reopened.status, from);
    const again = await call(
      t,
      u.tech,
      "POST",
      `/v1/repair-tickets/${ticket.id}/reopen`,
      undefined,
      409,
    );
    assertEquals(again.code, "invalid_transition");
    const history = await call(t, u.viewer, "GET", `/v1/repair-tickets/${ticket.id}/history`);
    assertEquals(history.data.at(-1).fromStatus, "cancelled");
    assertEquals(history.data.at(-1).toStatus, from);
    assertEquals(history.data.at(-1).note, "Customer changed their mind");
  }
});

Deno.test("the history lists every change oldest first with who, when and the note; it starts empty", async () => {
  const ticket = await makeTicket(t, u);
  assertEquals(await call(t, u.viewer, "GET", `/v1/repair-tickets/${ticket.id}/history`), {
    data: [],
  });
  await call(t, u.tech, "POST", `/v1/repair-tickets/${ticket.id}/status`, {
    status: "in_transit",
    note: "Picked up from Lincoln High",
  }, 200);
  await call(
    t,
    u.tech2,
    "POST",
    `/v1/repair-tickets/${ticket.id}/status`,
    { status: "intake" },
    200,
  );
  const history = await call(t, u.viewer, "GET", `/v1/repair-tickets/${ticket.id}/history`);
  assertEquals(history.data.length, 2);
  const [first, second] = history.data;
  assertEquals([first.fromStatus, first.toStatus, first.changedBy, first.note], [
    "new",
    "in_transit",
    u.tech.id,
    "Picked up from Lincoln High",
  ]);
  assertEquals([second.fromStatus, second.toStatus, second.changedBy, second.note], [
    "in_transit",
    "intake",
    u.tech2.id,
    null,
  ]);
  assert(first.changedAt <= second.changedAt);
  assert(typeof first.changedByName === "string");
  const missing = await api(t.app, "GET", `/v1/repair-tickets/${crypto.randomUUID()}/history`, {
    token: u.viewer.token,
  });
  assertEquals(missing.status, 404);
});

Deno.test("entering ready_for_pickup queues one email per entry; none without an email or with the module off", async () => {
  const email = `owner${nextN()}@example.test`;
  const account = await makeAccount(t, u, { email });
  const ticket = await makeTicket(t, u, {
    accountId: account.id,
    itemDescription: "Tuba, dented bell",
  });
  await addLine(t, u, ticket.id, {
    kind: "labor",
    description: "Dent work",
    quantity: 1,
    unitPrice: "120.00",
  });
  await walk(t, u, ticket.id, "intake", "in_progress", "ready_for_pickup");
  assertEquals((await outboxTo(t, email)).length, 1);
  await walk(t, u, ticket.id, "in_progress", "ready_for_pickup");
  const mails = await mailsTo(t, email);
  assertEquals(mails.length, 2);
  assert(mails[0]!.includes(ticket.ticketNumber));
  assert(mails[0]!.includes("Tuba, dented bell"));
  assert(mails[0]!.includes("120.00"));

  const silent = await makeAccount(t, u);
  const quiet = await makeTicket(t, u, { accountId: silent.id });
  await walk(t, u, quiet.id, "intake", "in_progress", "ready_for_pickup");
  const before = await t.deps.db.selectFrom("email_outbox").select("id").execute();

  const other = `other${nextN()}@example.test`;
  const off = await makeTicket(t, u, { accountId: (await makeAccount(t, u, { email: other })).id });
  await walk(t, u, off.id, "intake", "in_progress");
  await t.deps.db.updateTable("modules").set({ enabled: false }).where("slug", "=", "email")
    .execute();
  t.deps.modules.invalidate();
  try {
    await move(t, u, off.id, "ready_for_pickup");
  } finally {
    await t.deps.db.updateTable("modules").set({ enabled: true }).where("slug", "=", "email")
      .execute();
    t.deps.modules.invalidate();
  }
  assertEquals((await outboxTo(t, other)).length, 0);
  const after = await t.deps.db.selectFrom("email_outbox").select("id").execute();
  assertEquals(after.length, before.length);
});

Deno.test("GET /ready-for-pickup lists every ticket in ready_for_pickup with its balance due", async () => {
  const account = await makeAccount(t, u);
  const ready: string[] = [];
  for (let i = 0; i < 3; i++) {
    const ticket = await makeTicket(t, u, { accountId: account.id });
    await addLine(t, u, ticket.id, {
      kind: "labor",
      description: "Setup",
      quantity: 1,
      unitPrice: `${10 + i}.00`,
    });
    await walk(t, u, ticket.id, "intake", "in_progress", "ready_for_pickup");
    ready.push(ticket.id);
  }
  const notReady = await makeTicket(t, u, { accountId: account.id });
  await walk(t, u, notReady.id, "intake");
  const page = await call(
    t,
    u.viewer,
    "GET",
    `/v1/repair-tickets/ready-for-pickup?accountId=${account.id}`,
  );
  assertEquals(page.data.map((x: { id: string }) => x.id), ready);
  assertEquals(page.data.map((x: { balanceDue: string }) => x.balanceDue), [
    "10.00",
    "11.00",
    "12.00",
  ]);
  assert(page.data.every((x: { status: string }) => x.status === "ready_for_pickup"));
  const small = await call(
    t,
    u.viewer,
    "GET",
    `/v1/repair-tickets/ready-for-pickup?accountId=${account.id}&limit=2&page=2`,
  );
  assertEquals([small.data.length, small.pagination.total], [1, 3]);
  const bad = await api(t.app, "GET", "/v1/repair-tickets/ready-for-pickup?status=new", {
    token: u.viewer.token,
  });
  assertEquals(bad.status, 400);
});

Deno.test("the claim tag answers JSON, 40-column text and HTML", async () => {
  const account = await makeAccount(t, u, { name: "Dana <Scully>" });
  const ticket = await makeTicket(t, u, {
    accountId: account.id,
    itemDescription: "Alto saxophone with a very long description that has to wrap on the tag",
    itemCount: 2,
    serialNumber: "SAX-42",
    estimate: "150.00",
    dueDate: "2026-12-24",
  });
  const before = await call(t, u.viewer, "GET", `/v1/repair-tickets/${ticket.id}/claim-check`);
  assertEquals(before, {
    ticketNumber: ticket.ticketNumber,
    account: { id: account.id, name: "Dana <Scully>" },
    item: { description: ticket.itemDescription, count: 2 },
    serialNumber: "SAX-42",
    intakeAt: null,
    estimate: "150.00",
    dueDate: "2026-12-24",
  });
  await move(t, u, ticket.id, "intake");
  const text = await api(t.app, "GET", `/v1/repair-tickets/${ticket.id}/claim-check`, {
    token: u.viewer.token,
    headers: { Accept: "text/plain" },
  });
  assertEquals(text.status, 200);
  assert(text.headers.get("Content-Type")!.startsWith("text/plain"));
  const lines = text.text.split("\n");
  assert(lines.every((line) => Array.from(line).length <= 40), text.text);
  assert(lines.some((line) => line.trim() === ticket.ticketNumber));
  assert(/^Serial: +SAX-42$/m.test(text.text));
  assert(/^Estimate: +150\.00$/m.test(text.text));
  assert(!/^Intake: +-$/m.test(text.text));
  const html = await api(t.app, "GET", `/v1/repair-tickets/${ticket.id}/claim-check`, {
    token: u.viewer.token,
    headers: { Accept: "text/html" },
  });
  assert(html.headers.get("Content-Type")!.startsWith("text/html"));
  assert(html.text.includes("Dana &lt;Scully&gt;") && !html.text.includes("<Scully>"));
  const json = await call(t, u.viewer, "GET", `/v1/repair-tickets/${ticket.id}/claim-check`);
  assert(json.intakeAt !== null);
  const missing = await api(t.app, "GET", `/v1/repair-tickets/${crypto.randomUUID()}/claim-check`, {
    token: u.viewer.token,
    headers: { Accept: "text/plain" },
  });
  assertEquals(missing.status, 404);
});
