/**
 * Ticket searches use indexes (PostgreSQL only): on 100,000 tickets of 20,000 accounts, the
 * plans of the ticket list with `q` (ticket number, item, serial, account name), with the
 * serial-number filter, and of the ready-for-pickup list contain no sequential scan of the
 * tickets; a search of the ready-for-pickup shelf reads the shelf.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { keptPlanOf, onPostgres, plansAsRun, withPlanDatabase } from "../_helpers/query_plans.ts";
import { isPlannedOnce } from "../../app/db/page_statements.ts";
import { sql } from "../_helpers/test_db.ts";
import { CompiledQuery } from "kysely";
import { listTickets } from "../../app/repairs/tickets_repo.ts";
import { readyListQuery, ticketListQuery } from "../../app/repairs/ticket_schemas.ts";

const TICKETS = 100_000;
const ACCOUNTS = 20_000;

const plans = withPlanDatabase(async (t) => {
  const db = t.deps.db;
  const { rows: indexes } = await sql<{ indexdef: string; indexname: string }>`
    SELECT indexname, indexdef FROM pg_indexes
    WHERE indexname IN ('repair_tickets_search_trgm', 'accounts_name_trgm', 'accounts_search_trgm')`
    .execute(db);
  assertEquals(indexes.length, 3);
  for (const index of indexes) await sql`DROP INDEX ${sql.ref(index.indexname)}`.execute(db);
  await sql`
    INSERT INTO accounts (id, account_number, name, created_at, updated_at)
    SELECT md5('ra' || i)::uuid, 'RA-' || lpad(i::text, 7, '0'),
           initcap(substr(md5('rn' || i), 1, 8)) || ' Music Club', now(), now()
    FROM generate_series(1, ${ACCOUNTS}) AS i`.execute(db);
  await sql`
    INSERT INTO repair_tickets (id, ticket_number, account_id, status, item_description,
      serial_number, status_changed_at, created_at, updated_at)
    SELECT md5('rt' || j)::uuid, 'R-' || lpad(j::text, 6, '0'), md5('ra' || (j % ${ACCOUNTS} + 1))::uuid,
      (ARRAY['new','intake','in_progress','pending_parts','picked_up','picked_up','delivered',
             'picked_up','picked_up','cancelled'])[j % 10 + 1],
      (ARRAY['Violin','Cello','Trumpet','Flute','Clarinet','Guitar','Saxophone','Trombone'])[j % 8 + 1]
        || ' ' || substr(md5('d' || j), 1, 10),
      upper(substr(md5('s' || j), 1, 8)),
      now() - (j || ' minutes')::interval, now() - (j || ' minutes')::interval, now()
    FROM generate_series(1, ${TICKETS}) AS j`.execute(db);
  // One ticket in 50 is ready for pickup (2,000): a realistic shelf of finished work.
  await sql`UPDATE repair_tickets SET status = 'ready_for_pickup'
    WHERE ticket_number LIKE 'R-%' AND substr(ticket_number, 3)::int % 50 = 0`.execute(db);
  await sql`SELECT setval('repair_ticket_number_seq', ${TICKETS})`.execute(db);
  for (const index of indexes) await sql.raw(index.indexdef).execute(db);
  await sql`ANALYZE accounts`.execute(db);
  await sql`VACUUM ANALYZE repair_tickets`.execute(db);
});

/** The plans of every statement `listTickets` sends for these parameters. */
async function planOf(params: Parameters<typeof listTickets>[1]) {
  const db = plans.traced.db;
  return await plansAsRun(db, await plans.traced.queriesOf(() => listTickets(db, params)));
}

/** EXPLAIN ANALYZE of the page statement `listTickets` sends for these parameters. */
async function analyzedPlan(params: Parameters<typeof listTickets>[1]) {
  const db = plans.traced.db;
  const query = await plans.traced.listQueryOf(() => listTickets(db, params));
  const { rows } = await db.executeQuery<{ "QUERY PLAN": string }>(
    CompiledQuery.raw(`EXPLAIN (ANALYZE, COSTS OFF) ${query.sql}`, [...query.parameters]),
  );
  return rows.map((row) => row["QUERY PLAN"]).join("\n");
}

async function timed(query: Record<string, string>) {
  const started = performance.now();
  const page = await listTickets(plans.app.deps.db, ticketListQuery.parse(query));
  return { page, ms: performance.now() - started };
}

async function serialOf(n: number): Promise<string> {
  const { rows } = await sql<{ serial_number: string }>`
    SELECT serial_number FROM repair_tickets WHERE id = md5(${"rt" + n})::uuid`
    .execute(plans.app.deps.db);
  return rows[0]!.serial_number;
}

Deno.test({
  name:
    "ticket search with q on 100,000 tickets uses the trigram indexes, never a scan of the tickets",
  ignore: !onPostgres,
  async fn() {
    const serial = await serialOf(77_777);
    // A search is planned once per session and that plan kept (PageOptions.planOnce): the plans
    // checked here are the kept generic plans, with and without other filters.
    const searches = [
      { q: serial.toLowerCase() },
      { q: "R-012345" },
      { q: "ello 3" },
      { q: "violin", status: "in_progress" },
      {
        q: "cello",
        accountId: "00000000-0000-4000-8000-000000000001",
        sort: "dueDate",
        order: "asc",
      },
    ];
    for (const query of searches) {
      const params = ticketListQuery.parse(query);
      const plan = await keptPlanOf(plans.traced, () => listTickets(plans.traced.db, params));
      assert(!/Seq Scan on repair_tickets/.test(plan), `${JSON.stringify(query)}\n${plan}`);
      assert(/repair_tickets_search_trgm|repair_tickets_account_idx/.test(plan), plan);
    }
    // Without q the list plans every run for its values.
    const byStatus = await plans.traced.listQueryOf(() =>
      listTickets(plans.traced.db, ticketListQuery.parse({ status: "intake" }))
    );
    assert(!isPlannedOnce(byStatus.sql));
    const { page, ms } = await timed({ q: serial.toLowerCase() });
    assertEquals(page.data.map((x) => x.serialNumber), [serial]);
    assertEquals([page.pagination.total, page.pagination.totalExact], [1, true]);
    // A page that is not full counts nothing: the trigram index is read once, for the page.
    const run = await analyzedPlan(ticketListQuery.parse({ q: serial.toLowerCase() }));
    const scans = run.split("\n").filter((line) => /repair_tickets_search_trgm/.test(line));
    assertEquals(scans.filter((line) => /never executed/.test(line)).length, 1, run);
    assertEquals(scans.length, 2, run);
    const byNumber = await timed({ q: "r-012345" });
    assertEquals(byNumber.page.data.map((x) => x.ticketNumber), ["R-012345"]);
    // The account's name is searched through its own trigram index.
    const { rows } = await sql<
      { name: string }
    >`SELECT name FROM accounts WHERE id = md5('ra4242')::uuid`
      .execute(plans.app.deps.db);
    const name = rows[0]!.name;
    const accountPlan = await planOf(ticketListQuery.parse({ q: name }));
    assert(!/Seq Scan on repair_tickets/.test(accountPlan), accountPlan);
    assert(/accounts_name_trgm/.test(accountPlan), accountPlan);
    const byAccount = await timed({ q: name });
    assert(
      byAccount.page.data.length > 0 && byAccount.page.data.every((x) => x.accountName === name),
    );
    console.log(
      `ticket search on 100k tickets: serial ${ms.toFixed(1)} ms, number ${
        byNumber.ms.toFixed(1)
      } ms, ` +
        `account name ${byAccount.ms.toFixed(1)} ms (${byAccount.page.pagination.total} tickets)`,
    );
  },
});

Deno.test({
  name: "the serial-number filter and the ready-for-pickup list on 100,000 tickets are index scans",
  ignore: !onPostgres,
  async fn() {
    const serial = await serialOf(31_337);
    const plan = await planOf(ticketListQuery.parse({ serialNumber: ` ${serial.toLowerCase()} ` }));
    assert(!/Seq Scan on repair_tickets/.test(plan), plan);
    assert(/repair_tickets_serial_idx/.test(plan), plan);
    const ready = await planOf({ ...readyListQuery.parse({}), status: "ready_for_pickup" });
    assert(!/Seq Scan on repair_tickets/.test(ready), ready);
    // Counting and sorting the shelf reads the index only, not the 2,000 rows.
    assert(/Index Only Scan using repair_tickets_status_idx/.test(ready), ready);
    const started = performance.now();
    const page = await listTickets(plans.app.deps.db, {
      ...readyListQuery.parse({}),
      status: "ready_for_pickup",
    });
    const ms = performance.now() - started;
    assertEquals(page.pagination.total, TICKETS / 50);
    assert(page.data.every((x) => x.status === "ready_for_pickup"));
    console.log(`ready-for-pickup list (2,000 of 100k tickets): ${ms.toFixed(1)} ms`);
  },
});

Deno.test({
  name: "a search of the ready-for-pickup shelf reads the shelf, not every account whose name " +
    "matches, and finds tickets by their text and by their account's name",
  ignore: !onPostgres,
  async fn() {
    const shelf = (q: string) => ({
      ...readyListQuery.parse({ q }),
      status: "ready_for_pickup" as const,
    });
    // Every account's name ends with "Music Club": as common a word as a name gets.
    // Planned once, like every search: the kept generic plan is the shelf's (its status is
    // written into the text).
    const plan = await keptPlanOf(
      plans.traced,
      () => listTickets(plans.traced.db, shelf("music club")),
    );
    assert(/repair_tickets_status_idx/.test(plan), plan);
    assert(!/accounts_name_trgm|Seq Scan on accounts|Seq Scan on repair_tickets/.test(plan), plan);
    const all = await listTickets(plans.app.deps.db, shelf("music club"));
    assertEquals(all.pagination.total, TICKETS / 50);
    const { rows } = await sql<{ name: string; tickets: number; serial: string }>`
      SELECT a.name, count(*)::int AS tickets, min(rt.serial_number) AS serial
      FROM repair_tickets rt JOIN accounts a ON a.id = rt.account_id
      WHERE rt.status = 'ready_for_pickup' AND rt.deleted_at IS NULL
      GROUP BY a.name ORDER BY a.name LIMIT 1`.execute(plans.app.deps.db);
    const byName = await listTickets(plans.app.deps.db, shelf(rows[0]!.name.slice(0, 8)));
    assert(byName.data.length > 0 && byName.data.every((x) => x.status === "ready_for_pickup"));
    assert(byName.data.some((x) => x.accountName === rows[0]!.name));
    const bySerial = await listTickets(plans.app.deps.db, shelf(rows[0]!.serial.toLowerCase()));
    assertEquals(bySerial.data.map((x) => x.serialNumber), [rows[0]!.serial]);
    // The same search without the status filter still collects the accounts by their index.
    const everywhere = await planOf(ticketListQuery.parse({ q: rows[0]!.name.slice(0, 8) }));
    assert(/accounts_name_trgm/.test(everywhere), everywhere);
  },
});
