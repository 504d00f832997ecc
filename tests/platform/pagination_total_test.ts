/**
 * List totals are exact up to EXACT_TOTAL_CAP matching rows and estimated above it
 * (`pagination.totalExact: false`), so a list's first page costs the same at any table size
 * (issue 23 item 2): the page statement counts at most one row past the cap.
 */
import { sql } from "kysely";
import { assert, assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createTestApp,
  createUserWithPermissions,
  type TestApp,
} from "../_helpers/test_app.ts";
import { EXACT_TOTAL_CAP } from "../../app/db/pagination.ts";
import { isPageQuery } from "../../app/db/page_statements.ts";
import { testServerUrl } from "../_helpers/test_db.ts";
import { TracingDatabase } from "../_helpers/query_plans.ts";
import { listSuppliers } from "../../app/inventory/suppliers_repo.ts";

const MANY = EXACT_TOTAL_CAP + 250;
let t: TestApp;
let token: string;

Deno.test.beforeAll(async () => {
  t = await createTestApp();
  // 10,250 suppliers named "Bulk n", and three named "Rare n" (a filter well under the cap).
  await sql`INSERT INTO suppliers (id, name)
    SELECT gen_random_uuid(), 'Bulk ' || g FROM generate_series(1, ${MANY}) AS g`
    .execute(t.deps.db);
  await sql`INSERT INTO suppliers (id, name)
    SELECT gen_random_uuid(), 'Rare ' || g FROM generate_series(1, 3) AS g`.execute(t.deps.db);
  await sql`ANALYZE suppliers`.execute(t.deps.db);
  token = (await createUserWithPermissions(t, ["inventory.view"])).token;
});
Deno.test.afterAll(async () => {
  await t.close();
});

const list = (query: string) => api(t.app, "GET", `/v1/suppliers?${query}`, { token });

Deno.test("above the cap the total is an estimate, never below the cap, and says so", async () => {
  const page = await list("limit=100");
  assertEquals(page.status, 200, page.text);
  assertEquals(page.body.data.length, 100);
  const { total, totalPages, totalExact } = page.body.pagination;
  assertEquals(totalExact, false);
  assert(total > EXACT_TOTAL_CAP, `estimate ${total}`);
  // The planner's estimate comes from ANALYZE's statistics: close to the real 10,253.
  assert(Math.abs(total - (MANY + 3)) < (MANY + 3) * 0.2, `estimate ${total}`);
  assertEquals(totalPages, Math.ceil(total / 100));
});

Deno.test("at or under the cap the total is exact", async () => {
  const rare = await list("q=Rare");
  assertEquals(rare.body.pagination, {
    page: 1,
    limit: 25,
    total: 3,
    totalPages: 1,
    totalExact: true,
  });
  // A page past the end counts apart, with the same cap.
  const past = await list("q=Rare&page=4");
  assertEquals(past.body.data, []);
  assertEquals(past.body.pagination.total, 3);
  assertEquals(past.body.pagination.totalExact, true);
  const pastMany = await list("page=100000&limit=100");
  assertEquals(pastMany.body.data, []);
  assertEquals(pastMany.body.pagination.totalExact, false);
  assert(pastMany.body.pagination.total > EXACT_TOTAL_CAP);
});

Deno.test("the last pages of a long list still answer their rows", async () => {
  const last = await list(`limit=100&page=${Math.ceil((MANY + 3) / 100)}&sort=name`);
  assertEquals(last.status, 200);
  assertEquals(last.body.data.length, (MANY + 3) % 100);
});

Deno.test({
  name:
    "on PostgreSQL the page statement counts at most one row past the cap, once: a large list is remembered",
  ignore: !testServerUrl(),
  async fn() {
    const tracing = new TracingDatabase(t.database.url!);
    try {
      // A list no other test here has read (the remembered lists are per process).
      const params = { page: 1, limit: 25, sort: "name", order: "asc", q: "Bulk" } as never;
      let first!: Awaited<ReturnType<typeof listSuppliers>>;
      const query = await tracing.listQueryOf(async () => {
        first = await listSuppliers(tracing.db, params);
      });
      assert(isPageQuery(query.sql));
      assertEquals(first.pagination.totalExact, false);
      const result = await tracing.db.executeQuery<{ "QUERY PLAN": string }>({
        ...query,
        sql: `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${query.sql}`,
      });
      const plan = result.rows.map((row) => row["QUERY PLAN"]).join("\n");
      // The count's Limit stops at cap + 1 rows: nothing reads every supplier to count them.
      const limits = [...plan.matchAll(/Limit \(actual rows=(\d+)/g)].map((m) => Number(m[1]));
      assert(limits.includes(EXACT_TOTAL_CAP + 1), plan);
      const aggregates = [...plan.matchAll(/Aggregate \(actual rows=1 loops=(\d+)\)/g)];
      assertEquals(aggregates.map((m) => m[1]), ["1"], plan);

      // The next page of the same list counts nothing and answers the same estimate.
      let second!: Awaited<ReturnType<typeof listSuppliers>>;
      const queries = await tracing.queriesOf(async () => {
        second = await listSuppliers(tracing.db, { ...params as object, page: 2 } as never);
      });
      assertEquals(queries.length, 1, queries.map((q) => q.sql).join("\n"));
      assert(!queries[0]!.sql.includes("count("), queries[0]!.sql);
      assertEquals(second.data.length, 25);
      assertEquals(second.pagination.total, first.pagination.total);
      assertEquals(second.pagination.totalExact, false);
    } finally {
      await tracing.close();
    }
  },
});
