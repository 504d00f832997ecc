/**
 * The voids of a drawer report among 20,000 voided transactions (PostgreSQL only): those
 * completed into the session come through `transactions_session_idx`, the pending ones voided
 * at its register through `transactions_pending_void_idx`; the transactions are never scanned.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { customPlan, onPostgres, withPlanDatabase } from "../_helpers/query_plans.ts";
import { sql } from "../_helpers/test_db.ts";
import { findVoidsOfSessions } from "../../app/pos/reports_repo.ts";

const VOIDS = 20_000;
const SESSION = "00000000-0000-4000-8000-00000000a001";
const FRONT = "00000000-0000-4000-8000-00000000b001";
const OPENED = "2026-11-21T14:00:00.000Z";

const plans = withPlanDatabase(async (t) => {
  const db = t.deps.db;
  const location = await sql<{ id: string }>`
    INSERT INTO locations (id, name) VALUES (gen_random_uuid(), 'Void store') RETURNING id`
    .execute(db);
  const locationId = location.rows[0]!.id;
  await sql`
    INSERT INTO registers (id, name, location_id)
    SELECT CASE WHEN i = 0 THEN ${FRONT}::uuid ELSE gen_random_uuid() END, 'Till ' || i,
      ${locationId}::uuid
    FROM generate_series(0, 19) AS i`.execute(db);
  await sql`
    INSERT INTO drawer_sessions (id, register_id, location_id, status, opening_balance, opened_at)
    VALUES (${SESSION}::uuid, ${FRONT}::uuid, ${locationId}::uuid, 'open', 100, ${OPENED})`
    .execute(db);
  // Pending sales voided at every register over a year; the front till's last few today.
  await sql`
    INSERT INTO transactions (id, number, type, status, location_id, register_id, total,
      voided_at, created_at, updated_at)
    SELECT gen_random_uuid(), nextval('transactions_number_seq'), 'sale', 'voided',
      ${locationId}::uuid, (SELECT id FROM registers ORDER BY name OFFSET i % 20 LIMIT 1), 10,
      ${OPENED}::timestamptz - make_interval(hours => ${VOIDS} + 1 - i), now(), now()
    FROM generate_series(1, ${VOIDS}) AS i`.execute(db);
  await sql`
    INSERT INTO transactions (id, number, type, status, location_id, register_id, total,
      drawer_session_id, voided_at, created_at, updated_at)
    SELECT gen_random_uuid(), nextval('transactions_number_seq'), 'sale', 'voided',
      ${locationId}::uuid, ${FRONT}::uuid, 5, ${SESSION}::uuid,
      ${OPENED}::timestamptz + make_interval(mins => i), now(), now()
    FROM generate_series(1, 3) AS i`.execute(db);
  await sql`
    INSERT INTO transactions (id, number, type, status, location_id, register_id, total,
      voided_at, created_at, updated_at)
    SELECT gen_random_uuid(), nextval('transactions_number_seq'), 'sale', 'voided',
      ${locationId}::uuid, ${FRONT}::uuid, 7, ${OPENED}::timestamptz + make_interval(mins => i),
      now(), now()
    FROM generate_series(1, 2) AS i`.execute(db);
  await sql`VACUUM ANALYZE transactions`.execute(db);
});

Deno.test({
  name: "a session's voids come through two indexes, never a scan of the transactions",
  ignore: !onPostgres,
  async fn() {
    let voids!: Awaited<ReturnType<typeof findVoidsOfSessions>>;
    const [query] = await plans.traced.queriesOf(async () => {
      voids = await findVoidsOfSessions(plans.traced.db, [
        { id: SESSION, registerId: FRONT, openedAt: OPENED },
      ]);
    });
    assertEquals(voids.length, 5);
    const plan = await customPlan(plans.traced.db, query!);
    assert(/transactions_session_idx/.test(plan), plan);
    assert(/transactions_pending_void_idx/.test(plan), plan);
    assert(!/Seq Scan on transactions\b/.test(plan), plan);
  },
});
