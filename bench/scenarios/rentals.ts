/**
 * Rentals (issue 20), on 30,000 rentals (20,000 active) of 30,000 units and 10,000 accounts
 * seeded by SQL, each billed for its first five months (deterministic ids, ON CONFLICT DO
 * NOTHING, so the scenarios share the rows):
 *  - `GET /v1/rentals?overdue=true`: active rentals past their due date (1 in 16);
 *  - `GET /v1/rentals?pastDue=true`: rentals with a charge unpaid past the grace days (1 in
 *    40), both next to pgbench and the bare stack running the page statement;
 *  - `GET /v1/units/by-serial/<serial>`: a unit's life story (five indexed queries);
 *  - a timed scenario: billing the sixth month of the 20,000 active rentals (target < 3 s).
 * Targets: p99 under 20 ms at the bench's concurrency (default 10 clients).
 */
import { sql } from "kysely";
import { refreshEverySearchCopy } from "../../app/search_copies.ts";
import { SYSTEM_ACTOR } from "../../app/actor.ts";
import { generateCharges } from "../../app/rentals/charges.ts";
import { refreshEveryUnpaidSince } from "../../app/rentals/charges_repo.ts";
import { listRentals } from "../../app/rentals/rentals_repo.ts";
import { rentalListQuery } from "../../app/rentals/rental_schemas.ts";
import { addDays, storeLocalDate } from "../../domain/calendar.ts";
import { addMonthsClamped } from "../../domain/rentals/periods.ts";
import { pastDueCutoff } from "../../domain/rentals/rental_status.ts";
import { pgbenchFor } from "../_sql.ts";
import type { Scenario, SeedContext, TimedScenario } from "./_scenario.ts";

const RENTALS = 30_000;
const ACCOUNTS = 10_000;
/** UTC today; the bench store keeps the default time zone, whose today may differ by a day. */
const TODAY = storeLocalDate(new Date(), "UTC");
/** Every rental started five months ago: periods 0..4 are billed, period 5 starts today. */
const START = addMonthsClamped(TODAY, -5);

const overdue = await pgbenchFor((db) =>
  listRentals(db, { ...rentalListQuery.parse({}), overdueBefore: TODAY })
);
const pastDue = await pgbenchFor((db) =>
  listRentals(db, { ...rentalListQuery.parse({}), pastDueBefore: pastDueCutoff(TODAY, 10) })
);

/** Serial number of seeded unit `j`. */
function serialOf(j: number): string {
  return `RB-${String((j * 7919) % 1_000_003).padStart(7, "0")}`;
}

async function seedRentals({ db }: SeedContext): Promise<void> {
  await sql`
    INSERT INTO accounts (id, account_number, name, created_at, updated_at)
    SELECT md5('bra' || i)::uuid, 'RA-' || lpad(i::text, 6, '0'), 'Band Family ' || i, now(), now()
    FROM generate_series(1, ${ACCOUNTS}) AS i ON CONFLICT DO NOTHING`.execute(db);
  await sql`
    INSERT INTO members (id, account_id, first_name, last_name)
    SELECT md5('brm' || i)::uuid, md5('bra' || i)::uuid, 'Student', 'Player ' || i
    FROM generate_series(1, ${ACCOUNTS}) AS i ON CONFLICT DO NOTHING`.execute(db);
  await sql`
    INSERT INTO products (id, name, sku, price, type)
    SELECT md5('brp' || i)::uuid, 'Student instrument ' || i, 'BRP-' || i, 600, 'rental'
    FROM generate_series(1, 20) AS i ON CONFLICT DO NOTHING`.execute(db);
  await sql`
    INSERT INTO units (id, product_id, serial_number, status, condition)
    SELECT md5('bru' || j)::uuid, md5('brp' || (j % 20 + 1))::uuid,
      'RB-' || lpad(((j::bigint * 7919) % 1000003)::text, 7, '0'),
      CASE WHEN j % 3 = 0 THEN 'in_stock' ELSE 'rented' END, 'good'
    FROM generate_series(1, ${RENTALS}) AS j ON CONFLICT DO NOTHING`.execute(db);
  await sql`
    INSERT INTO unit_history (id, unit_id, kind, status, condition, source, at)
    SELECT md5('bruh' || j)::uuid, md5('bru' || j)::uuid, 'created', 'in_stock', 'good', 'unit',
      now() - interval '200 days'
    FROM generate_series(1, ${RENTALS}) AS j ON CONFLICT DO NOTHING`.execute(db);
  await sql`
    INSERT INTO rentals (id, account_id, member_id, product_id, unit_id, start_date, due_date,
      billing_interval, rate, status, rent_to_own_price, rent_to_own_percent, created_at)
    SELECT md5('brr' || j)::uuid, md5('bra' || (j % ${ACCOUNTS} + 1))::uuid,
      md5('brm' || (j % ${ACCOUNTS} + 1))::uuid, md5('brp' || (j % 20 + 1))::uuid,
      md5('bru' || j)::uuid, ${START}::date, ${TODAY}::date - 25 + (j % 400), 'monthly', 40,
      CASE WHEN j % 3 = 0 THEN 'returned' ELSE 'active' END, 600, 50,
      now() - make_interval(mins => j)
    FROM generate_series(1, ${RENTALS}) AS j ON CONFLICT DO NOTHING`.execute(db);
  // Five months billed; the fifth unpaid for one rental in 40.
  await sql`
    INSERT INTO rental_charges (id, rental_id, period_start, period_end, due_date, amount, status,
      paid_transaction_id, equity)
    SELECT md5('brc' || j || '-' || k)::uuid, md5('brr' || j)::uuid, p.s, p.e, p.s, 40,
      CASE WHEN k < 4 OR j % 40 <> 0 THEN 'paid' ELSE 'unpaid' END,
      CASE WHEN k < 4 OR j % 40 <> 0 THEN md5('brt' || j || '-' || k)::uuid END,
      CASE WHEN k < 4 OR j % 40 <> 0 THEN 20 ELSE 0 END
    FROM generate_series(1, ${RENTALS}) AS j, generate_series(0, 4) AS k,
      LATERAL (SELECT (${START}::date + make_interval(months => k))::date AS s,
                      (${START}::date + make_interval(months => k + 1))::date - 1 AS e) AS p
    ON CONFLICT DO NOTHING`.execute(db);
  // The copies of names the searches read, as the use cases keep them.
  await refreshEverySearchCopy(db);
  await refreshEveryUnpaidSince(db);
}

function listScenario(
  name: string,
  query: string,
  statement: Awaited<ReturnType<typeof pgbenchFor>>,
): Scenario<{ token: string }> {
  return {
    name,
    async seed(ctx) {
      await seedRentals(ctx);
      return { token: (await ctx.createUser(["rentals.view"])).token };
    },
    request(_i, { token }) {
      return { path: `/v1/rentals?${query}`, headers: { Authorization: `Bearer ${token}` } };
    },
    pgbenchScript: statement.script,
    pgbenchDefines: statement.defines,
    bareStatement: statement.query,
    targets: { p99Ms: 20 },
  };
}

export const rentalsOverdue = listScenario(
  "GET /v1/rentals?overdue=true (1,250 of 30,000 rentals)",
  "overdue=true",
  overdue,
);

export const rentalsPastDue = listScenario(
  "GET /v1/rentals?pastDue=true (750 of 30,000 rentals)",
  "pastDue=true",
  pastDue,
);

export const unitTimeline: Scenario<{ token: string }> = {
  name: "GET /v1/units/by-serial/:serial (30,000 units)",
  async seed(ctx) {
    await seedRentals(ctx);
    return { token: (await ctx.createUser(["inventory.view"])).token };
  },
  request(i, { token }) {
    return {
      path: `/v1/units/by-serial/${serialOf((i * 97) % RENTALS + 1)}`,
      headers: { Authorization: `Bearer ${token}` },
    };
  },
  targets: { p99Ms: 20 },
};

export const rentalsBilling: TimedScenario<{ through: string }> = {
  kind: "timed",
  name: "rentals: bill a month of 20,000 active rentals",
  async seed(ctx) {
    await seedRentals(ctx);
    return { through: addDays(TODAY, 1) };
  },
  async run(ctx, { through }) {
    const deps = ctx.deps();
    const started = performance.now();
    const first = await generateCharges(deps, SYSTEM_ACTOR, { through });
    const ms = performance.now() - started;
    const again = performance.now();
    const second = await generateCharges(deps, SYSTEM_ACTOR, { through });
    const rerunMs = performance.now() - again;
    console.log(
      `  billing: created ${first.created} charges for ${first.rentals} rentals in ` +
        `${ms.toFixed(0)} ms; rerun created ${second.created} in ${rerunMs.toFixed(0)} ms`,
    );
    return {
      ms,
      details: { created: first.created, rentals: first.rentals, rerunMs: Math.round(rerunMs) },
    };
  },
  targets: { ms: 3000 },
};
