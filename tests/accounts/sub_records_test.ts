import { assert, assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import { hasActiveTaxExemption } from "../../app/accounts/tax_exemptions.ts";

let t: TestApp;
let viewer: TestUser;
let editor: TestUser;
let approver: TestUser;
let admin: TestUser;

withTestApp(async (app) => {
  t = app;
  viewer = await createUserWithPermissions(t, ["accounts.view"]);
  editor = await createUserWithPermissions(t, ["accounts.edit", "files.upload"]);
  approver = await createUserWithPermissions(t, ["accounts.approve"]);
  admin = await createUserWithPermissions(t, ["accounts.admin"]);
});

const MISSING = "0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";

async function newAccountWithMember() {
  const res = await api(t.app, "POST", "/v1/accounts", {
    token: editor.token,
    body: { primaryContact: { firstName: "Sub", lastName: crypto.randomUUID().slice(0, 6) } },
  });
  assertEquals(res.status, 201);
  return { accountId: res.body.id as string, memberId: res.body.primaryMemberId as string };
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

async function upload(entityType: string, entityId: string) {
  const form = new FormData();
  form.set("file", new Blob([PNG]), "scan.png");
  form.set("entityType", entityType);
  form.set("entityId", entityId);
  const res = await api(t.app, "POST", "/v1/files", { token: editor.token, body: form });
  assertEquals(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
}

// ------------------------------------------------------------------------------ id types

Deno.test("GET /lookups/id-types lists the built-ins; POST adds snake_case values (accounts.admin)", async () => {
  const list = await api(t.app, "GET", "/v1/lookups/id-types", { token: viewer.token });
  assertEquals(list.status, 200);
  const values = list.body.data.map((r: { value: string }) => r.value);
  for (const v of ["drivers_license", "state_id", "passport", "student_id", "other"]) {
    assert(values.includes(v), v);
  }
  assertEquals(list.body.data[0].isBuiltIn, true);
  assertEquals(Object.keys(list.body.data[0]).sort(), ["id", "isBuiltIn", "label", "value"]);
  assertEquals(
    (await api(t.app, "POST", "/v1/lookups/id-types", {
      token: editor.token,
      body: { value: "military_id", label: "Military ID" },
    })).status,
    403,
  );
  const created = await api(t.app, "POST", "/v1/lookups/id-types", {
    token: admin.token,
    body: { value: "military_id", label: "Military ID" },
  });
  assertEquals(created.status, 201);
  assertEquals(created.body.isBuiltIn, false);
  const dup = await api(t.app, "POST", "/v1/lookups/id-types", {
    token: admin.token,
    body: { value: "military_id", label: "Again" },
  });
  assertEquals(dup.status, 409);
  assertEquals(dup.body.code, "duplicate");
  for (const value of ["Military", "military-id", "a b", "_x", "x__y"]) {
    const bad = await api(t.app, "POST", "/v1/lookups/id-types", {
      token: admin.token,
      body: { value, label: "Bad" },
    });
    assertEquals(bad.status, 400, value);
  }
});

// --------------------------------------------------------------------------- identifiers

Deno.test("identifiers: create, list, patch, delete; unknown idType → 400 invalid_reference", async () => {
  const { memberId } = await newAccountWithMember();
  const created = await api(t.app, "POST", `/v1/members/${memberId}/identifiers`, {
    token: editor.token,
    body: {
      idType: "drivers_license",
      idNumber: "D123-456",
      issuingState: "new jersey",
      issuedDate: "2020-01-01",
      expiresDate: "2028-01-01",
    },
  });
  assertEquals(created.status, 201);
  assertEquals(created.body.issuingState, "NJ");
  assertEquals(created.body.memberId, memberId);
  const unknown = await api(t.app, "POST", `/v1/members/${memberId}/identifiers`, {
    token: editor.token,
    body: { idType: "library_card", idNumber: "1" },
  });
  assertEquals(unknown.status, 400);
  assertEquals(unknown.body.code, "invalid_reference");
  const backwards = await api(t.app, "PATCH", `/v1/identifiers/${created.body.id}`, {
    token: editor.token,
    body: { expiresDate: "2019-01-01" },
  });
  assertEquals(backwards.status, 400);
  const patched = await api(t.app, "PATCH", `/v1/identifiers/${created.body.id}`, {
    token: editor.token,
    body: { idType: "passport", issuingState: "France" },
  });
  assertEquals(patched.status, 200);
  assertEquals(patched.body.idType, "passport");
  assertEquals(patched.body.issuingState, "France");
  const list = await api(t.app, "GET", `/v1/members/${memberId}/identifiers`, {
    token: viewer.token,
  });
  assertEquals(list.status, 200);
  assertEquals(list.body.pagination.total, 1);
  assertEquals(
    (await api(t.app, "GET", `/v1/members/${MISSING}/identifiers`, { token: viewer.token })).status,
    404,
  );
  assertEquals(
    (await api(t.app, "DELETE", `/v1/identifiers/${created.body.id}`, { token: editor.token }))
      .status,
    403,
  );
  assertEquals(
    (await api(t.app, "DELETE", `/v1/identifiers/${created.body.id}`, { token: admin.token }))
      .status,
    204,
  );
  assertEquals(
    (await api(t.app, "PATCH", `/v1/identifiers/${created.body.id}`, {
      token: editor.token,
      body: { idNumber: "x" },
    })).status,
    404,
  );
});

Deno.test("identifier scans must be member_identifier files of the same member", async () => {
  const { memberId } = await newAccountWithMember();
  const other = await newAccountWithMember();
  const identifier = await api(t.app, "POST", `/v1/members/${memberId}/identifiers`, {
    token: editor.token,
    body: { idType: "state_id", idNumber: "S-1" },
  });
  const otherIdentifier = await api(t.app, "POST", `/v1/members/${other.memberId}/identifiers`, {
    token: editor.token,
    body: { idType: "state_id", idNumber: "S-2" },
  });
  const front = await upload("member_identifier", identifier.body.id);
  const back = await upload("member_identifier", identifier.body.id);
  const memberFile = await upload("member", memberId);
  const foreign = await upload("member_identifier", otherIdentifier.body.id);

  const ok = await api(t.app, "PATCH", `/v1/identifiers/${identifier.body.id}`, {
    token: editor.token,
    body: { frontFileId: front, backFileId: back },
  });
  assertEquals(ok.status, 200);
  assertEquals(ok.body.frontFileId, front);
  assertEquals(ok.body.backFileId, back);
  for (const fileId of [memberFile, foreign, MISSING]) {
    const refused = await api(t.app, "PATCH", `/v1/identifiers/${identifier.body.id}`, {
      token: editor.token,
      body: { frontFileId: fileId },
    });
    assertEquals(refused.status, 400, fileId);
    assertEquals(refused.body.code, "invalid_reference");
  }
  const createdWithScan = await api(t.app, "POST", `/v1/members/${memberId}/identifiers`, {
    token: editor.token,
    body: { idType: "other", idNumber: "O-1", backFileId: memberFile },
  });
  assertEquals(createdWithScan.status, 400);
  // Deleting a scan clears the reference.
  const admin2 = await createUserWithPermissions(t, ["files.delete", "accounts.view"]);
  assertEquals(
    (await api(t.app, "DELETE", `/v1/files/${front}`, { token: admin2.token })).status,
    204,
  );
  const list = await api(t.app, "GET", `/v1/members/${memberId}/identifiers`, {
    token: viewer.token,
  });
  assertEquals(list.body.data[0].frontFileId, null);
  assertEquals(list.body.data[0].backFileId, back);
});

// ----------------------------------------------------------------------- payment methods

Deno.test("payment methods refuse a full card number anywhere in the body", async () => {
  const { accountId } = await newAccountWithMember();
  for (
    const body of [
      { type: "card", brand: "4111 1111 1111 1111" },
      { type: "card", brand: "visa", processorPaymentMethodId: "4111-1111-1111-1111" },
      { type: "other", processor: "pan 5555555555554444 here" },
    ]
  ) {
    const res = await api(t.app, "POST", `/v1/accounts/${accountId}/payment-methods`, {
      token: editor.token,
      body,
    });
    assertEquals(res.status, 400, JSON.stringify(body));
    assert(!res.text.includes("4111") && !res.text.includes("5555"), "the PAN is not echoed");
  }
  const full = await api(t.app, "POST", `/v1/accounts/${accountId}/payment-methods`, {
    token: editor.token,
    body: { type: "card", cardNumber: "4111111111111111" },
  });
  assertEquals(full.status, 400);
  const ok = await api(t.app, "POST", `/v1/accounts/${accountId}/payment-methods`, {
    token: editor.token,
    body: {
      type: "card",
      brand: "visa",
      last4: "1111",
      expMonth: 12,
      expYear: 2030,
      processor: "stripe",
      processorPaymentMethodId: "pm_4111111111111112",
    },
  });
  assertEquals(ok.status, 201);
  assertEquals(ok.body.last4, "1111");
  const patched = await api(t.app, "PATCH", `/v1/payment-methods/${ok.body.id}`, {
    token: editor.token,
    body: { brand: "4111111111111111" },
  });
  assertEquals(patched.status, 400);
  const badLast4 = await api(t.app, "POST", `/v1/accounts/${accountId}/payment-methods`, {
    token: editor.token,
    body: { type: "card", last4: "41111" },
  });
  assertEquals(badLast4.status, 400);
});

Deno.test("one default payment method per account: a new default unsets the previous one", async () => {
  const { accountId } = await newAccountWithMember();
  const create = (isDefault: boolean) =>
    api(t.app, "POST", `/v1/accounts/${accountId}/payment-methods`, {
      token: editor.token,
      body: { type: "ach", isDefault },
    });
  const first = await create(true);
  const second = await create(true);
  assertEquals(second.body.isDefault, true);
  const list = async () =>
    (await api(t.app, "GET", `/v1/accounts/${accountId}/payment-methods?sort=createdAt`, {
      token: viewer.token,
    })).body.data;
  assertEquals((await list()).map((p: { isDefault: boolean }) => p.isDefault), [false, true]);
  const back = await api(t.app, "PATCH", `/v1/payment-methods/${first.body.id}`, {
    token: editor.token,
    body: { isDefault: true },
  });
  assertEquals(back.body.isDefault, true);
  assertEquals((await list()).map((p: { isDefault: boolean }) => p.isDefault), [true, false]);

  // Racing "make default" requests: exactly one default remains.
  const others = await Promise.all(Array.from({ length: 6 }, () => create(false)));
  const raced = await Promise.all(
    others.map((o) =>
      api(t.app, "PATCH", `/v1/payment-methods/${o.body.id}`, {
        token: editor.token,
        body: { isDefault: true },
      })
    ),
  );
  for (const res of raced) assertEquals(res.status, 200);
  const defaults = (await list()).filter((p: { isDefault: boolean }) => p.isDefault);
  assertEquals(defaults.length, 1);
  const parallelCreates = await Promise.all(Array.from({ length: 5 }, () => create(true)));
  for (const res of parallelCreates) assertEquals(res.status, 201);
  assertEquals((await list()).filter((p: { isDefault: boolean }) => p.isDefault).length, 1);

  assertEquals(
    (await api(t.app, "DELETE", `/v1/payment-methods/${first.body.id}`, { token: admin.token }))
      .status,
    204,
  );
  assertEquals(
    (await api(t.app, "DELETE", `/v1/payment-methods/${first.body.id}`, { token: admin.token }))
      .status,
    404,
  );
});

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

Deno.test("hasActiveTaxExemption() needs an approved, unexpired exemption", async () => {
  const { accountId } = await newAccountWithMember();
  assertEquals(await hasActiveTaxExemption(t.deps.db, accountId, "2026-11-21"), false);
  const created = await api(t.app, "POST", `/v1/accounts/${accountId}/tax-exemptions`, {
    token: editor.token,
    body: { certificateNumber: "EX-9", expiresDate: "2026-12-31" },
  });
  assertEquals(await hasActiveTaxExemption(t.deps.db, accountId, "2026-11-21"), false);
  await api(t.app, "POST", `/v1/tax-exemptions/${created.body.id}/approve`, {
    token: approver.token,
  });
  assertEquals(await hasActiveTaxExemption(t.deps.db, accountId, "2026-11-21"), true);
  assertEquals(await hasActiveTaxExemption(t.deps.db, accountId, "2026-12-31"), true);
  assertEquals(await hasActiveTaxExemption(t.deps.db, accountId, "2027-01-01"), false);
  await api(t.app, "POST", `/v1/tax-exemptions/${created.body.id}/revoke`, {
    token: approver.token,
    body: { reason: "r" },
  });
  assertEquals(await hasActiveTaxExemption(t.deps.db, accountId, "2026-11-21"), false);
});

// ----------------------------------------------------------------------- processor links

Deno.test("processor links are unique per (processor, externalCustomerId) → 409 duplicate", async () => {
  const a = await newAccountWithMember();
  const b = await newAccountWithMember();
  const link = await api(t.app, "POST", `/v1/accounts/${a.accountId}/processor-links`, {
    token: editor.token,
    body: { processor: "stripe", externalCustomerId: "cus_123" },
  });
  assertEquals(link.status, 201);
  const dup = await api(t.app, "POST", `/v1/accounts/${b.accountId}/processor-links`, {
    token: editor.token,
    body: { processor: "Stripe", externalCustomerId: "cus_123" },
  });
  assertEquals(dup.status, 409);
  assertEquals(dup.body.code, "duplicate");
  const other = await api(t.app, "POST", `/v1/accounts/${b.accountId}/processor-links`, {
    token: editor.token,
    body: { processor: "square", externalCustomerId: "cus_123" },
  });
  assertEquals(other.status, 201);
  const clash = await api(t.app, "PATCH", `/v1/processor-links/${other.body.id}`, {
    token: editor.token,
    body: { processor: "stripe" },
  });
  assertEquals(clash.status, 409);
  const raced = await Promise.all(
    Array.from(
      { length: 4 },
      () =>
        api(t.app, "POST", `/v1/accounts/${b.accountId}/processor-links`, {
          token: editor.token,
          body: { processor: "adyen", externalCustomerId: "race" },
        }),
    ),
  );
  assertEquals(raced.filter((r) => r.status === 201).length, 1);
  assertEquals(raced.filter((r) => r.status === 409).length, 3);
  const list = await api(
    t.app,
    "GET",
    `/v1/accounts/${b.accountId}/processor-links?sort=processor`,
    {
      token: viewer.token,
    },
  );
  assertEquals(list.body.data.map((l: { processor: string }) => l.processor), ["adyen", "square"]);
  assertEquals(
    (await api(t.app, "DELETE", `/v1/processor-links/${other.body.id}`, { token: admin.token }))
      .status,
    204,
  );
  assertEquals(
    (await api(t.app, "GET", `/v1/accounts/${MISSING}/processor-links`, { token: viewer.token }))
      .status,
    404,
  );
});
