/**
 * `GET /v1/scan/:code` (API §17) as a counter fires it: codes cycling through a SKU in lower
 * case, a 12-digit UPC-A, the same product's 13-digit EAN-13 form and a unit serial number,
 * by a clerk who may view every kind (so every kind's branch is in the statement), on 200,000
 * products and 500,000 units on PostgreSQL (50,000 and 100,000 on the embedded default,
 * whose single-connection engine seeds slower). The measured runs cycle through the first 1,000
 * codes of that sequence, the ones the bare stack replays (`_http_scenarios.ts` sentRequests):
 * 1,000 distinct items spread over the catalogue, a counter's day. pgbench runs the scan's
 * lookup statement; the endpoint also reads the record it found (a second primary-key read).
 *
 * Targets (issue 21): p50 < 2 ms and p99 < 5 ms on PostgreSQL at 10 clients; p50 < 5 ms on
 * the embedded default (one client; ten are measured too).
 */
import { sql } from "kysely";
import { findScanHits } from "../../app/counter/scan_repo.ts";
import { pgbenchFor } from "../_sql.ts";
import type { Scenario } from "./_scenario.ts";

const SIZES = {
  postgres: { products: 200_000, units: 500_000 },
  embedded: { products: 50_000, units: 100_000 },
};
/** Products carrying units (serialized instruments). */
const WITH_UNITS = 1_000;

const statement = await pgbenchFor((db) =>
  findScanHits(db, {
    productText: "scan-777",
    productBarcode: "0900000000777",
    unitSerial: "scan-777",
    ticketNumber: null,
    ticketSerial: "scan-777",
    rentalNumber: null,
    accountNumber: null,
    transactionNumber: null,
  })
);

interface State {
  token: string;
  products: number;
  units: number;
}

export const counterScan: Scenario<State> = {
  name: "GET /v1/scan/:code (SKU, UPC-A, EAN-13, serial; 200,000 products, 500,000 units)",
  async seed({ db, createUser, engine }) {
    const size = SIZES[engine];
    // UPC-A `9` + 11 digits (check digits not computed: a code that matches is answered
    // whatever its check digit, the lookup is the same).
    await sql`
      INSERT INTO products (id, name, sku, upc, type, price, created_at, updated_at)
      SELECT gen_random_uuid(), 'Scan item ' || i, 'SCAN-' || i, '9' || lpad(i::text, 11, '0'),
        CASE WHEN i <= ${WITH_UNITS} THEN 'serialized' ELSE 'standard' END,
        ((i % 5000) + 99) / 100.0, now(), now()
      FROM generate_series(1, ${size.products}) AS i`.execute(db);
    await sql`
      INSERT INTO units (id, product_id, serial_number, status, condition)
      SELECT gen_random_uuid(), p.id, 'SN' || lpad(j::text, 8, '0'), 'in_stock', 'new'
      FROM generate_series(1, ${size.units}) AS j
      JOIN products p ON p.sku = 'SCAN-' || (j % ${WITH_UNITS} + 1)`.execute(db);
    const { token } = await createUser([
      "inventory.view",
      "repairs.view",
      "rentals.view",
      "accounts.view",
      "pos.view",
    ]);
    return { token, products: size.products, units: size.units };
  },
  request(i, { token, products, units }) {
    const n = (i * 7919) % products + 1;
    const code = [
      `scan-${n}`,
      `9${String(n).padStart(11, "0")}`,
      `09${String(n).padStart(11, "0")}`,
      `sn${String((i * 104729) % units + 1).padStart(8, "0")}`,
    ][i % 4]!;
    return { path: `/v1/scan/${code}`, headers: { Authorization: `Bearer ${token}` } };
  },
  pgbenchScript: statement.script,
  pgbenchDefines: statement.defines,
  bareStatement: statement.query,
  targets: { p50Ms: 2, p99Ms: 5 },
  // A shop on the embedded default has a counter or two: one client (the target) and, for the
  // record, ten at once (PGlite runs one statement at a time).
  embedded: [{ concurrency: 1, p50Ms: 5 }, { concurrency: 10 }],
};
