// deno-lint-ignore-file no-explicit-any
/**
 * The rentals list's `q` reads the rental's own copy of its account's and member's names
 * (`rentals.search`, app/accounts/name_copies.ts): it finds a rental by the names as they are
 * now, after renames and a change of member, also when renames race rental creations.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { sql, testServerUrl } from "../_helpers/test_db.ts";
import { Kysely } from "kysely";
import { updateAccountRow } from "../../app/accounts/accounts_repo.ts";
import type { Database } from "../../app/db/database.ts";
import { postgresClient } from "../../app/db/postgres_client.ts";
import { PostgresDialect } from "../../app/db/postgres_dialect.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import {
  call,
  makeFamily,
  makeInstrument,
  makeRental,
  rentalsSuite,
  type RentalUsers,
  today,
} from "./_fixtures.ts";

let t: TestApp;
let u: RentalUsers;
rentalsSuite((s) => ({ t, u } = s));

const word = () => `w${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;

/** The ids of the rentals `q` finds, sorted. */
async function found(q: string): Promise<string[]> {
  const res = await api(t.app, "GET", `/v1/rentals?q=${encodeURIComponent(q)}&limit=100`, {
    token: u.viewer.token,
  });
  assertEquals(res.status, 200, res.text);
  return res.body.data.map((row: { id: string }) => row.id).sort();
}

/** No rental's copy differs from its account's and member's names now. */
async function assertCopiesInStep(): Promise<void> {
  const { rows } = await sql<{ id: string }>`
    SELECT r.id FROM rentals r JOIN accounts a ON a.id = r.account_id
    LEFT JOIN members m ON m.id = r.member_id
    WHERE r.search <> lower(a.name) || chr(31) ||
      coalesce(lower(m.first_name || ' ' || m.last_name), '')`.execute(t.deps.db);
  assertEquals(rows, []);
}

Deno.test("a rental is found by its account's and member's names as they are now", async () => {
  const family = await makeFamily(t, u, `Family ${word()}`);
  const rental = await makeRental(t, u, {
    accountId: family.account.id,
    memberId: family.member.id,
    ...await instrumentOf(),
  });
  assertEquals(await found(family.account.name), [rental.id]);
  assertEquals(await found(family.member.lastName), [rental.id]);

  const account = word();
  await call(t, u.front, "PATCH", `/v1/accounts/${family.account.id}`, { name: account });
  assertEquals(await found(family.account.name), [], "not by the old account name");
  assertEquals(await found(account), [rental.id]);

  const last = word();
  await call(t, u.front, "PATCH", `/v1/members/${family.member.id}`, { lastName: last });
  assertEquals(await found(family.member.lastName), [], "not by the old member name");
  assertEquals(await found(`stu ${last}`), [rental.id]);

  // Another member of the account takes the rental over; then none.
  const other = word();
  const second = await call(t, u.front, "POST", `/v1/accounts/${family.account.id}/members`, {
    firstName: "Ola",
    lastName: other,
  });
  await call(t, u.desk, "PATCH", `/v1/rentals/${rental.id}`, { memberId: second.id });
  assertEquals(await found(last), []);
  assertEquals(await found(other), [rental.id]);
  await call(t, u.desk, "PATCH", `/v1/rentals/${rental.id}`, { memberId: null });
  assertEquals(await found(other), []);
  assertEquals(await found(account), [rental.id], "still by the account's name");
  await assertCopiesInStep();
});

async function instrumentOf() {
  const instrument = await makeInstrument(t, u);
  return { productId: instrument.product.id, unitId: instrument.units[0].id };
}

Deno.test("rentals made while their account and member are renamed copy the final names", async () => {
  const family = await makeFamily(t, u, `Family ${word()}`);
  const instrument = await makeInstrument(t, u, 6);
  const start = await today(t);
  const rent = (unit: any) =>
    api(t.app, "POST", "/v1/rentals", {
      token: u.desk.token,
      body: {
        accountId: family.account.id,
        memberId: family.member.id,
        productId: instrument.product.id,
        unitId: unit.id,
        startDate: start,
        billingInterval: "monthly",
        rate: "40.00",
      },
    });
  const renames = Array.from({ length: 3 }, (_, i) => [
    api(t.app, "PATCH", `/v1/accounts/${family.account.id}`, {
      token: u.front.token,
      body: { name: `Renamed ${i} ${word()}` },
    }),
    api(t.app, "PATCH", `/v1/members/${family.member.id}`, {
      token: u.front.token,
      body: { lastName: `Member ${i} ${word()}` },
    }),
  ]).flat();
  const results = await Promise.all([...instrument.units.map(rent), ...renames]);
  assertEquals(results.map((r) => r.status), [...Array(6).fill(201), ...Array(6).fill(200)]);
  await assertCopiesInStep();
  const account = await call(t, u.front, "GET", `/v1/accounts/${family.account.id}`);
  assertEquals((await found(account.name)).length, 6);
});

Deno.test({
  name:
    "a rental made while its account's rename is uncommitted waits for it and copies the new name",
  // Needs a second connection: the embedded database has one, which serializes anyway.
  ignore: testServerUrl() === undefined,
  async fn() {
    const family = await makeFamily(t, u, `Family ${word()}`);
    const rentalOf = await instrumentOf();
    const renamed = `Renamed ${word()}`;
    let made: Promise<{ status: number; text: string }> | undefined;
    // Another session (as another process's rename would be), outside this app's pool.
    const other = new Kysely<Database>({
      dialect: new PostgresDialect({
        postgres: postgresClient(t.database.url!, { max: 1, onnotice: () => {} }),
      }),
    });
    await other.transaction().execute(async (trx) => {
      // What updateAccount does, held open while the rental is asked for.
      await updateAccountRow(trx, family.account.id, { name: renamed }, new Date());
      await t.deps.nameCopies.accountsRenamed(trx, [family.account.id]);
      made = api(t.app, "POST", "/v1/rentals", {
        token: u.desk.token,
        body: {
          accountId: family.account.id,
          memberId: family.member.id,
          ...rentalOf,
          startDate: await today(t),
          billingInterval: "monthly",
          rate: "40.00",
        },
      });
      // Commit once the rental waits on the account's lock, or has been made without waiting.
      let settled = false;
      made.then(() => (settled = true), () => (settled = true));
      for (let i = 0; i < 500 && !settled; i++) {
        const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(t.deps.db);
        if (rows[0]!.n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert(!settled, "the rental was made before the rename committed");
    }).finally(() => other.destroy());
    const res = await made!;
    assertEquals(res.status, 201, res.text);
    await assertCopiesInStep();
    assertEquals((await found(renamed)).length, 1);
  },
});
