import { assert, assertEquals, assertRejects } from "../_helpers/assert.ts";
import { sql } from "../_helpers/test_db.ts";
import { api, type TestApp, type TestUser } from "../_helpers/test_app.ts";
import { ACCOUNT_ROLES, accountsSuite } from "./_fixtures.ts";

let t: TestApp;
let viewer: TestUser;
let editor: TestUser;
let admin: TestUser;

// 2026-11-21 15:00 UTC = 10:00 in New York (the seeded store zone); 10 ms per reading, so
// creation times are strictly increasing.
const BASE = Date.parse("2026-11-21T15:00:00Z");
let tick = 0;

accountsSuite(
  (s) => ({ t, u: { viewer, editor, admin } } = s),
  { ...ACCOUNT_ROLES, admin: ["accounts.admin", "settings.edit"] },
  { clock: { now: () => new Date(BASE + 10 * tick++) } },
);

const address = { line1: "1 Main St", city: "Austin", state: "Texas", postalCode: "78701" };

async function newAccount(body: Record<string, unknown> = {}) {
  const res = await api(t.app, "POST", "/v1/accounts", {
    token: editor.token,
    body: { name: `Account ${crypto.randomUUID().slice(0, 8)}`, ...body },
  });
  assertEquals(res.status, 201);
  return res.body;
}

async function newMember(accountId: string, body: Record<string, unknown> = {}) {
  const res = await api(t.app, "POST", `/v1/accounts/${accountId}/members`, {
    token: editor.token,
    body: { firstName: "Member", lastName: crypto.randomUUID().slice(0, 8), ...body },
  });
  assertEquals(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function account(id: string) {
  return (await api(t.app, "GET", `/v1/accounts/${id}`, { token: viewer.token })).body;
}

Deno.test("a new member inherits the account's email, phone and address unless it gives its own", async () => {
  const acc = await newAccount({ email: "family@example.test", phone: "555-0100", address });
  assertEquals(acc.address.state, "TX");
  const inherits = await newMember(acc.id);
  assertEquals(inherits.email, "family@example.test");
  assertEquals(inherits.phone, "555-0100");
  assertEquals(inherits.address, { ...address, state: "TX" });
  const own = await newMember(acc.id, {
    email: "kid@example.test",
    phone: null,
    address: { line1: "9 Side St", city: "San Juan", state: "puerto rico", postalCode: "00901" },
  });
  assertEquals(own.email, "kid@example.test");
  assertEquals(own.phone, null);
  assertEquals(own.address.state, "PR");
});

Deno.test("member address states are normalised to USPS codes; unknown states → 400", async () => {
  const acc = await newAccount();
  for (const [input, code] of [["new york", "NY"], ["DISTRICT OF COLUMBIA", "DC"], ["ca", "CA"]]) {
    const m = await newMember(acc.id, { address: { ...address, state: input } });
    assertEquals(m.address.state, code);
  }
  const bad = await api(t.app, "POST", `/v1/accounts/${acc.id}/members`, {
    token: editor.token,
    body: { firstName: "A", lastName: "B", address: { ...address, state: "Texass" } },
  });
  assertEquals(bad.status, 400);
  assertEquals(bad.body.errors[0].path, "address.state");
  const abroad = await newMember(acc.id, {
    address: { ...address, state: "Ontario", country: "Canada" },
  });
  assertEquals(abroad.address.state, "Ontario");
  const m = await newMember(acc.id);
  const patched = await api(t.app, "PATCH", `/v1/members/${m.id}`, {
    token: editor.token,
    body: { address: { ...address, state: "wyoming" } },
  });
  assertEquals(patched.body.address.state, "WY");
});

Deno.test("isMinor is derived from the date of birth on the store-local date", async () => {
  const acc = await newAccount();
  const adult = await newMember(acc.id, { dateOfBirth: "2008-11-21" }); // 18 today
  assertEquals(adult.isMinor, false);
  const minor = await newMember(acc.id, { dateOfBirth: "2008-11-22" }); // 18 tomorrow
  assertEquals(minor.isMinor, true);
  // In Kiritimati (UTC+14) it is already 22 November: the same member is an adult there.
  const store = await api(t.app, "PATCH", "/v1/store", {
    token: admin.token,
    body: { timezone: "Pacific/Kiritimati" },
  });
  assertEquals(store.status, 200);
  try {
    const again = await api(t.app, "GET", `/v1/members/${minor.id}`, { token: viewer.token });
    assertEquals(again.body.isMinor, false);
  } finally {
    await api(t.app, "PATCH", "/v1/store", {
      token: admin.token,
      body: { timezone: "America/New_York" },
    });
  }
});

Deno.test("isMinor with a date of birth is refused; without one it can be set and changed", async () => {
  const acc = await newAccount();
  const both = await api(t.app, "POST", `/v1/accounts/${acc.id}/members`, {
    token: editor.token,
    body: { firstName: "A", lastName: "B", dateOfBirth: "2015-01-01", isMinor: false },
  });
  assertEquals(both.status, 400);
  assertEquals(both.body.errors[0].path, "isMinor");
  const manual = await newMember(acc.id, { isMinor: true });
  assertEquals(manual.isMinor, true);
  const flipped = await api(t.app, "PATCH", `/v1/members/${manual.id}`, {
    token: editor.token,
    body: { isMinor: false },
  });
  assertEquals(flipped.body.isMinor, false);
  const dated = await api(t.app, "PATCH", `/v1/members/${manual.id}`, {
    token: editor.token,
    body: { dateOfBirth: "2015-01-01" },
  });
  assertEquals(dated.body.isMinor, true);
  const refused = await api(t.app, "PATCH", `/v1/members/${manual.id}`, {
    token: editor.token,
    body: { isMinor: false },
  });
  assertEquals(refused.status, 400);
  const cleared = await api(t.app, "PATCH", `/v1/members/${manual.id}`, {
    token: editor.token,
    body: { dateOfBirth: null, isMinor: false },
  });
  assertEquals(cleared.status, 200);
  assertEquals(cleared.body.isMinor, false);
  assertEquals(cleared.body.dateOfBirth, null);
  const future = await api(t.app, "PATCH", `/v1/members/${manual.id}`, {
    token: editor.token,
    body: { dateOfBirth: "2030-01-01" },
  });
  assertEquals(future.status, 400);
});

Deno.test("GET /members searches names, email and the account name and carries accountId/accountName", async () => {
  const acc = await newAccount({ name: "Harmonica Heroes" });
  const m = await newMember(acc.id, {
    firstName: "Petula",
    lastName: "Quartz",
    email: "pq@mail.test",
  });
  const find = async (q: string) =>
    (await api(t.app, "GET", `/v1/members?q=${encodeURIComponent(q)}`, { token: viewer.token }))
      .body.data;
  assertEquals((await find("petula quartz")).map((x: { id: string }) => x.id), [m.id]);
  assertEquals((await find("PQ@MAIL")).map((x: { id: string }) => x.id), [m.id]);
  const byAccount = await find("harmonica heroes");
  assertEquals(byAccount.map((x: { id: string }) => x.id), [m.id]);
  assertEquals(byAccount[0].accountId, acc.id);
  assertEquals(byAccount[0].accountName, "Harmonica Heroes");
  const ofAccount = await api(t.app, "GET", `/v1/accounts/${acc.id}/members?sort=createdAt`, {
    token: viewer.token,
  });
  assertEquals(ofAccount.status, 200);
  assertEquals(ofAccount.body.pagination.total, 1);
  const sorted = await api(t.app, "GET", "/v1/members?sort=firstName&order=desc", {
    token: viewer.token,
  });
  assertEquals(sorted.status, 200);
  assertEquals(
    (await api(t.app, "GET", "/v1/members?sort=email", { token: viewer.token })).status,
    400,
  );
  const missing = await api(
    t.app,
    "GET",
    "/v1/accounts/0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/members",
    { token: viewer.token },
  );
  assertEquals(missing.status, 404);
});

Deno.test("the first member of an account becomes its primary member", async () => {
  const acc = await newAccount();
  assertEquals(acc.primaryMemberId, null);
  const first = await newMember(acc.id);
  await newMember(acc.id);
  assertEquals((await account(acc.id)).primaryMemberId, first.id);
});

Deno.test("deleting the primary member moves the pointer to the earliest remaining member, then to null", async () => {
  const acc = await newAccount();
  const a = await newMember(acc.id);
  const b = await newMember(acc.id);
  const c = await newMember(acc.id);
  assertEquals(
    (await api(t.app, "DELETE", `/v1/members/${a.id}`, { token: editor.token })).status,
    403,
  );
  assertEquals(
    (await api(t.app, "DELETE", `/v1/members/${b.id}`, { token: admin.token })).status,
    204,
  );
  assertEquals((await account(acc.id)).primaryMemberId, a.id);
  assertEquals(
    (await api(t.app, "DELETE", `/v1/members/${a.id}`, { token: admin.token })).status,
    204,
  );
  assertEquals((await account(acc.id)).primaryMemberId, c.id);
  assertEquals(
    (await api(t.app, "DELETE", `/v1/members/${c.id}`, { token: admin.token })).status,
    204,
  );
  assertEquals((await account(acc.id)).primaryMemberId, null);
  assertEquals(
    (await api(t.app, "GET", `/v1/members/${c.id}`, { token: viewer.token })).status,
    404,
  );
  assertEquals(
    (await api(t.app, "DELETE", `/v1/members/${c.id}`, { token: admin.token })).status,
    404,
  );
});

Deno.test("POST /members/:id/move to another account repairs both primary pointers", async () => {
  const from = await newAccount();
  const to = await newAccount();
  const a = await newMember(from.id);
  const b = await newMember(from.id);
  const moved = await api(t.app, "POST", `/v1/members/${a.id}/move`, {
    token: editor.token,
    body: { accountId: to.id },
  });
  assertEquals(moved.status, 200);
  assertEquals(moved.body.member.accountId, to.id);
  assertEquals(moved.body.member.accountName, to.name);
  assertEquals(moved.body.account.id, to.id);
  assertEquals(moved.body.account.primaryMemberId, a.id);
  assertEquals((await account(from.id)).primaryMemberId, b.id);
  // Moving in a second member keeps the destination's primary.
  const again = await api(t.app, "POST", `/v1/members/${b.id}/move`, {
    token: editor.token,
    body: { accountId: to.id },
  });
  assertEquals(again.body.account.primaryMemberId, a.id);
  assertEquals((await account(from.id)).primaryMemberId, null);
  // Moving to its own account changes nothing.
  const same = await api(t.app, "POST", `/v1/members/${b.id}/move`, {
    token: editor.token,
    body: { accountId: to.id },
  });
  assertEquals(same.status, 200);
  assertEquals(same.body.account.primaryMemberId, a.id);
});

Deno.test("POST /members/:id/move without accountId creates an account named after the member", async () => {
  const from = await newAccount();
  const a = await newMember(from.id, { firstName: "Nina", lastName: "Simone", email: "n@s.test" });
  const b = await newMember(from.id);
  const moved = await api(t.app, "POST", `/v1/members/${a.id}/move`, { token: editor.token });
  assertEquals(moved.status, 200);
  assertEquals(moved.body.account.name, "Nina Simone - Account");
  assertEquals(moved.body.account.primaryMemberId, a.id);
  assertEquals(moved.body.account.email, "n@s.test");
  assert(moved.body.account.id !== from.id);
  assertEquals(moved.body.member.accountId, moved.body.account.id);
  assertEquals((await account(from.id)).primaryMemberId, b.id);
  const emptyBody = await api(t.app, "POST", `/v1/members/${b.id}/move`, {
    token: editor.token,
    body: {},
  });
  assertEquals(emptyBody.status, 200);
  assertEquals((await account(from.id)).primaryMemberId, null);
});

Deno.test("moving to an unknown or deleted account → 400; unknown member → 404; viewers → 403", async () => {
  const from = await newAccount();
  const a = await newMember(from.id);
  const unknown = await api(t.app, "POST", `/v1/members/${a.id}/move`, {
    token: editor.token,
    body: { accountId: "0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b" },
  });
  assertEquals(unknown.status, 400);
  assertEquals(unknown.body.code, "invalid_reference");
  const gone = await newAccount();
  await api(t.app, "DELETE", `/v1/accounts/${gone.id}`, { token: admin.token });
  const toDeleted = await api(t.app, "POST", `/v1/members/${a.id}/move`, {
    token: editor.token,
    body: { accountId: gone.id },
  });
  assertEquals(toDeleted.status, 400);
  const noMember = await api(
    t.app,
    "POST",
    "/v1/members/0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/move",
    {
      token: editor.token,
      body: {},
    },
  );
  assertEquals(noMember.status, 404);
  const viewerMove = await api(t.app, "POST", `/v1/members/${a.id}/move`, {
    token: viewer.token,
    body: {},
  });
  assertEquals(viewerMove.status, 403);
  const bad = await api(t.app, "POST", `/v1/members/${a.id}/move`, {
    token: editor.token,
    body: { accountId: "nope" },
  });
  assertEquals(bad.status, 400);
});

async function assertPrimaryValid(accountId: string) {
  const acc = await account(accountId);
  const members = await api(t.app, "GET", `/v1/accounts/${accountId}/members?limit=100`, {
    token: viewer.token,
  });
  const ids = members.body.data.map((m: { id: string }) => m.id);
  if (ids.length === 0) assertEquals(acc.primaryMemberId, null);
  else assert(ids.includes(acc.primaryMemberId), `primary of ${accountId} is one of its members`);
}

Deno.test("parallel moves between two accounts leave both primary pointers valid", async () => {
  const x = await newAccount();
  const y = await newAccount();
  const xs = [await newMember(x.id), await newMember(x.id), await newMember(x.id)];
  const ys = [await newMember(y.id), await newMember(y.id), await newMember(y.id)];
  for (let round = 0; round < 3; round++) {
    const results = await Promise.all([
      ...xs.map((m) =>
        api(t.app, "POST", `/v1/members/${m.id}/move`, {
          token: editor.token,
          body: { accountId: round % 2 === 0 ? y.id : x.id },
        })
      ),
      ...ys.map((m) =>
        api(t.app, "POST", `/v1/members/${m.id}/move`, {
          token: editor.token,
          body: { accountId: round % 2 === 0 ? x.id : y.id },
        })
      ),
    ]);
    for (const res of results) assertEquals(res.status, 200, JSON.stringify(res.body));
    await assertPrimaryValid(x.id);
    await assertPrimaryValid(y.id);
  }
  // Everyone to one side, with deletes racing: the emptied account ends with null.
  const everyone = [...xs, ...ys];
  const results = await Promise.all([
    ...everyone.slice(0, 4).map((m) =>
      api(t.app, "POST", `/v1/members/${m.id}/move`, {
        token: editor.token,
        body: { accountId: y.id },
      })
    ),
    ...everyone.slice(4).map((m) =>
      api(t.app, "DELETE", `/v1/members/${m.id}`, { token: admin.token })
    ),
  ]);
  for (const res of results) {
    assert(res.status === 200 || res.status === 204, JSON.stringify(res.body));
  }
  await assertPrimaryValid(x.id);
  await assertPrimaryValid(y.id);
  assertEquals((await account(x.id)).primaryMemberId, null);
});

Deno.test("the database itself refuses a primary member that belongs to another account", async () => {
  const x = await newAccount();
  const y = await newAccount();
  await newMember(x.id);
  const stranger = await newMember(y.id);
  await assertRejects(() =>
    sql`UPDATE accounts SET primary_member_id = ${stranger.id} WHERE id = ${x.id}`.execute(
      t.deps.db,
    )
  );
  assertEquals((await account(x.id)).primaryMemberId !== stranger.id, true);
});
