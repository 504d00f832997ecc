import { assert, assertEquals, assertMatch } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { accountsSuite } from "./_fixtures.ts";

let t: TestApp;
let viewer: TestUser;
let editor: TestUser;
let admin: TestUser;

accountsSuite((s) => ({ t, u: { viewer, editor, admin } } = s));

Deno.test("POST /accounts from a primary contact names the account and makes the contact its primary member", async () => {
  const res = await api(t.app, "POST", "/v1/accounts", {
    token: editor.token,
    body: {
      primaryContact: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.test" },
      address: { line1: "1 Main St", city: "Albany", state: "new york", postalCode: "12207" },
    },
  });
  assertEquals(res.status, 201);
  assertEquals(res.body.name, "Ada Lovelace - Account");
  assertMatch(res.body.accountNumber, /^A-\d{6}$/);
  assertEquals(res.body.email, "ada@example.test");
  assertEquals(res.body.address.state, "NY");
  assert(res.body.primaryMemberId);
  const member = await api(t.app, "GET", `/v1/members/${res.body.primaryMemberId}`, {
    token: viewer.token,
  });
  assertEquals(member.status, 200);
  assertEquals(member.body.firstName, "Ada");
  assertEquals(member.body.accountId, res.body.id);
  assertEquals(member.body.accountName, "Ada Lovelace - Account");
  assertEquals(member.body.address.state, "NY");
  assertEquals(member.body.isMinor, false);
  assertEquals(member.body.profilePictureFileId, null);
});

Deno.test("POST /accounts needs a name or a primary contact and refuses unknown fields", async () => {
  const neither = await api(t.app, "POST", "/v1/accounts", { token: editor.token, body: {} });
  assertEquals(neither.status, 400);
  assertEquals(neither.body.code, "validation_failed");
  const extra = await api(t.app, "POST", "/v1/accounts", {
    token: editor.token,
    body: { name: "X", accountNumber: "A-999999" },
  });
  assertEquals(extra.status, 400);
  const badState = await api(t.app, "POST", "/v1/accounts", {
    token: editor.token,
    body: {
      name: "Bad state",
      address: { line1: "1 Main St", city: "X", state: "Narnia", postalCode: "1" },
    },
  });
  assertEquals(badState.status, 400);
  assertEquals(badState.body.errors[0].path, "address.state");
});

Deno.test("account numbers are assigned by the server, unique and increasing", async () => {
  const numbers: string[] = [];
  const created = await Promise.all(
    Array.from(
      { length: 6 },
      (_, i) =>
        api(t.app, "POST", "/v1/accounts", { token: editor.token, body: { name: `Seq ${i}` } }),
    ),
  );
  for (const res of created) {
    assertEquals(res.status, 201);
    numbers.push(res.body.accountNumber);
  }
  assertEquals(new Set(numbers).size, 6);
  const search = await api(t.app, "GET", `/v1/accounts?q=${numbers[0]}`, { token: viewer.token });
  assertEquals(search.body.data.length, 1);
  assertEquals(search.body.data[0].accountNumber, numbers[0]);
});

Deno.test("GET /accounts searches name, email, phone, number and member names; sorts by the documented fields", async () => {
  const a = await api(t.app, "POST", "/v1/accounts", {
    token: editor.token,
    body: { name: "Zebra Music 100%", email: "zebra@shop.test", phone: "555-0101" },
  });
  const b = await api(t.app, "POST", "/v1/accounts", {
    token: editor.token,
    body: { primaryContact: { firstName: "Quincy", lastName: "Xylophone" } },
  });
  const search = async (q: string) =>
    (await api(t.app, "GET", `/v1/accounts?q=${encodeURIComponent(q)}`, { token: viewer.token }))
      .body.data.map((x: { id: string }) => x.id);
  assertEquals(await search("zebra music"), [a.body.id]);
  assertEquals(await search("ZEBRA@SHOP"), [a.body.id]);
  assertEquals(await search("555-0101"), [a.body.id]);
  assertEquals(await search("100%"), [a.body.id]);
  assertEquals(await search("0%"), [a.body.id]);
  assertEquals(await search("_"), []);
  assertEquals(await search("quincy xylo"), [b.body.id]);
  assertEquals(await search("xylophone"), [b.body.id]);

  const byName = await api(t.app, "GET", "/v1/accounts?sort=name&order=desc&limit=2", {
    token: viewer.token,
  });
  assertEquals(byName.status, 200);
  assertEquals(byName.body.data[0].name, "Zebra Music 100%");
  assertEquals(byName.body.pagination.limit, 2);
  assert(byName.body.pagination.total >= 2);
  for (const sort of ["accountNumber", "createdAt"]) {
    assertEquals(
      (await api(t.app, "GET", `/v1/accounts?sort=${sort}`, { token: viewer.token })).status,
      200,
    );
  }
  const bad = await api(t.app, "GET", "/v1/accounts?sort=email", { token: viewer.token });
  assertEquals(bad.status, 400);
});

Deno.test("PATCH /accounts/:id updates contact fields; DELETE soft-deletes (404 afterwards, gone from lists)", async () => {
  const created = await api(t.app, "POST", "/v1/accounts", {
    token: editor.token,
    body: { name: "Soon Gone", primaryContact: { firstName: "Gone", lastName: "Soon" } },
  });
  const id = created.body.id;
  const patched = await api(t.app, "PATCH", `/v1/accounts/${id}`, {
    token: editor.token,
    body: {
      phone: "555-0199",
      address: { line1: "2 Elm", city: "Dover", state: "DE", postalCode: "1" },
    },
  });
  assertEquals(patched.status, 200);
  assertEquals(patched.body.phone, "555-0199");
  assertEquals(patched.body.accountNumber, created.body.accountNumber);
  const noNumber = await api(t.app, "PATCH", `/v1/accounts/${id}`, {
    token: editor.token,
    body: { accountNumber: "A-1" },
  });
  assertEquals(noNumber.status, 400);

  assertEquals(
    (await api(t.app, "DELETE", `/v1/accounts/${id}`, { token: editor.token })).status,
    403,
  );
  assertEquals(
    (await api(t.app, "DELETE", `/v1/accounts/${id}`, { token: admin.token })).status,
    204,
  );
  assertEquals(
    (await api(t.app, "GET", `/v1/accounts/${id}`, { token: viewer.token })).status,
    404,
  );
  assertEquals(
    (await api(t.app, "DELETE", `/v1/accounts/${id}`, { token: admin.token })).status,
    404,
  );
  const listed = await api(t.app, "GET", "/v1/accounts?q=soon%20gone", { token: viewer.token });
  assertEquals(listed.body.data.length, 0);
  const member = await api(t.app, "GET", `/v1/members/${created.body.primaryMemberId}`, {
    token: viewer.token,
  });
  assertEquals(member.status, 404);
  const rows = await t.deps.db.selectFrom("accounts").select("deleted_at").where("id", "=", id)
    .executeTakeFirstOrThrow();
  assert(rows.deleted_at !== null);
});

Deno.test("account routes check permissions before lookups and 404 malformed ids", async () => {
  const nobody = await createUserWithPermissions(t, []);
  const missing = "0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";
  assertEquals((await api(t.app, "GET", "/v1/accounts")).status, 401);
  assertEquals((await api(t.app, "GET", "/v1/accounts", { token: nobody.token })).status, 403);
  assertEquals(
    (await api(t.app, "GET", `/v1/accounts/${missing}`, { token: nobody.token })).status,
    403,
  );
  assertEquals(
    (await api(t.app, "POST", "/v1/accounts", { token: viewer.token, body: { name: "x" } }))
      .status,
    403,
  );
  assertEquals(
    (await api(t.app, "GET", `/v1/accounts/${missing}`, { token: viewer.token })).status,
    404,
  );
  assertEquals(
    (await api(t.app, "GET", "/v1/accounts/not-a-uuid", { token: viewer.token })).status,
    404,
  );
  assertEquals(
    (await api(t.app, "PATCH", `/v1/accounts/${missing}`, {
      token: editor.token,
      body: { name: "x" },
    }))
      .status,
    404,
  );
});
