/**
 * `GET /transactions?q=` on 20,000 sales where a best-selling brand is on 8,000 lines and a
 * rare one on 3 (PostgreSQL only): a search reads its matches once (app/db/pagination.ts), so
 * the common term finds its lines through the trigram index and counts its 8,000 sales
 * exactly without joining every match back to the sales, the rare term never scans the sales,
 * and both answer exactly the sales a plain filter finds.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { customPlan, onPostgres, withPlanDatabase } from "../_helpers/query_plans.ts";
import { sql } from "../_helpers/test_db.ts";
import { listTransactions } from "../../app/pos/transactions_repo.ts";

const SALES = 20_000;

const plans = withPlanDatabase(async (t) => {
  const db = t.deps.db;
  const location = await sql<{ id: string }>`
    INSERT INTO locations (id, name) VALUES (gen_random_uuid(), 'Search store') RETURNING id`
    .execute(db);
  const locationId = location.rows[0]!.id;
  await sql`
    INSERT INTO transactions (id, number, type, status, location_id, total, created_at, updated_at)
    SELECT md5('ts' || i)::uuid, nextval('transactions_number_seq'), 'sale', 'pending',
      ${locationId}::uuid, 10, now() - make_interval(mins => ${SALES} - i), now()
    FROM generate_series(1, ${SALES}) AS i`.execute(db);
  await sql`
    INSERT INTO transaction_items (id, transaction_id, kind, description, quantity, unit_price,
      tax_category)
    SELECT gen_random_uuid(), md5('ts' || i)::uuid, 'sale',
      CASE WHEN i % 5 < 2 THEN 'Gibson strings 10-46'
           WHEN i IN (77, 7777, 17777) THEN 'Zildjian rare splash'
           ELSE 'Cable ' || (i % 900) END,
      1, 10, 'goods'
    FROM generate_series(1, ${SALES}) AS i`.execute(db);
  await sql`VACUUM ANALYZE transactions, transaction_items`.execute(db);
});

const params = (q: string) =>
  ({ page: 1, limit: 25, sort: "createdAt", order: "desc", q }) as never;

/** The sales whose lines match, newest first (the page the search must answer). */
async function expected(term: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    SELECT t.id FROM transactions t
    WHERE EXISTS (SELECT 1 FROM transaction_items i
                  WHERE i.transaction_id = t.id AND i.description ILIKE ${`%${term}%`})
    ORDER BY t.created_at DESC, t.id DESC LIMIT 25`.execute(plans.app.deps.db);
  return rows.map((row) => row.id);
}

Deno.test({
  name: "a common term is counted exactly from its lines' trigram index, no join of every match",
  ignore: !onPostgres,
  async fn() {
    let page!: Awaited<ReturnType<typeof listTransactions>>;
    const query = await plans.traced.listQueryOf(async () => {
      page = await listTransactions(plans.traced.db, params("gibson"));
    });
    assertEquals(page.data.map((row) => row.id), await expected("gibson"));
    assertEquals(page.pagination.total, SALES * 2 / 5);
    const plan = await customPlan(plans.traced.db, query);
    assert(/transaction_items_description_trgm_idx/.test(plan), plan);
    // Not the union of every match (a HashAggregate of their ids, then a semi-join).
    assert(!/HashAggregate|Hash Semi Join|Hash Join/.test(plan), plan);
  },
});

Deno.test({
  name: "a rare term finds its lines through the trigram index, never scanning the sales",
  ignore: !onPostgres,
  async fn() {
    let page!: Awaited<ReturnType<typeof listTransactions>>;
    const query = await plans.traced.listQueryOf(async () => {
      page = await listTransactions(plans.traced.db, params("zildjian"));
    });
    assertEquals(page.data.map((row) => row.id), await expected("zildjian"));
    assertEquals(page.pagination.total, 3);
    const plan = await customPlan(plans.traced.db, query);
    assert(/transaction_items_description_trgm_idx/.test(plan), plan);
    assert(!/Seq Scan on transactions\b/.test(plan), plan);
  },
});

Deno.test({
  name:
    "a common term past the count's cap: the next pages probe each sale's lines, never hashing every match",
  ignore: !onPostgres,
  async fn() {
    // "Cable" is on 12,000 sales: the first page counts to the cap and remembers the list as
    // large; its next pages count nothing and walk the sales newest first.
    const first = await listTransactions(plans.traced.db, params("cable"));
    assertEquals(first.pagination.totalExact, false);
    let page!: Awaited<ReturnType<typeof listTransactions>>;
    const query = await plans.traced.listQueryOf(async () => {
      page = await listTransactions(plans.traced.db, params("cable"));
    });
    assertEquals(page.data.map((row) => row.id), await expected("cable"));
    const plan = await customPlan(plans.traced.db, query);
    assert(/transaction_items_transaction_idx/.test(plan), plan);
    assert(!/hashed SubPlan/.test(plan), plan);
  },
});
