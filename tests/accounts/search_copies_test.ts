/**
 * Each side of an account and its members searches the other's names through a copy
 * (`accounts.member_search`, `members.account_name`; migration 20261202_100000): every write
 * of a member or of an account's name keeps both in step, also under parallel writes.
 */
import { assertEquals } from "../_helpers/assert.ts";
import { sql } from "../_helpers/test_db.ts";
import { api, type TestApp, type TestUser } from "../_helpers/test_app.ts";
import { accountsSuite } from "./_fixtures.ts";

let t: TestApp;
let viewer: TestUser;
let editor: TestUser;
let admin: TestUser;

accountsSuite((s) => ({ t, u: { viewer, editor, admin } } = s));

const word = () => `w${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;

async function newAccount(name = `Account ${word()}`): Promise<string> {
  const res = await api(t.app, "POST", "/v1/accounts", { token: editor.token, body: { name } });
  assertEquals(res.status, 201, res.text);
  return res.body.id;
}

async function newMember(accountId: string, lastName: string): Promise<string> {
  const res = await api(t.app, "POST", `/v1/accounts/${accountId}/members`, {
    token: editor.token,
    body: { firstName: "Kim", lastName },
  });
  assertEquals(res.status, 201, res.text);
  return res.body.id;
}

/** The ids `q` finds on a list, sorted. */
async function found(list: "accounts" | "members", q: string): Promise<string[]> {
  const res = await api(t.app, "GET", `/v1/${list}?q=${encodeURIComponent(q)}&limit=100`, {
    token: viewer.token,
  });
  assertEquals(res.status, 200, res.text);
  return res.body.data.map((row: { id: string }) => row.id).sort();
}

/**
 * No copy differs from what its source says now: every account's `member_search` is its
 * members' text, every member's `account_name` its account's name.
 */
async function assertCopiesInStep(): Promise<void> {
  const { rows } = await sql<{ id: string }>`
    SELECT a.id FROM accounts a
    WHERE a.member_search IS DISTINCT FROM coalesce((
      SELECT string_agg(lower(m.first_name || ' ' || m.last_name || ' ' || coalesce(m.email, '')),
        chr(31) ORDER BY m.created_at, m.id)
      FROM members m WHERE m.account_id = a.id), '')
    UNION ALL
    SELECT m.id FROM members m JOIN accounts a ON a.id = m.account_id
    WHERE m.account_name <> a.name`.execute(t.deps.db);
  assertEquals(rows, []);
}

Deno.test("the accounts list finds an account by its members' names as they are added, renamed, moved and deleted", async () => {
  const [first, second, third] = [word(), word(), word()];
  const home = await newAccount();
  const other = await newAccount();
  const member = await newMember(home, first);
  assertEquals(await found("accounts", first), [home]);

  let res = await api(t.app, "PATCH", `/v1/members/${member}`, {
    token: editor.token,
    body: { lastName: second },
  });
  assertEquals(res.status, 200, res.text);
  assertEquals(await found("accounts", first), []);
  assertEquals(await found("accounts", second), [home]);

  res = await api(t.app, "POST", `/v1/members/${member}/move`, {
    token: editor.token,
    body: { accountId: other },
  });
  assertEquals(res.status, 200, res.text);
  assertEquals(await found("accounts", second), [other]);

  // Moved to a new account of its own: found there only.
  res = await api(t.app, "POST", `/v1/members/${member}/move`, { token: editor.token });
  assertEquals(res.status, 200, res.text);
  const own = res.body.account.id;
  assertEquals(await found("accounts", second), [own]);

  const sibling = await newMember(own, third);
  res = await api(t.app, "DELETE", `/v1/members/${sibling}`, { token: admin.token });
  assertEquals(res.status, 204, res.text);
  assertEquals(await found("accounts", third), []);
  assertEquals(await found("accounts", second), [own]);

  // An account made from a primary contact carries it from the start.
  const fourth = word();
  res = await api(t.app, "POST", "/v1/accounts", {
    token: editor.token,
    body: { name: `Shop ${word()}`, primaryContact: { firstName: "Lee", lastName: fourth } },
  });
  assertEquals(res.status, 201, res.text);
  assertEquals(await found("accounts", fourth), [res.body.id]);
  await assertCopiesInStep();
});

Deno.test("the members list finds members by their account's name, also after a rename and a move", async () => {
  const [before, after, elsewhere] = [word(), word(), word()];
  const home = await newAccount(`Family ${before}`);
  const other = await newAccount(`Family ${elsewhere}`);
  const members = [await newMember(home, word()), await newMember(home, word())].sort();
  assertEquals(await found("members", before), members);

  const res = await api(t.app, "PATCH", `/v1/accounts/${home}`, {
    token: editor.token,
    body: { name: `Family ${after}` },
  });
  assertEquals(res.status, 200, res.text);
  assertEquals(await found("members", before), []);
  assertEquals(await found("members", after), members);

  const moved = await api(t.app, "POST", `/v1/members/${members[0]}/move`, {
    token: editor.token,
    body: { accountId: other },
  });
  assertEquals(moved.status, 200, moved.text);
  assertEquals(await found("members", after), [members[1]!]);
  assertEquals(await found("members", elsewhere), [members[0]!]);
  await assertCopiesInStep();
});

Deno.test("parallel member writes and renames on one account leave both copies in step", async () => {
  const home = await newAccount();
  const other = await newAccount();
  const members = await Promise.all([1, 2, 3, 4].map(() => newMember(home, word())));
  const names = members.map(() => word());
  for (let round = 0; round < 3; round++) {
    const results = await Promise.all([
      // Every member renamed at once, while members are added, one moves and the account is
      // renamed: each write reads the members as the others commit.
      ...members.map((id, i) =>
        api(t.app, "PATCH", `/v1/members/${id}`, {
          token: editor.token,
          body: { lastName: `${names[i]}${round}` },
        })
      ),
      api(t.app, "POST", `/v1/accounts/${home}/members`, {
        token: editor.token,
        body: { firstName: "New", lastName: word() },
      }),
      api(t.app, "POST", `/v1/accounts/${home}/members`, {
        token: editor.token,
        body: { firstName: "New", lastName: word() },
      }),
      api(t.app, "PATCH", `/v1/accounts/${home}`, {
        token: editor.token,
        body: { name: `Renamed ${word()}` },
      }),
      api(t.app, "POST", `/v1/members/${members[round]}/move`, {
        token: editor.token,
        body: { accountId: round % 2 === 0 ? other : home },
      }),
    ]);
    for (const res of results) assertEquals(res.status < 300, true, res.text);
    await assertCopiesInStep();
    for (const [i, id] of members.entries()) {
      const account = (await api(t.app, "GET", `/v1/members/${id}`, { token: viewer.token }))
        .body.accountId;
      assertEquals(await found("accounts", `${names[i]}${round}`), [account]);
    }
  }
});

Deno.test("members of one account renamed all at once: the account's search text has every new name", async () => {
  const home = await newAccount();
  const members = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map(() => newMember(home, word())));
  for (let round = 0; round < 5; round++) {
    const names = members.map(() => word());
    const results = await Promise.all(
      members.map((id, i) =>
        api(t.app, "PATCH", `/v1/members/${id}`, {
          token: editor.token,
          body: { lastName: names[i] },
        })
      ),
    );
    for (const res of results) assertEquals(res.status, 200, res.text);
    await assertCopiesInStep();
    for (const name of names) assertEquals(await found("accounts", name), [home]);
  }
});
