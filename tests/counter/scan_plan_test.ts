/**
 * Every kind of scan is an index lookup (PostgreSQL only): on 30,000 products (with UPCs in
 * both the 12- and 13-digit form), 60,000 units, 20,000 accounts, repair tickets (most with a
 * serial number, several tickets a serial) and transactions and 10,000 rentals, the plan of the scan's one statement holds no sequential
 * scan, no trigram index and each kind's own index.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { customPlan, onPostgres, withPlanDatabase } from "../_helpers/query_plans.ts";
import { sql } from "../_helpers/test_db.ts";
import { findScanHits, type ScanLookup } from "../../app/counter/scan_repo.ts";
import { findProduct } from "../../app/inventory/products_repo.ts";
import { findUnit } from "../../app/inventory/units_repo.ts";

const PRODUCTS = 30_000;
const UNITS = 60_000;
const MANY = 20_000;
const RENTALS = 10_000;

const plans = withPlanDatabase(async (t) => {
  const db = t.deps.db;
  await sql`
    INSERT INTO products (id, name, sku, upc, price, type)
    SELECT md5('sp' || i)::uuid, 'Scan product ' || i, 'SP-' || i,
           CASE WHEN i % 2 = 0 THEN lpad(i::text, 12, '0') ELSE lpad(i::text, 13, '1') END,
           10, CASE WHEN i <= 100 THEN 'rental' ELSE 'standard' END
    FROM generate_series(1, ${PRODUCTS}) AS i`.execute(db);
  await sql`
    INSERT INTO units (id, product_id, serial_number, status, condition)
    SELECT md5('su' || j)::uuid, md5('sp' || (j % 100 + 1))::uuid, 'SN' || j, 'in_stock', 'good'
    FROM generate_series(1, ${UNITS}) AS j`.execute(db);
  await sql`
    INSERT INTO accounts (id, account_number, name, created_at, updated_at)
    SELECT md5('sa' || i)::uuid, 'A-' || lpad(i::text, 6, '0'), 'Scan family ' || i, now(), now()
    FROM generate_series(1, ${MANY}) AS i`.execute(db);
  await sql`
    INSERT INTO repair_tickets (id, ticket_number, account_id, item_description, serial_number,
      status)
    SELECT md5('st' || i)::uuid, 'R-' || lpad(i::text, 6, '0'), md5('sa' || i)::uuid, 'Horn ' || i,
           CASE WHEN i % 4 <> 0 THEN 'HS' || (i % 5000) END,
           CASE WHEN i % 3 = 0 THEN 'picked_up' ELSE 'in_progress' END
    FROM generate_series(1, ${MANY}) AS i`.execute(db);
  await sql`
    INSERT INTO rentals (id, account_id, product_id, unit_id, start_date, billing_interval, rate)
    SELECT md5('sr' || i)::uuid, md5('sa' || i)::uuid, md5('sp' || (i % 100 + 1))::uuid,
           md5('su' || i)::uuid, date '2026-01-01', 'monthly', 40
    FROM generate_series(1, ${RENTALS}) AS i`.execute(db);
  const location = await sql<{ id: string }>`SELECT id FROM locations LIMIT 1`.execute(db);
  const locationId = location.rows[0]?.id ??
    (await sql<{ id: string }>`
      INSERT INTO locations (id, name) VALUES (gen_random_uuid(), 'Scan store') RETURNING id`
      .execute(db)).rows[0]!.id;
  await sql`
    INSERT INTO transactions (id, type, status, location_id, total)
    SELECT gen_random_uuid(), 'sale', 'pending', ${locationId}::uuid, 10
    FROM generate_series(1, ${MANY})`.execute(db);
  await sql`VACUUM ANALYZE products, units, accounts, repair_tickets, rentals, transactions`
    .execute(db);
});

const NONE: ScanLookup = {
  productText: null,
  productBarcode: null,
  unitSerial: null,
  ticketNumber: null,
  ticketSerial: null,
  rentalNumber: null,
  accountNumber: null,
  transactionNumber: null,
};

async function planOf(lookup: Partial<ScanLookup>): Promise<string> {
  const traced = plans.traced;
  const [query] = await traced.queriesOf(() => findScanHits(traced.db, { ...NONE, ...lookup }));
  return await customPlan(traced.db, query!);
}

const FORBIDDEN = /Seq Scan|trgm|Bitmap Heap Scan on \w+ .*\n.*search/;

Deno.test({
  name: "each kind of scan uses its own index on the large tables",
  ignore: !onPostgres,
  async fn() {
    const cases: Array<[string, Partial<ScanLookup>, RegExp]> = [
      ["sku", { productText: "sp-777" }, /products_sku_key/],
      ["upc", { productBarcode: "0000000012346" }, /products_upc_code_idx/],
      ["serial", { unitSerial: "sn4242" }, /units_serial_lower_idx/],
      ["ticket", { ticketNumber: "R-004242" }, /repair_tickets_number_key/],
      ["ticket serial", { ticketSerial: "hs4242" }, /repair_tickets_serial_idx/],
      ["rental", { rentalNumber: 4242 }, /rentals_number_key/],
      ["account", { accountNumber: "A-004242" }, /accounts_account_number_key/],
      ["receipt", { transactionNumber: 4242 }, /transactions_number_key/],
    ];
    for (const [kind, lookup, index] of cases) {
      const plan = await planOf(lookup);
      assert(!FORBIDDEN.test(plan), `${kind}:\n${plan}`);
      assert(index.test(plan), `${kind} does not use ${index}:\n${plan}`);
    }
    // Everything at once, as the scan of a code that could be any kind sends it.
    const all = await planOf({
      productText: "4242",
      productBarcode: "4242",
      unitSerial: "4242",
      ticketNumber: "R-004242",
      ticketSerial: "4242",
      rentalNumber: 4242,
      accountNumber: "A-004242",
      transactionNumber: 4242,
    });
    assert(!/Seq Scan/.test(all), all);
  },
});

Deno.test({
  name: "the lookups find the rows the plans were made for",
  ignore: !onPostgres,
  async fn() {
    const db = plans.app.deps.db;
    const hits = await findScanHits(db, {
      ...NONE,
      productText: "sp-777",
      productBarcode: "0000000012346", // product 12346: even, stored as 12 digits
      unitSerial: "sn4242",
      ticketNumber: "R-004242",
      ticketSerial: "hs4242",
      accountNumber: "A-004242",
    });
    // Tickets 4242, 9242, 14242 and 19242 carry serial HS4242; 4242 and 19242 are picked up:
    // the open ones come first.
    assertEquals(
      hits.filter((h) => h.bySerial).map((h) => [h.kind, h.status]),
      [
        ["repair_ticket", "in_progress"],
        ["repair_ticket", "in_progress"],
        ["repair_ticket", "picked_up"],
        ["repair_ticket", "picked_up"],
      ],
    );
    assertEquals(
      hits.filter((h) => h.bySerial).map((h) => h.title).sort(),
      ["R-004242", "R-009242", "R-014242", "R-019242"],
    );
    assertEquals(
      hits.filter((h) => !h.bySerial).map((h) => `${h.kind}:${h.title}`).sort(),
      [
        "account:A-004242",
        "product:Scan product 12346",
        "product:Scan product 777",
        "repair_ticket:R-004242",
        "unit:Scan product 43",
      ],
    );
    // A product or unit hit carries its record, read by the same statement: the answer needs
    // no second query. Each is the record its own lookup reads.
    for (const hit of hits) {
      if (hit.kind === "product") assertEquals(hit.product, await findProduct(db, hit.id));
      else if (hit.kind === "unit") assertEquals(hit.unit, await findUnit(db, hit.id));
      else assertEquals([hit.product, hit.unit], [undefined, undefined]);
    }
    const traced = plans.traced;
    assertEquals(
      (await traced.queriesOf(() => findScanHits(traced.db, { ...NONE, unitSerial: "sn4242" })))
        .length,
      1,
    );
  },
});
