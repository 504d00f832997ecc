/** Tax exemptions: the status machine, its races and the active-exemption read (API §5). */
import { assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp, type TestUser } from "../_helpers/test_app.ts";
import { accountsSuite, newAccountWithMember as newAccountOf } from "./_fixtures.ts";
import { findActiveTaxExemption } from "../../app/accounts/tax_exemptions.ts";

let t: TestApp;
let viewer: TestUser;
let editor: TestUser;
let approver: TestUser;

accountsSuite((s) => ({ t, u: { viewer, editor, approver } } = s), {
  viewer: ["accounts.view"],
  editor: ["accounts.edit"],
  approver: ["accounts.approve"],
});

const newAccountWithMember = () => newAccountOf(t, editor);

// ------------------------------------------------------------------------ tax exemptions

Deno.test("tax exemptions: pending → approved → revoked; other moves → 409 invalid_transition", async () => {
  const { accountId } = await newAccountWithMember();
  const created = await api(t.app, "POST", `/v1/accounts/${accountId}/tax-exemptions`, {
    token: editor.token,
    body: { certificateNumber: "EX-1", issuingState: "ohio", reason: "Non-profit" },
  });
  assertEquals(created.status, 201);
  assertEquals(created.body.status, "pending");
  assertEquals(created.body.issuingState, "OH");
  const id = created.body.id;
  const statusPatch = await api(t.app, "PATCH", `/v1/tax-exemptions/${id}`, {
    token: editor.token,
    body: { status: "approved" },
  });
  assertEquals(statusPatch.status, 400);
  assertEquals(
    (await api(t.app, "POST", `/v1/tax-exemptions/${id}/approve`, { token: editor.token })).status,
    403,
  );
  const approved = await api(t.app, "POST", `/v1/tax-exemptions/${id}/approve`, {
    token: approver.token,
  });
  assertEquals(approved.status, 200);
  assertEquals(approved.body.status, "approved");
  assertEquals(approved.body.approvedBy, approver.id);
  const twice = await api(t.app, "POST", `/v1/tax-exemptions/${id}/approve`, {
    token: approver.token,
  });
  assertEquals(twice.status, 409);
  assertEquals(twice.body.code, "invalid_transition");
  const noReason = await api(t.app, "POST", `/v1/tax-exemptions/${id}/revoke`, {
    token: approver.token,
    body: {},
  });
  assertEquals(noReason.status, 400);
  const revoked = await api(t.app, "POST", `/v1/tax-exemptions/${id}/revoke`, {
    token: approver.token,
    body: { reason: "Certificate expired early" },
  });
  assertEquals(revoked.status, 200);
  assertEquals(revoked.body.status, "revoked");
  assertEquals(revoked.body.revokeReason, "Certificate expired early");
  for (const action of ["approve", "revoke"]) {
    const res = await api(t.app, "POST", `/v1/tax-exemptions/${id}/${action}`, {
      token: approver.token,
      body: action === "revoke" ? { reason: "again" } : undefined,
    });
    assertEquals(res.status, 409, action);
    assertEquals(res.body.code, "invalid_transition");
  }
  const editRevoked = await api(t.app, "PATCH", `/v1/tax-exemptions/${id}`, {
    token: editor.token,
    body: { reason: "x" },
  });
  assertEquals(editRevoked.status, 409);

  const pending = await api(t.app, "POST", `/v1/accounts/${accountId}/tax-exemptions`, {
    token: editor.token,
    body: { certificateNumber: "EX-2" },
  });
  const revokedPending = await api(t.app, "POST", `/v1/tax-exemptions/${pending.body.id}/revoke`, {
    token: approver.token,
    body: { reason: "Withdrawn" },
  });
  assertEquals(revokedPending.body.status, "revoked");
  const list = await api(t.app, "GET", `/v1/accounts/${accountId}/tax-exemptions?status=revoked`, {
    token: viewer.token,
  });
  assertEquals(list.body.pagination.total, 2);
});

Deno.test("parallel approve and revoke of one exemption: exactly one wins each step", async () => {
  const { accountId } = await newAccountWithMember();
  const created = await api(t.app, "POST", `/v1/accounts/${accountId}/tax-exemptions`, {
    token: editor.token,
    body: { certificateNumber: "RACE" },
  });
  const approvals = await Promise.all(
    Array.from(
      { length: 5 },
      () =>
        api(t.app, "POST", `/v1/tax-exemptions/${created.body.id}/approve`, {
          token: approver.token,
        }),
    ),
  );
  assertEquals(approvals.filter((r) => r.status === 200).length, 1);
  assertEquals(approvals.filter((r) => r.status === 409).length, 4);
});

Deno.test("findActiveTaxExemption() needs an approved, unexpired exemption", async () => {
  const { accountId } = await newAccountWithMember();
  const certificateOn = async (date: string) =>
    (await findActiveTaxExemption(t.deps.db, accountId, date))?.certificateNumber;
  assertEquals(await certificateOn("2026-11-21"), undefined);
  const created = await api(t.app, "POST", `/v1/accounts/${accountId}/tax-exemptions`, {
    token: editor.token,
    body: { certificateNumber: "EX-9", expiresDate: "2026-12-31" },
  });
  assertEquals(await certificateOn("2026-11-21"), undefined);
  await api(t.app, "POST", `/v1/tax-exemptions/${created.body.id}/approve`, {
    token: approver.token,
  });
  assertEquals(await certificateOn("2026-11-21"), "EX-9");
  assertEquals(await certificateOn("2026-12-31"), "EX-9");
  assertEquals(await certificateOn("2027-01-01"), undefined);
  await api(t.app, "POST", `/v1/tax-exemptions/${created.body.id}/revoke`, {
    token: approver.token,
    body: { reason: "r" },
  });
  assertEquals(await certificateOn("2026-11-21"), undefined);
});
