/**
 * Searches use indexes: on 100,000 members of 50,000 accounts (PostgreSQL only), the plans of the accounts and
 * members list queries with `q` contain no sequential scan of members (or accounts).
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { customPlan, keptPlanOf, onPostgres, withPlanDatabase } from "../_helpers/query_plans.ts";
import { sql } from "../_helpers/test_db.ts";
import { refreshEverySearchCopy } from "../../app/search_copies.ts";
import { listAccounts } from "../../app/accounts/accounts_repo.ts";
import { listMembers } from "../../app/accounts/members.ts";
import type { AppDeps } from "../../app/deps.ts";

const plans = withPlanDatabase(async (t) => {
  const db = t.deps.db;
  // Bulk load without the trigram indexes, then build them once (much faster than
  // maintaining them row by row); the definitions are the migration's.
  const { rows: indexes } = await sql<{ indexdef: string; indexname: string }>`
    SELECT indexname, indexdef FROM pg_indexes
    WHERE indexname IN ('members_search_trgm', 'accounts_search_trgm', 'accounts_name_trgm')`
    .execute(db);
  assertEquals(indexes.length, 3);
  for (const index of indexes) await sql`DROP INDEX ${sql.ref(index.indexname)}`.execute(db);
  await sql`
    INSERT INTO accounts (id, account_number, name, email, phone, created_at, updated_at)
    SELECT md5('a' || i)::uuid, 'B-' || lpad(i::text, 7, '0'),
           initcap(substr(md5('n' || i), 1, 9)) || ' Family',
           substr(md5('e' || i), 1, 10) || '@bulk.test', '555-' || lpad(i::text, 7, '0'),
           now() - (i || ' minutes')::interval, now()
    FROM generate_series(1, 50000) AS i`.execute(db);
  await sql`
    INSERT INTO members (id, account_id, first_name, last_name, email, created_at, updated_at)
    SELECT md5('m' || j)::uuid, md5('a' || ((j - 1) / 2 + 1))::uuid,
           initcap(substr(md5('f' || j), 1, 8)), initcap(substr(md5('l' || j), 1, 10)),
           substr(md5('x' || j), 1, 12) || '@bulk.test',
           now() - (j || ' seconds')::interval, now()
    FROM generate_series(1, 100000) AS j`.execute(db);
  // Each side's copy of the other's names, as the use cases keep them.
  await refreshEverySearchCopy(db);
  for (const index of indexes) await sql.raw(index.indexdef).execute(db);
  await sql`ANALYZE accounts`.execute(db);
  await sql`ANALYZE members`.execute(db);
});

/** The plan of the list query `run` sends. */
async function planOf(run: () => Promise<unknown>): Promise<string> {
  return await customPlan(plans.traced.db, await plans.traced.listQueryOf(run));
}

async function lastNameOf(n: number): Promise<string> {
  const { rows } = await sql<{ last_name: string }>`
    SELECT last_name FROM members WHERE id = md5(${"m" + n})::uuid`.execute(plans.app.deps.db);
  return rows[0]!.last_name;
}

Deno.test({
  name: "account search on 100,000 members uses the trigram indexes, not a scan of members",
  ignore: !onPostgres,
  async fn() {
    const name = await lastNameOf(77777);
    const deps = { ...plans.app.deps, db: plans.traced.db } as AppDeps;
    const params = { page: 1, limit: 25, q: name, sort: "name" as const, order: "asc" as const };
    // A search is planned once per session and kept (PageOptions.planOnce): these are the
    // kept generic plans, for one word and for two.
    for (const q of [name, `${name} x-2`]) {
      const kept = await keptPlanOf(
        plans.traced,
        () => listAccounts(plans.traced.db, { ...params, q }),
      );
      assert(!/Seq Scan on (members|accounts)\b/.test(kept), kept);
      // The members' names are in the account's own search text: one index, no members.
      assert(/accounts_search_trgm/.test(kept) && !/\bmembers\b/.test(kept), kept);
    }
    const plan = await planOf(() => listAccounts(plans.traced.db, params));
    const started = performance.now();
    const page = await listAccounts(deps.db, params);
    const ms = performance.now() - started;
    assert(
      page.data.some((a) =>
        a.accountNumber === `B-${String(Math.floor(77776 / 2) + 1).padStart(7, "0")}`
      ),
    );
    console.log(
      `account search on 100k members: ${ms.toFixed(1)} ms; accounts scanned: ${
        /Seq Scan on accounts/.test(plan)
      }`,
    );
  },
});

Deno.test({
  name: "member search on 100,000 members (names, email, account name) uses indexes, not a scan",
  ignore: !onPostgres,
  async fn() {
    const name = await lastNameOf(4242);
    const deps = { ...plans.app.deps, db: plans.traced.db } as AppDeps;
    const params = {
      page: 1,
      limit: 25,
      q: name,
      sort: "lastName" as const,
      order: "asc" as const,
    };
    const plan = await planOf(() => listMembers(deps, params));
    assert(!/Seq Scan on members/.test(plan), plan);
    assert(/members_search_trgm/.test(plan), plan);
    const started = performance.now();
    const page = await listMembers(deps, params);
    const ms = performance.now() - started;
    assertEquals(page.data.some((m) => m.lastName === name), true);
    console.log(
      `member search on 100k members: ${ms.toFixed(1)} ms; accounts scanned: ${
        /Seq Scan on accounts/.test(plan)
      }`,
    );
  },
});
