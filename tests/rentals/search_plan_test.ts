/**
 * Rental lists and the unit life story use indexes (PostgreSQL only): on 30,000 rentals
 * (20,000 active) of 30,000 units with 180,000 charges, the plans of the overdue and past-due
 * lists, of `q` (serial, account name, member name) and of every query of a unit's story
 * contain no sequential scan of rentals, charges, units or their history.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import {
  customPlan,
  keptPlanOf,
  onPostgres,
  plansAsRun,
  withPlanDatabase,
} from "../_helpers/query_plans.ts";
import { sql } from "../_helpers/test_db.ts";
import { isPlannedOnce } from "../../app/db/page_statements.ts";
import { refreshEverySearchCopy } from "../../app/search_copies.ts";
import { refreshEveryUnpaidSince } from "../../app/rentals/charges_repo.ts";
import { listRentals } from "../../app/rentals/rentals_repo.ts";
import { rentalListQuery } from "../../app/rentals/rental_schemas.ts";
import { getUnitStory } from "../../app/rentals/unit_story.ts";

const RENTALS = 30_000;
const ACCOUNTS = 10_000;
/** 25 of the 400 due dates (2026-05-20 + 0..399 days) are before it: 1 rental in 16 is overdue. */
const TODAY = "2026-06-14";

const plans = withPlanDatabase(async (t) => {
  const db = t.deps.db;
  await sql`
    INSERT INTO accounts (id, account_number, name, created_at, updated_at)
    SELECT md5('la' || i)::uuid, 'LA-' || lpad(i::text, 7, '0'),
           initcap(substr(md5('ln' || i), 1, 8)) || ' Family', now(), now()
    FROM generate_series(1, ${ACCOUNTS}) AS i`.execute(db);
  await sql`
    INSERT INTO members (id, account_id, first_name, last_name)
    SELECT md5('lm' || i)::uuid, md5('la' || i)::uuid, 'Kid', initcap(substr(md5('lk' || i), 1, 9))
    FROM generate_series(1, ${ACCOUNTS}) AS i`.execute(db);
  await sql`
    INSERT INTO products (id, name, sku, price, type)
    SELECT md5('lp' || i)::uuid, 'Rental instrument ' || i, 'LP-' || i, 500, 'rental'
    FROM generate_series(1, 20) AS i`.execute(db);
  await sql`
    INSERT INTO units (id, product_id, serial_number, status, condition)
    SELECT md5('lu' || j)::uuid, md5('lp' || (j % 20 + 1))::uuid, upper(substr(md5('ls' || j), 1, 10)),
           CASE WHEN j % 3 = 0 THEN 'in_stock' ELSE 'rented' END, 'good'
    FROM generate_series(1, ${RENTALS}) AS j`.execute(db);
  await sql`
    INSERT INTO unit_history (id, unit_id, kind, status, condition, source, at)
    SELECT gen_random_uuid(), id, 'created', 'in_stock', 'good', 'unit', now() FROM units`
    .execute(db);
  await sql`
    INSERT INTO rentals (id, account_id, member_id, product_id, unit_id, start_date, due_date,
      billing_interval, rate, status)
    SELECT md5('lr' || j)::uuid, md5('la' || (j % ${ACCOUNTS} + 1))::uuid,
           md5('lm' || (j % ${ACCOUNTS} + 1))::uuid, md5('lp' || (j % 20 + 1))::uuid,
           md5('lu' || j)::uuid, date '2025-05-01', date '2026-05-20' + (j % 400),
           'monthly', 40, CASE WHEN j % 3 = 0 THEN 'returned' ELSE 'active' END
    FROM generate_series(1, ${RENTALS}) AS j`.execute(db);
  await sql`
    INSERT INTO rental_charges (id, rental_id, period_start, period_end, due_date, amount, status,
      paid_transaction_id)
    SELECT gen_random_uuid(), md5('lr' || j)::uuid, (date '2026-01-01' + (k || ' months')::interval)::date,
           (date '2026-01-31' + (k || ' months')::interval)::date,
           (date '2026-01-01' + (k || ' months')::interval)::date, 40,
           CASE WHEN k < 5 OR j % 40 <> 0 THEN 'paid' ELSE 'unpaid' END,
           CASE WHEN k < 5 OR j % 40 <> 0 THEN gen_random_uuid() END
    FROM generate_series(1, ${RENTALS}) AS j, generate_series(0, 5) AS k`.execute(db);
  // The copies of names the searches read, as the use cases keep them.
  await refreshEverySearchCopy(db);
  await refreshEveryUnpaidSince(db);
  await sql`VACUUM ANALYZE accounts, members, units, unit_history, rentals, rental_charges`
    .execute(db);
});

/** The plans of every statement `listRentals` sends for these parameters. */
async function planOf(params: Parameters<typeof listRentals>[1]) {
  const db = plans.traced.db;
  return await plansAsRun(db, await plans.traced.queriesOf(() => listRentals(db, params)));
}

const SCANS =
  /Seq Scan on (rentals|rental_charges|units|unit_history|transaction_items|repair_tickets)\b/;

Deno.test({
  name: "overdue and past-due lists on 30,000 rentals are index scans",
  ignore: !onPostgres,
  async fn() {
    // Both are planned once and kept (their generic plans, PageOptions.planOnce): the matches
    // from the partial index, the page's 25 rows by primary key (a bound page size once had
    // the whole table hashed to join them).
    const overdue = await planOf({ ...rentalListQuery.parse({}), overdueBefore: TODAY });
    assert(!SCANS.test(overdue), overdue);
    assert(/rentals_overdue_idx/.test(overdue), overdue);
    const pastDue = await planOf({ ...rentalListQuery.parse({}), pastDueBefore: "2026-06-05" });
    assert(!SCANS.test(pastDue), pastDue);
    assert(/rentals_unpaid_since_idx/.test(pastDue), pastDue);
    for (const plan of [overdue, pastDue]) {
      assert(/Index Scan using rentals_pkey on rentals r\b/.test(plan), plan);
      assert(!/Hash Join/.test(plan), plan);
    }
    for (const filter of [{ overdueBefore: TODAY }, { pastDueBefore: "2026-06-05" }]) {
      const params = { ...rentalListQuery.parse({}), ...filter };
      const page = await plans.traced.listQueryOf(() => listRentals(plans.traced.db, params));
      assert(isPlannedOnce(page.sql), page.sql);
    }
    const times: number[] = [];
    let page;
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      page = await listRentals(plans.app.deps.db, {
        ...rentalListQuery.parse({}),
        pastDueBefore: "2026-06-05",
      });
      times.push(performance.now() - started);
    }
    const ms = Math.min(...times);
    // Every 40th rental has its June charge unpaid: 750, of which the active ones count.
    assertEquals(page!.pagination.total, RENTALS / 40);
    console.log(`past-due list (750 of 30k rentals): best of 5 ${ms.toFixed(1)} ms`);
  },
});

Deno.test({
  name: "q over serials, account names and member names uses the trigram indexes",
  ignore: !onPostgres,
  async fn() {
    const { rows } = await sql<{ serial_number: string; name: string; last_name: string }>`
      SELECT u.serial_number, a.name, m.last_name FROM rentals r
      JOIN units u ON u.id = r.unit_id JOIN accounts a ON a.id = r.account_id
      JOIN members m ON m.id = r.member_id WHERE r.id = md5('lr12345')::uuid`
      .execute(plans.app.deps.db);
    const row = rows[0]!;
    // A search is planned once per session and kept (PageOptions.planOnce): these are the kept
    // generic plans, also with another filter.
    const searches = [
      { q: row.serial_number.toLowerCase() },
      { q: row.name },
      { q: row.last_name },
      { q: `${row.last_name} x-1`, status: "active" },
    ];
    for (const query of searches) {
      const params = rentalListQuery.parse(query);
      const plan = await keptPlanOf(plans.traced, () => listRentals(plans.traced.db, params));
      assert(!/Seq Scan on (rentals|units|accounts|members)\b/.test(plan), `${query.q}\n${plan}`);
      // Names from the rentals' own copy: no scan of the accounts or members at all.
      assert(/rentals_search_trgm/.test(plan), `${query.q}\n${plan}`);
      assert(!/ on (accounts|members)\b/.test(plan.split("SubPlan")[0]!), `${query.q}\n${plan}`);
    }
    const page = await listRentals(
      plans.app.deps.db,
      rentalListQuery.parse({
        q: row.serial_number.toLowerCase(),
      }),
    );
    assertEquals(page.data.map((r) => r.serialNumber), [row.serial_number]);
  },
});

Deno.test({
  name: "every query of a unit's life story is an index lookup",
  ignore: !onPostgres,
  async fn() {
    const { rows } = await sql<{ serial_number: string }>`
      SELECT serial_number FROM units WHERE id = md5('lu4242')::uuid`.execute(plans.app.deps.db);
    const serial = rows[0]!.serial_number;
    const queries = await plans.traced.queriesOf(() =>
      getUnitStory({ db: plans.traced.db }, serial.toLowerCase())
    );
    assert(queries.length >= 5, String(queries.length));
    for (const query of queries) {
      const plan = await customPlan(plans.traced.db, query);
      assert(!SCANS.test(plan), `${query.sql}\n${plan}`);
    }
    const story = await getUnitStory(plans.app.deps, serial);
    assertEquals(story.timeline[0]!.kind, "received");
    assert(story.timeline.some((e) => e.kind === "rented"));
  },
});
