/**
 * DELETE /lookups/id-types/:id (API §7 lookup rules) and the literal treatment of `%`, `_`
 * and `\` in `q` on the accounts and members lists (API §1.3).
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp, type TestUser } from "../_helpers/test_app.ts";
import { accountsSuite } from "./_fixtures.ts";

let t: TestApp;
let viewer: TestUser;
let editor: TestUser;
let admin: TestUser;

accountsSuite((s) => ({ t, u: { viewer, editor, admin } } = s));

let counter = 0;

async function newIdType(): Promise<{ id: string; value: string }> {
  const value = `custom_id_${++counter}_${crypto.randomUUID().slice(0, 4)}`;
  const res = await api(t.app, "POST", "/v1/lookups/id-types", {
    token: admin.token,
    body: { value, label: `Custom ${counter}` },
  });
  assertEquals(res.status, 201, res.text);
  return { id: res.body.id, value };
}

async function newMember(): Promise<string> {
  const res = await api(t.app, "POST", "/v1/accounts", {
    token: editor.token,
    body: { primaryContact: { firstName: "Ida", lastName: crypto.randomUUID().slice(0, 8) } },
  });
  assertEquals(res.status, 201, res.text);
  return res.body.primaryMemberId;
}

function addIdentifier(memberId: string, idType: string) {
  return api(t.app, "POST", `/v1/members/${memberId}/identifiers`, {
    token: editor.token,
    body: { idType, idNumber: "X-1" },
  });
}

async function idTypeValues(): Promise<string[]> {
  const res = await api(t.app, "GET", "/v1/lookups/id-types", { token: viewer.token });
  return res.body.data.map((r: { value: string }) => r.value);
}

Deno.test("DELETE /lookups/id-types/:id removes an unused custom type (accounts.admin)", async () => {
  const type = await newIdType();
  const byEditor = await api(t.app, "DELETE", `/v1/lookups/id-types/${type.id}`, {
    token: editor.token,
  });
  assertEquals(byEditor.status, 403);
  const res = await api(t.app, "DELETE", `/v1/lookups/id-types/${type.id}`, {
    token: admin.token,
  });
  assertEquals(res.status, 204, res.text);
  assert(!(await idTypeValues()).includes(type.value));
  const again = await api(t.app, "DELETE", `/v1/lookups/id-types/${type.id}`, {
    token: admin.token,
  });
  assertEquals(again.status, 404);
  const malformed = await api(t.app, "DELETE", "/v1/lookups/id-types/not-a-uuid", {
    token: admin.token,
  });
  assertEquals(malformed.status, 404);
});

Deno.test("built-in id types cannot be deleted → 409 built_in", async () => {
  const list = await api(t.app, "GET", "/v1/lookups/id-types", { token: viewer.token });
  const passport = list.body.data.find((r: { value: string }) => r.value === "passport");
  const res = await api(t.app, "DELETE", `/v1/lookups/id-types/${passport.id}`, {
    token: admin.token,
  });
  assertEquals(res.status, 409);
  assertEquals(res.body.code, "built_in");
  assert((await idTypeValues()).includes("passport"));
});

Deno.test("an id type used by a member identifier cannot be deleted → 409 in_use", async () => {
  const type = await newIdType();
  const memberId = await newMember();
  const identifier = await addIdentifier(memberId, type.value);
  assertEquals(identifier.status, 201, identifier.text);
  const res = await api(t.app, "DELETE", `/v1/lookups/id-types/${type.id}`, {
    token: admin.token,
  });
  assertEquals(res.status, 409);
  assertEquals(res.body.code, "in_use");
  assert((await idTypeValues()).includes(type.value));
  // Once no identifier uses it, it can go.
  const removed = await api(t.app, "DELETE", `/v1/identifiers/${identifier.body.id}`, {
    token: admin.token,
  });
  assertEquals(removed.status, 204);
  const retry = await api(t.app, "DELETE", `/v1/lookups/id-types/${type.id}`, {
    token: admin.token,
  });
  assertEquals(retry.status, 204, retry.text);
});

Deno.test("a delete racing an identifier that uses the type: one of them loses, never a dangling value", async () => {
  const memberId = await newMember();
  for (let round = 0; round < 4; round++) {
    const type = await newIdType();
    const [deleted, created] = await Promise.all([
      api(t.app, "DELETE", `/v1/lookups/id-types/${type.id}`, { token: admin.token }),
      addIdentifier(memberId, type.value),
    ]);
    const exists = (await idTypeValues()).includes(type.value);
    if (deleted.status === 204) {
      assertEquals(created.status, 400, created.text);
      assertEquals(created.body.code, "invalid_reference");
      assertEquals(exists, false);
    } else {
      assertEquals(deleted.status, 409, deleted.text);
      assertEquals(deleted.body.code, "in_use");
      assertEquals(created.status, 201, created.text);
      assertEquals(exists, true);
    }
  }
});

Deno.test("q on /accounts and /members treats %, _ and \\ literally", async () => {
  const tag = crypto.randomUUID().slice(0, 6);
  const plain = await api(t.app, "POST", "/v1/accounts", {
    token: editor.token,
    body: { name: `Plain ${tag} 50 off` },
  });
  const percent = await api(t.app, "POST", "/v1/accounts", {
    token: editor.token,
    body: { name: `Sale ${tag} 50% off` },
  });
  const underscore = await api(t.app, "POST", "/v1/accounts", {
    token: editor.token,
    body: { name: `Under ${tag} a_b` },
  });
  const backslash = await api(t.app, "POST", "/v1/accounts", {
    token: editor.token,
    body: { name: `Slash ${tag} c\\d` },
  });
  for (const res of [plain, percent, underscore, backslash]) assertEquals(res.status, 201);
  const accounts = async (q: string) =>
    (await api(t.app, "GET", `/v1/accounts?q=${encodeURIComponent(q)}`, { token: viewer.token }))
      .body.data.map((a: { id: string }) => a.id);
  assertEquals(await accounts(`${tag} 50%`), [percent.body.id]);
  assertEquals(await accounts(`${tag} a_b`), [underscore.body.id]);
  assertEquals(await accounts(`${tag} a_`), [underscore.body.id]);
  assertEquals(await accounts(`${tag} c\\d`), [backslash.body.id]);
  assertEquals(await accounts(`${tag} %`), []);
  assertEquals(await accounts(`${tag} _`), []);

  const member = async (firstName: string) => {
    const res = await api(t.app, "POST", `/v1/accounts/${plain.body.id}/members`, {
      token: editor.token,
      body: { firstName, lastName: `M${tag}` },
    });
    assertEquals(res.status, 201, res.text);
    return res.body.id as string;
  };
  const mPercent = await member("Ten%");
  const mUnderscore = await member("Low_Dash");
  const mPlain = await member("Tenx");
  const members = async (q: string) =>
    (await api(t.app, "GET", `/v1/members?q=${encodeURIComponent(q)}`, { token: viewer.token }))
      .body.data.map((m: { id: string }) => m.id);
  assertEquals(await members(`ten% m${tag}`), [mPercent]);
  assertEquals(await members(`low_dash m${tag}`), [mUnderscore]);
  assertEquals((await members(`m${tag}`)).length, 3);
  assert((await members(`tenx m${tag}`)).includes(mPlain));
  assertEquals(await members(`te_x m${tag}`), []);
  assertEquals(await members(`%m${tag}`), []);
});
