/**
 * The bench's size knob (issue 23): `BENCH_SCALE=small|shop10y` seeds a whole shop through
 * bulk SQL (`INSERT … SELECT generate_series`, never the HTTP API), then `VACUUM ANALYZE`.
 *
 *  - `shop10y`: a busy shop after ten years: 1,000,000 transactions (2.5 lines and about one
 *    payment each), 1,000,000 lesson sessions, 1,000,000 audit events, 200,000 products,
 *    500,000 units, 100,000 accounts (150,000 members), 100,000 repair tickets, 50,000 rentals.
 *  - `small`: a tenth of that (the size the everyday bench measures at).
 *
 * Distributions a shop has: sales grow over the years (transaction `i` of `n` falls on day
 * `3650·(1 − √(i/n))` before today, so recent days are the busiest), a few products sell most
 * (a line's product is `⌊P·u⁴⌋` for uniform `u`), most accounts buy rarely, 97% of sales are
 * complete, 1% voided, 2% refunded; most repair tickets are picked up and most rentals
 * returned. Ids are `bench_id(kind || n)` (an md5 shaped as a v4 uuid), so rows refer to each other without lookups, and
 * `setseed` makes every run seed the same shop.
 */
import { type Kysely, sql } from "kysely";
import type { Database } from "../app/db/database.ts";
import { REFRESH_EVERY_UNPAID_SINCE } from "../app/rentals/charges_repo.ts";
import { refreshEverySearchCopy } from "../app/search_copies.ts";

export type ScaleName = "small" | "shop10y";

export interface ScaleSizes {
  products: number;
  units: number;
  accounts: number;
  transactions: number;
  lessonSessions: number;
  auditEvents: number;
  stockReceipts: number;
  repairTickets: number;
  rentals: number;
}

export const SCALES: Record<ScaleName, ScaleSizes> = {
  small: {
    products: 20_000,
    units: 50_000,
    accounts: 10_000,
    transactions: 100_000,
    lessonSessions: 100_000,
    auditEvents: 100_000,
    stockReceipts: 20_000,
    repairTickets: 10_000,
    rentals: 5_000,
  },
  shop10y: {
    products: 200_000,
    units: 500_000,
    accounts: 100_000,
    transactions: 1_000_000,
    lessonSessions: 1_000_000,
    auditEvents: 1_000_000,
    stockReceipts: 200_000,
    repairTickets: 100_000,
    rentals: 50_000,
  },
};

export function scaleFromEnv(): ScaleName | undefined {
  const value = Deno.env.get("BENCH_SCALE");
  if (!value) return undefined;
  if (value !== "small" && value !== "shop10y") {
    throw new Error(`BENCH_SCALE must be small or shop10y, not "${value}"`);
  }
  return value;
}

/**
 * The name of catalogue product `i` (SQL over a column `i`): brand × finish × kind (20 × 10 ×
 * 20) with a model number, so "vintage bass" matches 1 product in 200.
 */
export const PRODUCT_NAME = `
        (ARRAY['Fender','Gibson','Yamaha','Ibanez','Martin','Taylor','Roland','Korg','Shure',
               'Boss','Ernie Ball','Addario','Zildjian','Pearl','Selmer','Conn','Bach','Casio',
               'Epiphone','Gretsch'])[i % 20 + 1] || ' ' ||
        (ARRAY['Deluxe','Standard','Classic','Pro','Studio','Vintage','Custom','Junior','Elite',
               'Player'])[(i / 400) % 10 + 1] || ' ' ||
        (ARRAY['Guitar','Bass','Amplifier','Strings','Pick','Cable','Drum','Cymbal','Keyboard',
               'Microphone','Pedal','Stand','Case','Strap','Tuner','Trumpet','Saxophone',
               'Clarinet','Violin','Ukulele'])[(i / 20) % 20 + 1] || ' ' || (i % 997)::text`;

const DAYS = 3650;
const REGISTERS = 6;
const SLOTS = 100;
const SESSIONS_PER_ENROLLMENT = 50;

/** Ids and sample values the list bench uses as filter values (busy account, hot product, ...). */
export interface ScaleSamples {
  accountId: string;
  memberId: string;
  productId: string;
  serializedProductId: string;
  locationId: string;
  registerId: string;
  drawerSessionId: string;
  supplierId: string;
  categoryId: string;
  instructorId: string;
  lessonTypeId: string;
  slotId: string;
  enrollmentId: string;
  repairTicketId: string;
  serialNumber: string;
}

/** `bench_id(kind || n)` as the seed makes it (for the samples above). */
async function idOf(db: Kysely<Database>, kind: string, n: number | string): Promise<string> {
  const { rows } = await sql<{ id: string }>`SELECT bench_id(${kind + n}) AS id`
    .execute(db);
  return rows[0]!.id;
}

/**
 * Steps that read no sales: they run beside the sales' steps, on a second connection (on two
 * cores the large seed took 652 s one step after the other).
 */
const BESIDE_THE_SALES = new Set([
  "audit events",
  "lessons: instructors, types, slots, enrollments",
  "lesson sessions",
  "stock receipts",
  "repair tickets",
]);

/** Seeds the shop at `scale` on a migrated, otherwise empty database, step by step (timed). */
export async function seedScale(
  db: Kysely<Database>,
  scale: ScaleName,
  log: (line: string) => void = console.log,
): Promise<ScaleSamples> {
  const s = SCALES[scale];
  const P = s.products, U = s.units, A = s.accounts, T = s.transactions;
  const M = Math.round(A * 1.5);
  const E = Math.ceil(s.lessonSessions / SESSIONS_PER_ENROLLMENT);
  const steps: Array<[string, string | ((db: Kysely<Database>) => Promise<void>)]> = [
    // A v4-shaped uuid from the md5 of a key (the API refuses ids of another version).
    [
      "id function",
      `
      CREATE OR REPLACE FUNCTION bench_id(key text) RETURNS uuid IMMUTABLE LANGUAGE sql AS
        'SELECT (substr(md5(key), 1, 12) || ''4'' || substr(md5(key), 14, 3) || ''8''
                 || substr(md5(key), 18, 15))::uuid'`,
    ],

    // A multiplicative hash: a product's category, stock and state independent of its name.
    [
      "mix function",
      `
      CREATE OR REPLACE FUNCTION mix(n bigint) RETURNS bigint IMMUTABLE LANGUAGE sql AS
        'SELECT ((n * 2654435761) % 4294967296) / 7'`,
    ],
    [
      "locations, registers, categories, suppliers",
      `
      INSERT INTO locations (id, name) SELECT bench_id('loc' || i)::uuid, 'Store ' || i
        FROM generate_series(1, 3) i;
      INSERT INTO registers (id, name, location_id)
        SELECT bench_id('reg' || i)::uuid, 'Register ' || i, bench_id('loc' || ((i - 1) / 2 + 1))::uuid
        FROM generate_series(1, ${REGISTERS}) i;
      INSERT INTO categories (id, name) SELECT bench_id('cat' || i)::uuid, 'Category ' || i
        FROM generate_series(1, 50) i;
      INSERT INTO suppliers (id, name, email)
        SELECT bench_id('sup' || i)::uuid, 'Supplier ' || i, 'orders' || i || '@supplier.test'
        FROM generate_series(1, 500) i`,
    ],
    [
      "products",
      `
      INSERT INTO products (id, name, sku, type, is_consumable, category_id, price, cost,
        qty_on_hand, reorder_point, is_active, created_at, updated_at)
      SELECT bench_id('p' || i)::uuid,
        ${PRODUCT_NAME},
        'SC-' || lpad(i::text, 7, '0'),
        CASE WHEN i % 20 < 14 THEN 'standard' WHEN i % 20 < 17 THEN 'serialized'
             WHEN i % 20 = 17 THEN 'rental' WHEN i % 20 = 18 THEN 'consumable' ELSE 'repair' END,
        i % 20 = 18,
        bench_id('cat' || (mix(i) % 50 + 1))::uuid,
        ((i % 5000) + 99) / 100.0, ((i % 3000) + 50) / 100.0,
        mix(i + 7) % 20, 3, mix(i + 13) % 25 <> 0,
        now() - make_interval(days => ${DAYS} * i / ${P}),
        now()
      FROM generate_series(1, ${P}) i`,
    ],
    [
      "price history",
      `
      INSERT INTO product_price_history (id, product_id, price, previous_price, changed_at)
      SELECT bench_id('ph' || i)::uuid, bench_id('p' || ((i - 1) % ${P} + 1))::uuid,
        ((i % 5000) + 99) / 100.0, CASE WHEN i > ${P} THEN 9.99 END,
        now() - make_interval(days => (i * 7) % ${DAYS})
      FROM generate_series(1, ${Math.round(P * 1.25)}) i`,
    ],
    // Unit j belongs to a serialized product (even j) or a rental one (odd j).
    [
      "units",
      `
      INSERT INTO units (id, product_id, serial_number, status, condition, created_at,
        updated_at)
      SELECT bench_id('u' || j)::uuid,
        bench_id('p' || (((j / 2) % ${
        P / 20
      }) * 20 + CASE WHEN j % 2 = 0 THEN 15 ELSE 17 END))::uuid,
        'SN' || lpad(j::text, 9, '0'),
        CASE WHEN j % 2 = 1 THEN (CASE WHEN j % 10 < 3 THEN 'rented' ELSE 'in_stock' END)
             WHEN j % 100 < 60 THEN 'sold' WHEN j % 100 < 92 THEN 'in_stock'
             WHEN j % 100 < 97 THEN 'in_repair' ELSE 'retired' END,
        (ARRAY['new','excellent','good','fair','poor'])[j % 5 + 1],
        now() - make_interval(days => ${DAYS} * j / ${U}), now()
      FROM generate_series(1, ${U}) j`,
    ],
    [
      "accounts and members",
      `
      INSERT INTO accounts (id, account_number, name, email, phone, created_at, updated_at)
      SELECT bench_id('a' || i)::uuid, 'A-' || lpad(i::text, 6, '0'),
        (ARRAY['Smith','Johnson','Williams','Brown','Jones','Garcia','Miller','Davis',
               'Rodriguez','Martinez','Hernandez','Lopez','Gonzalez','Wilson','Anderson',
               'Thomas','Taylor','Moore','Jackson','Martin'])[i % 20 + 1] || ' ' ||
        (ARRAY['Alex','Sam','Jordan','Taylor','Morgan','Casey','Riley','Jamie','Avery',
               'Quinn'])[(i / 20) % 10 + 1] || ' ' || i || ' - Account',
        'customer' || i || '@example.test', '+1 555 ' || lpad((i % 10000)::text, 4, '0'),
        now() - make_interval(days => ${DAYS} * (${A} - i) / ${A}), now()
      FROM generate_series(1, ${A}) i;
      INSERT INTO members (id, account_id, first_name, last_name, is_minor, email)
      SELECT bench_id('m' || k)::uuid, bench_id('a' || ((k - 1) % ${A} + 1))::uuid,
        (ARRAY['Alex','Sam','Jordan','Taylor','Morgan','Casey','Riley','Jamie','Avery',
               'Quinn'])[(k / 7) % 10 + 1],
        (ARRAY['Smith','Johnson','Williams','Brown','Jones','Garcia','Miller','Davis',
               'Rodriguez','Martinez','Hernandez','Lopez','Gonzalez','Wilson','Anderson',
               'Thomas','Taylor','Moore','Jackson','Martin'])[((k - 1) % ${A} + 1) % 20 + 1],
        k > ${A}, 'member' || k || '@example.test'
      FROM generate_series(1, ${M}) k;
      UPDATE accounts SET primary_member_id = bench_id('m' || substr(account_number, 3)::int)::uuid`,
    ],
    [
      "drawer sessions",
      `
      INSERT INTO drawer_sessions (id, register_id, location_id, status, opening_balance,
        closing_balance, expected_balance, over_short, opened_at, closed_at)
      SELECT bench_id('ds' || r || ':' || d)::uuid, bench_id('reg' || r)::uuid,
        bench_id('loc' || ((r - 1) / 2 + 1))::uuid, 'closed', 100, 100, 100, 0,
        date_trunc('day', now()) - make_interval(days => d, hours => -9),
        date_trunc('day', now()) - make_interval(days => d, hours => -18)
      FROM generate_series(1, ${REGISTERS}) r, generate_series(1, ${DAYS}) d`,
    ],
    [
      "transactions",
      `
      SELECT setseed(0.23);
      INSERT INTO transactions (id, number, type, status, location_id, register_id, account_id,
        drawer_session_id, original_transaction_id, subtotal, tax_total, total, amount_paid,
        reason, void_reason, completed_at, voided_at, created_at, updated_at)
      SELECT bench_id('t' || i)::uuid, i,
        CASE WHEN i % 50 = 0 THEN 'refund' ELSE 'sale' END,
        CASE WHEN i > ${T - 20} THEN 'pending' WHEN i % 100 = 7 THEN 'voided'
             ELSE 'complete' END,
        bench_id('loc' || ((i % ${REGISTERS}) / 2 + 1))::uuid,
        bench_id('reg' || (i % ${REGISTERS} + 1))::uuid,
        CASE WHEN i % 5 < 2 THEN bench_id('a' || (floor(power(random(), 3) * ${A}) + 1))::uuid END,
        CASE WHEN i <= ${
        T - 20
      } THEN bench_id('ds' || (i % ${REGISTERS} + 1) || ':' || d)::uuid END,
        CASE WHEN i % 50 = 0 THEN bench_id('t' || (i - 1))::uuid END,
        sign * 25.00 * lines, sign * 2.00 * lines, sign * 27.00 * lines,
        CASE WHEN i > ${T - 20} OR i % 100 = 7 THEN 0 ELSE sign * 27.00 * lines END,
        CASE WHEN i % 50 = 0 THEN 'Customer changed their mind' END,
        CASE WHEN i % 100 = 7 THEN 'Rung up twice' END,
        CASE WHEN i <= ${T - 20} AND i % 100 <> 7 THEN at + interval '2 minutes' END,
        CASE WHEN i % 100 = 7 THEN at + interval '5 minutes' END,
        at, at
      FROM (
        SELECT i, d, CASE WHEN i % 50 = 0 THEN -1 ELSE 1 END AS sign,
          CASE WHEN i % 50 = 0 THEN 1 ELSE 1 + i % 4 END AS lines,
          CASE WHEN i > ${T - 20} THEN now() - make_interval(mins => ${T} - i + 1)
               ELSE date_trunc('day', now()) - make_interval(days => d)
                 + make_interval(hours => 9, mins => (i * 7) % 540) END AS at
        FROM (SELECT i, greatest(1, floor(${DAYS} * (1 - sqrt(i::float8 / ${T})))::int) AS d
              FROM generate_series(1, ${T}) i) days
      ) t`,
    ],
    [
      "transaction lines",
      `
      SELECT setseed(0.29);
      INSERT INTO transaction_items (id, transaction_id, kind, product_id, original_item_id,
        description, quantity, unit_price, tax_category, gross, net, tax, created_at)
      SELECT bench_id('ti' || t.number || ':' || l.j)::uuid, t.id, 'sale', p.id,
        CASE WHEN t.type = 'refund' THEN bench_id('ti' || (t.number - 1) || ':1')::uuid END,
        p.name, 1, 25.00, 'goods', 25.00, 25.00, 2.00, t.created_at
      FROM transactions t
      CROSS JOIN LATERAL (
        SELECT j, floor(power(random(), 4) * ${P}) + 1 AS product
        FROM generate_series(1, CASE WHEN t.type = 'refund' THEN 1 ELSE 1 + t.number % 4 END) j
      ) l
      JOIN products p ON p.id = bench_id('p' || l.product)::uuid`,
    ],
    [
      "payments",
      `
      INSERT INTO payments (id, transaction_id, method, amount, tendered, is_refund, created_at)
      SELECT bench_id('pay' || number)::uuid, id,
        (ARRAY['cash','card','card','check','store_credit','card','cash','card','other','card'])[number % 10 + 1],
        total, total, type = 'refund', completed_at
      FROM transactions WHERE status = 'complete'`,
    ],
    [
      "audit events",
      `
      INSERT INTO audit_log (id, at, actor_email, action, entity_type, entity_id, details)
      SELECT bench_id('au' || i)::uuid,
        date_trunc('day', now()) - make_interval(days => greatest(1,
          floor(${DAYS} * (1 - sqrt(i::float8 / ${s.auditEvents})))::int))
          + make_interval(hours => 9, mins => (i * 7) % 540),
        'staff' || (i % 12) || '@shop.test',
        (ARRAY['pos.transaction_completed','auth.login','inventory.product_updated',
               'pos.drawer_closed','accounts.account_updated','lessons.session_attended',
               'repairs.ticket_status_changed','rentals.rental_billed'])[i % 8 + 1],
        (ARRAY['transaction','user','product','drawer_session','account','lesson_session',
               'repair_ticket','rental'])[i % 8 + 1],
        bench_id('t' || i)::uuid::text,
        jsonb_build_object('n', i)
      FROM generate_series(1, ${s.auditEvents}) i`,
    ],
    [
      "lessons: instructors, types, slots, enrollments",
      `
      INSERT INTO instructors (id, first_name, last_name, email)
        SELECT bench_id('ins' || i)::uuid, 'Teacher', 'Number ' || i, 'teacher' || i || '@shop.test'
        FROM generate_series(1, 20) i;
      INSERT INTO lesson_types (id, name, duration_minutes, rate_monthly)
        SELECT bench_id('lt' || i)::uuid,
          (ARRAY['Guitar','Piano','Drums','Violin','Voice'])[i] || ' lesson', 30, 120
        FROM generate_series(1, 5) i;
      INSERT INTO schedule_slots (id, instructor_id, lesson_type_id, day_of_week, start_minute,
        duration_minutes, max_students, rate_monthly, location_id)
        SELECT bench_id('slot' || i)::uuid, bench_id('ins' || (i % 20 + 1))::uuid,
          bench_id('lt' || (i % 5 + 1))::uuid, i % 6 + 1, 900 + (i % 8) * 30, 30, 1000, 120,
          bench_id('loc' || (i % 3 + 1))::uuid
        FROM generate_series(1, ${SLOTS}) i;
      INSERT INTO enrollments (id, member_id, slot_id, status, start_date, end_date,
        billing_interval, rate)
        SELECT bench_id('en' || e)::uuid, bench_id('m' || ((e * 7) % ${M} + 1))::uuid,
          bench_id('slot' || (e % ${SLOTS} + 1))::uuid,
          CASE WHEN start > current_date - 350 THEN 'active' WHEN e % 10 = 0 THEN 'withdrawn'
               ELSE 'completed' END,
          start, CASE WHEN start > current_date - 350 THEN NULL ELSE start + 343 END,
          'monthly', 120
        FROM (SELECT e, current_date - ${DAYS} + (e::bigint * ${DAYS} / ${E})::int AS start
              FROM generate_series(1, ${E}) e) x`,
    ],
    [
      "lesson sessions",
      `
      INSERT INTO lesson_sessions (id, enrollment_id, slot_id, member_id, instructor_id, date,
        start_minute, end_minute, status, created_at, updated_at)
      SELECT bench_id('ls' || n)::uuid, bench_id('en' || e)::uuid,
        bench_id('slot' || (e % ${SLOTS} + 1))::uuid,
        bench_id('m' || ((e * 7) % ${M} + 1))::uuid,
        bench_id('ins' || ((e % ${SLOTS} + 1) % 20 + 1))::uuid,
        day, 900 + ((e % ${SLOTS} + 1) % 8) * 30, 930 + ((e % ${SLOTS} + 1) % 8) * 30,
        CASE WHEN day >= current_date THEN 'scheduled' WHEN n % 20 = 0 THEN 'missed'
             WHEN n % 20 = 1 THEN 'cancelled' ELSE 'attended' END,
        now(), now()
      FROM (SELECT n, (n - 1) % ${E} + 1 AS e,
              current_date - ${DAYS} + (((n - 1) % ${E} + 1)::bigint * ${DAYS} / ${E})::int
                + 7 * ((n - 1) / ${E})::int AS day
            FROM generate_series(1, ${E * SESSIONS_PER_ENROLLMENT}) n) x`,
    ],
    [
      "stock receipts",
      `
      SELECT setseed(0.31);
      INSERT INTO stock_receipts (id, product_id, supplier_id, quantity, cost_per_unit,
        invoice_number, stock_incremented, received_at, created_at)
      SELECT bench_id('sr' || i)::uuid,
        bench_id('p' || (floor(power(random(), 3) * ${P}) + 1))::uuid,
        bench_id('sup' || (i % 500 + 1))::uuid, 1 + i % 24, 12.50, 'INV-' || i, true, at, at
      FROM (SELECT i, now() - make_interval(days => greatest(0,
              floor(${DAYS} * (1 - sqrt(i::float8 / ${s.stockReceipts})))::int)) AS at
            FROM generate_series(1, ${s.stockReceipts}) i) x`,
    ],
    [
      "repair tickets",
      `
      SELECT setseed(0.37);
      INSERT INTO repair_tickets (id, ticket_number, account_id, status, status_changed_at,
        item_description, serial_number, location_id, customer_total, internal_cost,
        created_at, updated_at)
      SELECT bench_id('rt' || i)::uuid, 'R-' || lpad(i::text, 6, '0'),
        bench_id('a' || (floor(power(random(), 2) * ${A}) + 1))::uuid,
        CASE WHEN i > ${s.repairTickets - 300}
               THEN (ARRAY['new','intake','in_progress','pending_parts','ready_for_pickup'])[i % 5 + 1]
             WHEN i % 25 = 0 THEN 'cancelled' ELSE 'picked_up' END,
        at + interval '3 days',
        (ARRAY['Acoustic guitar','Electric bass','Trumpet','Alto saxophone','Violin',
               'Clarinet','Snare drum','Keyboard'])[i % 8 + 1] || ': ' ||
        (ARRAY['re-string and set-up','crack repair','valve cleaning','pad replacement',
               'bridge reglue','fret dress','new head','key contact repair'])[(i / 8) % 8 + 1],
        CASE WHEN i % 2 = 0 THEN 'SN' || lpad((i * 5)::text, 9, '0') END,
        bench_id('loc' || (i % 3 + 1))::uuid, 85.00, 12.00, at, at
      FROM (SELECT i, now() - make_interval(days => greatest(0,
              floor(${DAYS} * (1 - sqrt(i::float8 / ${s.repairTickets})))::int)) AS at
            FROM generate_series(1, ${s.repairTickets}) i) x`,
    ],
    // Rental i rents unit 2i - 1 (a rental product's unit; each unit at most once).
    [
      "rentals and their charges",
      `
      INSERT INTO rentals (id, number, account_id, member_id, product_id, unit_id, start_date,
        billing_interval, rate, status, returned_at, cancelled_at, created_at, updated_at)
      SELECT bench_id('rn' || i)::uuid, i, bench_id('a' || ((i * 13) % ${A} + 1))::uuid,
        bench_id('m' || ((i * 13) % ${A} + 1))::uuid,
        bench_id('p' || ((((2 * i - 1) / 2) % ${P / 20}) * 20 + 17))::uuid,
        bench_id('u' || (2 * i - 1))::uuid, start, 'monthly', 29.99,
        CASE WHEN start > current_date - 300 THEN 'active' WHEN i % 20 = 0 THEN 'cancelled'
             WHEN i % 20 = 1 THEN 'purchased' ELSE 'returned' END,
        CASE WHEN start <= current_date - 300 AND i % 20 > 1 THEN start + 180 END,
        CASE WHEN start <= current_date - 300 AND i % 20 = 0 THEN start + 10 END,
        start, start
      FROM (SELECT i, current_date - ${DAYS} + (i::bigint * ${DAYS} / ${s.rentals})::int AS start
            FROM generate_series(1, ${s.rentals}) i) x;
      INSERT INTO rental_charges (id, rental_id, period_start, period_end, due_date, amount,
        status, paid_transaction_id, paid_at)
      SELECT bench_id('rc' || r.number || ':' || k)::uuid, r.id,
        r.start_date + 30 * k, r.start_date + 30 * k + 29, r.start_date + 30 * k, 29.99,
        CASE WHEN r.status = 'active' AND r.number % 10 = 0 AND k = 5 THEN 'unpaid' ELSE 'paid' END,
        CASE WHEN r.status = 'active' AND r.number % 10 = 0 AND k = 5 THEN NULL
             ELSE bench_id('t' || (r.number * 17 % ${T - 100} + 1))::uuid END,
        CASE WHEN r.status = 'active' AND r.number % 10 = 0 AND k = 5 THEN NULL
             ELSE (r.start_date + 30 * k)::timestamptz END
      FROM rentals r, generate_series(0, 5) k;
      ${REFRESH_EVERY_UNPAID_SINCE}`,
    ],
    [
      "sequences",
      `
      SELECT setval('account_number_seq', ${A});
      SELECT setval('transactions_number_seq', ${T});
      SELECT setval('repair_ticket_number_seq', ${s.repairTickets});
      SELECT setval('rentals_number_seq', ${s.rentals})`,
    ],
    // The copies of names kept for searches (accounts, members, rentals, enrollments), as the
    // use cases keep them.
    ["search copies", refreshEverySearchCopy],
    ["vacuum analyze", `VACUUM ANALYZE`],
  ];
  const total = performance.now();
  const runSteps = async (lane: typeof steps) => {
    for (const [label, statements] of lane) {
      const started = performance.now();
      if (typeof statements === "function") await statements(db);
      else {
        // One statement per query (the extended protocol takes one); no literal holds ";\n".
        for (const text of statements.split(/;\s*\n/).map((t) => t.trim()).filter(Boolean)) {
          await sql.raw(text).execute(db);
        }
      }
      log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  };
  // The sales (transactions, their lines, their payments: half the seed) on one connection,
  // the steps that need none of them beside it on another: one core each.
  const beside = steps.filter(([label]) => BESIDE_THE_SALES.has(label));
  const inTurn = steps.filter(([label]) => !BESIDE_THE_SALES.has(label));
  const salesFrom = inTurn.findIndex(([label]) => label === "transactions");
  const salesTo = inTurn.findIndex(([label]) => label === "payments") + 1;
  if (salesFrom < 0 || salesTo <= salesFrom) throw new Error("the sales' steps are missing");
  await runSteps(inTurn.slice(0, salesFrom));
  await Promise.all([runSteps(inTurn.slice(salesFrom, salesTo)), runSteps(beside)]);
  await runSteps(inTurn.slice(salesTo));
  log(`  seeded ${scale} in ${((performance.now() - total) / 1000).toFixed(1)} s`);
  return await scaleSamples(db, scale);
}

/** The sample ids of a database seeded at `scale` (also of one seeded by an earlier run). */
export async function scaleSamples(db: Kysely<Database>, scale: ScaleName): Promise<ScaleSamples> {
  const s = SCALES[scale];
  const E = Math.ceil(s.lessonSessions / SESSIONS_PER_ENROLLMENT);
  const id = (kind: string, n: number | string) => idOf(db, kind, n);
  return {
    accountId: await id("a", 1),
    memberId: await id("m", 1),
    productId: await id("p", 1),
    serializedProductId: await id("p", 15),
    locationId: await id("loc", 1),
    registerId: await id("reg", 1),
    drawerSessionId: await id("ds", "1:1"),
    supplierId: await id("sup", 1),
    categoryId: await id("cat", 1),
    instructorId: await id("ins", 1),
    lessonTypeId: await id("lt", 1),
    slotId: await id("slot", 1),
    enrollmentId: await id("en", E),
    repairTicketId: await id("rt", s.repairTickets),
    serialNumber: "SN000000010",
  };
}
