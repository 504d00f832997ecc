import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp } from "../_helpers/test_app.ts";
import {
  makeLocation,
  makeRegister,
  MANAGER_PIN,
  openDrawer,
  posSuite,
  type PosUsers,
  setPin,
} from "./_fixtures.ts";

let t: TestApp;
let u: PosUsers;

posSuite((s) => ({ t, u } = s));

// ---------------------------------------------------------------- registers

Deno.test("registers CRUD: pos.admin writes, pos.view reads, names unique per location", async () => {
  const locationId = await makeLocation(t);
  const created = await api(t.app, "POST", "/v1/registers", {
    token: u.admin.token,
    body: { name: "Front", locationId },
  });
  assertEquals(created.status, 201, created.text);
  assertEquals(created.body.name, "Front");
  assertEquals(created.body.isActive, true);

  const forbidden = await api(t.app, "POST", "/v1/registers", {
    token: u.cashier.token,
    body: { name: "Other", locationId },
  });
  assertEquals(forbidden.status, 403);

  const dup = await api(t.app, "POST", "/v1/registers", {
    token: u.admin.token,
    body: { name: "front", locationId },
  });
  assertEquals(dup.status, 409);
  assertEquals(dup.body.code, "duplicate");

  const badLocation = await api(t.app, "POST", "/v1/registers", {
    token: u.admin.token,
    body: { name: "X", locationId: crypto.randomUUID() },
  });
  assertEquals(badLocation.status, 400);
  assertEquals(badLocation.body.code, "invalid_reference");

  const list = await api(t.app, "GET", `/v1/registers?locationId=${locationId}`, {
    token: u.viewer.token,
  });
  assertEquals(list.status, 200);
  assertEquals(list.body.data.length, 1);

  const patched = await api(t.app, "PATCH", `/v1/registers/${created.body.id}`, {
    token: u.admin.token,
    body: { isActive: false },
  });
  assertEquals(patched.status, 200);
  assertEquals(patched.body.isActive, false);

  const inactiveOpen = await api(t.app, "POST", "/v1/drawers/open", {
    token: u.cashier.token,
    body: { registerId: created.body.id, openingBalance: "10.00" },
  });
  assertEquals(inactiveOpen.status, 400);

  const deleted = await api(t.app, "DELETE", `/v1/registers/${created.body.id}`, {
    token: u.admin.token,
  });
  assertEquals(deleted.status, 204);
  const gone = await api(t.app, "GET", `/v1/registers/${created.body.id}`, {
    token: u.viewer.token,
  });
  assertEquals(gone.status, 404);
});

Deno.test("a register with drawer history cannot be deleted (409 in_use)", async () => {
  const register = await makeRegister(t, u, await makeLocation(t));
  await openDrawer(t, u, register.id);
  const res = await api(t.app, "DELETE", `/v1/registers/${register.id}`, { token: u.admin.token });
  assertEquals(res.status, 409);
  assertEquals(res.body.code, "in_use");
});

// ---------------------------------------------------------------- drawers

Deno.test("opening, current, a second open (409), close with over/short and a frozen Z report", async () => {
  const locationId = await makeLocation(t);
  const register = await makeRegister(t, u, locationId);

  const none = await api(t.app, "GET", `/v1/drawers/current?registerId=${register.id}`, {
    token: u.viewer.token,
  });
  assertEquals(none.status, 404);
  assertEquals(none.body.code, "no_open_drawer");

  const session = await openDrawer(t, u, register.id, "150.00");
  assertEquals(session.status, "open");
  assertEquals(session.openingBalance, "150.00");
  assertEquals(session.locationId, locationId);

  const again = await api(t.app, "POST", "/v1/drawers/open", {
    token: u.cashier.token,
    body: { registerId: register.id, openingBalance: "1.00" },
  });
  assertEquals(again.status, 409);
  assertEquals(again.body.code, "drawer_already_open");

  const current = await api(t.app, "GET", `/v1/drawers/current?locationId=${locationId}`, {
    token: u.viewer.token,
  });
  assertEquals(current.status, 200);
  assertEquals(current.body.id, session.id);
  assertEquals(current.body.expectedBalance, "150.00");

  const adj = await api(t.app, "POST", `/v1/drawers/${session.id}/adjustments`, {
    token: u.manager.token,
    body: { direction: "out", amount: "20.00", reason: "Bank drop" },
  });
  assertEquals(adj.status, 201, adj.text);

  const x = await api(t.app, "GET", `/v1/drawers/${session.id}/report`, { token: u.viewer.token });
  assertEquals(x.status, 200);
  assertEquals(x.body.kind, "X");
  assertEquals(x.body.cashAccountability.expectedBalance, "130.00");

  const closed = await api(t.app, "POST", `/v1/drawers/${session.id}/close`, {
    token: u.cashier.token,
    body: { closingBalance: "128.50", notes: "short" },
  });
  assertEquals(closed.status, 200, closed.text);
  assertEquals(closed.body.status, "closed");
  assertEquals(closed.body.expectedBalance, "130.00");
  assertEquals(closed.body.closingBalance, "128.50");
  assertEquals(closed.body.overShort, "-1.50");
  assertEquals(closed.body.zReport.kind, "Z");
  assertEquals(closed.body.zReport.cashAccountability.overShort, "-1.50");

  const z = await api(t.app, "GET", `/v1/drawers/${session.id}/report`, { token: u.viewer.token });
  assertEquals(z.body, closed.body.zReport);

  const closeTwice = await api(t.app, "POST", `/v1/drawers/${session.id}/close`, {
    token: u.cashier.token,
    body: { closingBalance: "1.00" },
  });
  assertEquals(closeTwice.status, 409);
  assertEquals(closeTwice.body.code, "drawer_not_open");

  const lateAdj = await api(t.app, "POST", `/v1/drawers/${session.id}/adjustments`, {
    token: u.manager.token,
    body: { direction: "in", amount: "5.00", reason: "late" },
  });
  assertEquals(lateAdj.status, 409);
  assertEquals(lateAdj.body.code, "drawer_not_open");
  const cashier = await t.deps.db.selectFrom("users").select(["first_name", "last_name"])
    .where("id", "=", u.cashier.id).executeTakeFirstOrThrow();
  const closedText = `The drawer session of register ${register.name} opened by ` +
    `${cashier.first_name} ${cashier.last_name} is closed`;
  assertEquals([closeTwice.body.detail, lateAdj.body.detail], [closedText, closedText]);

  const list = await api(t.app, "GET", `/v1/drawers?registerId=${register.id}&status=closed`, {
    token: u.viewer.token,
  });
  assertEquals(list.status, 200);
  assertEquals(list.body.data.length, 1);
  assertEquals(list.body.data[0].overShort, "-1.50");

  const audit = await api(
    t.app,
    "GET",
    `/v1/audit-log?entityType=drawer_session&entityId=${session.id}`,
    { token: u.auditor.token },
  );
  assertEquals(audit.status, 200);
  const actions = audit.body.data.map((e: { action: string }) => e.action).sort();
  assertEquals(actions, ["pos.cash_adjustment", "pos.drawer_closed", "pos.drawer_opened"]);
});

Deno.test("drawer routes check permissions before lookups and 404 unknown ids", async () => {
  const res = await api(t.app, "POST", `/v1/drawers/open`, {
    token: u.viewer.token,
    body: { registerId: crypto.randomUUID(), openingBalance: "1.00" },
  });
  assertEquals(res.status, 403);
  const missing = await api(t.app, "GET", `/v1/drawers/${crypto.randomUUID()}`, {
    token: u.viewer.token,
  });
  assertEquals(missing.status, 404);
  const malformed = await api(t.app, "GET", `/v1/drawers/not-a-uuid/report`, {
    token: u.viewer.token,
  });
  assertEquals(malformed.status, 404);
  const noFilter = await api(t.app, "GET", `/v1/drawers/current`, { token: u.viewer.token });
  assertEquals(noFilter.status, 400);
  const negative = await api(t.app, "POST", `/v1/drawers/open`, {
    token: u.cashier.token,
    body: { registerId: crypto.randomUUID(), openingBalance: "-1.00" },
  });
  assertEquals(negative.status, 400);
});

Deno.test("cash adjustments need a manager override code unless the cashier holds pos.override", async () => {
  const register = await makeRegister(t, u, await makeLocation(t));
  const session = await openDrawer(t, u, register.id);
  const path = `/v1/drawers/${session.id}/adjustments`;
  const body = { direction: "in", amount: "5.00", reason: "Float top-up" };

  const refused = await api(t.app, "POST", path, { token: u.cashier.token, body });
  assertEquals(refused.status, 403);
  assertEquals(refused.body.code, "manager_override_required");

  const wrong = await api(t.app, "POST", path, {
    token: u.cashier.token,
    body: { ...body, override: { code: `${u.manager.employeeNumber}0000` } },
  });
  assertEquals(wrong.status, 403);
  assertEquals(wrong.body.code, "manager_override_required");

  const ok = await api(t.app, "POST", path, {
    token: u.cashier.token,
    body: { ...body, override: { code: `${u.manager.employeeNumber}${MANAGER_PIN}` } },
  });
  assertEquals(ok.status, 201, ok.text);
  assertEquals(ok.body.createdBy, u.cashier.id);
  assertEquals(ok.body.approvedBy, u.manager.id);

  const selfApproval = await api(t.app, "POST", path, {
    token: u.manager.token,
    body: { ...body, override: { code: `${u.manager.employeeNumber}${MANAGER_PIN}` } },
  });
  assertEquals(selfApproval.status, 201); // holds pos.override: acts alone, code ignored

  const listed = await api(t.app, "GET", path, { token: u.viewer.token });
  assertEquals(listed.status, 200);
  assertEquals(listed.body.data.length, 2);
  assertEquals(listed.body.pagination.total, 2);
});

Deno.test("wrong override codes count as wrong PINs: five lock the code and PIN login alike", async () => {
  const manager = await createUserWithPermissions(t, ["pos.edit", "pos.override"]);
  await setPin(t, manager.id, MANAGER_PIN);
  const register = await makeRegister(t, u, await makeLocation(t));
  const session = await openDrawer(t, u, register.id);
  const path = `/v1/drawers/${session.id}/adjustments`;
  const body = { direction: "out", amount: "1.00", reason: "Stamps" };
  for (let i = 0; i < 5; i++) {
    const wrong = await api(t.app, "POST", path, {
      token: u.cashier.token,
      body: { ...body, override: { code: `${manager.employeeNumber}000${i}` } },
    });
    assertEquals(wrong.status, 403);
    assertEquals(wrong.body.detail, "The override code is not valid");
  }
  const locked = await api(t.app, "POST", path, {
    token: u.cashier.token,
    body: { ...body, override: { code: `${manager.employeeNumber}${MANAGER_PIN}` } },
  });
  assertEquals(locked.status, 403);
  assertEquals(locked.body.code, "manager_override_required");
  // API §8 (issue 15): a locked number is refused with the same body as a wrong PIN.
  assertEquals(locked.body.detail, "The override code is not valid");
  const login = await api(t.app, "POST", "/v1/auth/pin-login", {
    body: { code: `${manager.employeeNumber}${MANAGER_PIN}` },
  });
  assertEquals(login.status, 429);
});

Deno.test("two concurrent opens of one register: exactly one succeeds", async () => {
  const register = await makeRegister(t, u, await makeLocation(t));
  const results = await Promise.all(
    Array.from({ length: 6 }, () =>
      api(t.app, "POST", "/v1/drawers/open", {
        token: u.cashier.token,
        body: { registerId: register.id, openingBalance: "50.00" },
      })),
  );
  const statuses = results.map((r) => r.status).sort();
  assertEquals(statuses, [201, 409, 409, 409, 409, 409]);
  assert(
    results.filter((r) => r.status === 409).every((r) => r.body.code === "drawer_already_open"),
  );
  const open = await t.deps.db.selectFrom("drawer_sessions").select("id")
    .where("register_id", "=", register.id).where("status", "=", "open").execute();
  assertEquals(open.length, 1);
});

Deno.test("POST /drawers/open replays with the same Idempotency-Key and does not open twice", async () => {
  const register = await makeRegister(t, u, await makeLocation(t));
  const headers = { "Idempotency-Key": `open-${register.id}` };
  const body = { registerId: register.id, openingBalance: "20.00" };
  const first = await api(t.app, "POST", "/v1/drawers/open", {
    token: u.cashier.token,
    body,
    headers,
  });
  const second = await api(t.app, "POST", "/v1/drawers/open", {
    token: u.cashier.token,
    body,
    headers,
  });
  assertEquals(first.status, 201);
  assertEquals(second.status, 201);
  assertEquals(second.body.id, first.body.id);
  assertEquals(second.headers.get("Idempotent-Replayed"), "true");
});
