/** Identity document types (the lookup list) and member identifiers with their scans (API §5). */
import { assert, assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import {
  ACCOUNT_ROLES,
  accountsSuite,
  MISSING,
  newAccountWithMember as newAccountOf,
} from "./_fixtures.ts";

let t: TestApp;
let viewer: TestUser;
let editor: TestUser;
let admin: TestUser;

accountsSuite((s) => ({ t, u: { viewer, editor, admin } } = s), {
  ...ACCOUNT_ROLES,
  editor: ["accounts.edit", "files.upload"],
});

const newAccountWithMember = () => newAccountOf(t, editor);

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
