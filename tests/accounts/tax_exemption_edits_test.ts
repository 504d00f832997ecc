/**
 * Editing an approved tax exemption (issue 42, item 5; API §5): a clerk with accounts.edit may
 * fix the certificate, but a changed number, issuing state or expiry puts it back to pending,
 * so it waives no tax until someone with accounts.approve approves it again.
 */
import { assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp, type TestUser } from "../_helpers/test_app.ts";
import { SYSTEM_ROLES } from "../../domain/auth/permissions.ts";
import { createSale, makeLocation, setConfig } from "../pos/_fixtures.ts";
import { accountsSuite } from "./_fixtures.ts";

let t: TestApp;
let clerk: TestUser;
let manager: TestUser;
let locationId: string;

function permissionsOf(slug: string) {
  return SYSTEM_ROLES.find((r) => r.slug === slug)!.permissions;
}

accountsSuite(async (s) => {
  ({ t, u: { clerk, manager } } = s);
  await setConfig(t, { taxRates: { goods: "10.00", service: "10.00" } });
  locationId = await makeLocation(t);
  const register = await api(t.app, "POST", "/v1/registers", {
    token: manager.token,
    body: { name: "Front", locationId },
  });
  assertEquals(register.status, 201, register.text);
  const drawer = await api(t.app, "POST", "/v1/drawers/open", {
    token: clerk.token,
    body: { registerId: register.body.id, openingBalance: "100.00" },
  });
  assertEquals(drawer.status, 201, drawer.text);
}, {
  clerk: permissionsOf("sales-associate"),
  manager: permissionsOf("manager"),
});

const FUTURE = `${new Date().getUTCFullYear() + 2}-12-31`;

/** An account with an exemption the manager approved; its id and the exemption's. */
async function approvedExemption(body: Record<string, unknown>) {
  const account = await api(t.app, "POST", "/v1/accounts", {
    token: clerk.token,
    body: { name: `School ${crypto.randomUUID().slice(0, 6)}` },
  });
  assertEquals(account.status, 201, account.text);
  const created = await api(t.app, "POST", `/v1/accounts/${account.body.id}/tax-exemptions`, {
    token: clerk.token,
    body,
  });
  assertEquals(created.status, 201, created.text);
  const approved = await api(t.app, "POST", `/v1/tax-exemptions/${created.body.id}/approve`, {
    token: manager.token,
  });
  assertEquals(approved.status, 200, approved.text);
  assertEquals(approved.body.status, "approved");
  return { accountId: account.body.id as string, id: created.body.id as string };
}

async function taxOfSale(accountId: string): Promise<string> {
  const sale = await createSale(t, clerk.token, locationId, [
    { description: "Drum sticks", quantity: 1, unitPrice: "10.00" },
  ], { accountId });
  return sale.taxTotal;
}

Deno.test("a clerk extending an expired approved exemption puts it back to pending: taxed again", async () => {
  const { accountId, id } = await approvedExemption({
    certificateNumber: "EX-OLD",
    issuingState: "OH",
    expiresDate: "2020-06-30",
  });
  assertEquals(await taxOfSale(accountId), "1.00", "expired: taxed");

  const patched = await api(t.app, "PATCH", `/v1/tax-exemptions/${id}`, {
    token: clerk.token,
    body: { expiresDate: FUTURE },
  });
  assertEquals(patched.status, 200, patched.text);
  assertEquals(patched.body.expiresDate, FUTURE);
  assertEquals(patched.body.status, "pending");
  assertEquals(patched.body.approvedAt, null);
  assertEquals(patched.body.approvedBy, null);
  assertEquals(await taxOfSale(accountId), "1.00", "not approved: still taxed");

  const audited = await t.deps.db.selectFrom("audit_log").select(["actor_id", "details"])
    .where("action", "=", "tax_exemption.returned_to_pending").where("entity_id", "=", id)
    .execute();
  assertEquals(audited.length, 1);
  assertEquals(audited[0]!.actor_id, clerk.id);
  assertEquals(audited[0]!.details, {
    accountId,
    from: "approved",
    to: "pending",
    fields: ["expiresDate"],
    approvedBy: manager.id,
    expiresDate: { from: "2020-06-30", to: FUTURE },
  });

  // The manager approves the renewed certificate: exempt again.
  const again = await api(t.app, "POST", `/v1/tax-exemptions/${id}/approve`, {
    token: manager.token,
  });
  assertEquals(again.status, 200, again.text);
  assertEquals(await taxOfSale(accountId), "0.00");
  const approvals = await t.deps.db.selectFrom("audit_log").select("actor_id")
    .where("action", "=", "tax_exemption.approved").where("entity_id", "=", id).execute();
  assertEquals(approvals.map((a) => a.actor_id), [manager.id, manager.id]);
});

Deno.test("any changed certificate field needs approving again; the reason or the same values do not", async () => {
  for (
    const change of [
      { certificateNumber: "EX-NEW" },
      { issuingState: "california" },
      { issuingState: null },
      { expiresDate: "2020-01-01" },
      { expiresDate: null },
    ]
  ) {
    const { accountId, id } = await approvedExemption({
      certificateNumber: "EX-1",
      issuingState: "OH",
      expiresDate: FUTURE,
    });
    const res = await api(t.app, "PATCH", `/v1/tax-exemptions/${id}`, {
      token: clerk.token,
      body: change,
    });
    assertEquals(res.status, 200, res.text);
    assertEquals(res.body.status, "pending", JSON.stringify(change));
    assertEquals(await taxOfSale(accountId), "1.00", JSON.stringify(change));
  }

  const { accountId, id } = await approvedExemption({
    certificateNumber: "EX-2",
    issuingState: "OH",
    expiresDate: FUTURE,
  });
  const same = await api(t.app, "PATCH", `/v1/tax-exemptions/${id}`, {
    token: clerk.token,
    body: {
      certificateNumber: "EX-2",
      issuingState: "ohio",
      expiresDate: FUTURE,
      reason: "School",
    },
  });
  assertEquals(same.status, 200, same.text);
  assertEquals(same.body.status, "approved");
  assertEquals(same.body.reason, "School");
  assertEquals(same.body.approvedBy, manager.id);
  assertEquals(await taxOfSale(accountId), "0.00");
});
