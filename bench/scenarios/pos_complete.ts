/**
 * `POST /v1/transactions/:id/complete` of a paid 3-line sale, over 100,000 past completed
 * transactions (300,000 lines, 100,000 payments) seeded by SQL with generate_series. Ten
 * stores, each with one register and an open drawer; three products per store. The sales to
 * complete (created and paid by SQL as `POST /transactions` + `/payments` would leave them)
 * alternate between the stores, so 10 concurrent terminals sell at 10 stores at once.
 * Run it alone with `BENCH_ONLY=complete BENCH_CONCURRENCY=10 deno task bench`; over a
 * million past sales, on a database the size bench kept: `BENCH_SCALE=shop10y
 * BENCH_SCALE_KEEP=1 deno task bench`, then `BENCH_SCALE_DATABASE_URL=<its URL> BENCH_ONLY=complete`.
 */
import { type RawBuilder, sql } from "kysely";
import type { Scenario } from "./_scenario.ts";

const STORES = 10;
const HISTORY = 100_000;
/** Enough sales to complete at ~3,500 requests/s through the warm-up and a 30 s run. */
const PENDING = 120_000;

/**
 * A UUIDv7 for the time `at` (a SQL timestamp expression), as the app's `uuidv7()` makes ids:
 * transactions created through the API get time-ordered ids, so their index entries land
 * near each other (random v4 ids would scatter every insert and update across the indexes).
 */
function uuidv7At(at: RawBuilder<unknown>) {
  return sql`encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing
    substring(int8send(floor(extract(epoch FROM ${at}) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
    52, 1), 53, 1), 'hex')::uuid`;
}

interface State {
  token: string;
  ids: string[];
  /** The next sale to complete: shared by the warm-up and the measured run. */
  next: number;
}

export const posComplete: Scenario<State> = {
  name: "POST /v1/transactions/:id/complete (3-line sale, 100k past)",
  async seed({ db, createUser }) {
    const { id: userId, token } = await createUser(["pos.edit"]);
    const now = new Date();
    const stores: { location: string; register: string; open: string; past: string }[] = [];
    for (let n = 0; n < STORES; n++) {
      const store = {
        location: crypto.randomUUID(),
        register: crypto.randomUUID(),
        open: crypto.randomUUID(),
        past: crypto.randomUUID(),
      };
      stores.push(store);
      await db.insertInto("locations").values({
        id: store.location,
        name: `Bench store ${n}`,
        created_at: now,
        updated_at: now,
      }).execute();
      await db.insertInto("registers").values({
        id: store.register,
        name: "Front",
        location_id: store.location,
        created_at: now,
        updated_at: now,
      }).execute();
      await db.insertInto("drawer_sessions").values([
        {
          id: store.past,
          register_id: store.register,
          location_id: store.location,
          status: "closed",
          opening_balance: "100.00",
          closing_balance: "100.00",
          expected_balance: "100.00",
          over_short: "0.00",
          opened_by: userId,
          opened_at: new Date(now.getTime() - 86_400_000),
          closed_at: new Date(now.getTime() - 3_600_000),
        },
        {
          id: store.open,
          register_id: store.register,
          location_id: store.location,
          status: "open",
          opening_balance: "100.00",
          opened_by: userId,
          opened_at: now,
        },
      ]).execute();
    }
    const products: { location: string; product: string }[] = [];
    for (const [n, store] of stores.entries()) {
      for (let k = 0; k < 3; k++) {
        const product = crypto.randomUUID();
        products.push({ location: store.location, product });
        await db.insertInto("products").values({
          id: product,
          name: `Bench product ${n}-${k}`,
          sku: `BENCH-POS-${n}-${k}-${product.slice(0, 8)}`,
          price: "10.00",
          qty_on_hand: 1_000_000,
          created_at: now,
          updated_at: now,
        }).execute();
      }
    }
    const storeValues = sql.join(
      stores.map((s, n) =>
        sql`(${n}::int, ${s.location}::uuid, ${s.register}::uuid, ${s.past}::uuid)`
      ),
    );
    const productValues = sql.join(
      products.map((p) => sql`(${p.location}::uuid, ${p.product}::uuid)`),
    );

    // 100,000 past sales in the closed sessions, each with 3 lines and a card payment.
    await sql`
      INSERT INTO transactions (id, type, status, location_id, register_id, drawer_session_id,
        subtotal, total, amount_paid, created_by, completed_by, completed_at, created_at, updated_at)
      SELECT ${uuidv7At(sql`now() - interval '2 hours' + g * interval '1 millisecond'`)},
        'sale', 'complete', s.location_id, s.register_id, s.past_id,
        30, 30, 30, ${userId}::uuid, ${userId}::uuid,
        now() - interval '2 hours' + g * interval '1 millisecond',
        now() - interval '2 hours' + g * interval '1 millisecond', now()
      FROM generate_series(1, ${HISTORY}) AS g
      JOIN (VALUES ${storeValues}) AS s(n, location_id, register_id, past_id) ON s.n = g % ${STORES}`
      .execute(db);
    // 120,000 pending, fully paid sales to complete, alternating between the stores.
    await sql`
      INSERT INTO transactions (id, type, status, location_id, register_id,
        subtotal, total, amount_paid, created_by, created_at, updated_at)
      SELECT ${uuidv7At(sql`now() + g * interval '1 microsecond'`)},
        'sale', 'pending', s.location_id, s.register_id,
        30, 30, 30, ${userId}::uuid, now() + g * interval '1 microsecond', now()
      FROM generate_series(1, ${PENDING}) AS g
      JOIN (VALUES ${storeValues}) AS s(n, location_id, register_id, past_id) ON s.n = g % ${STORES}`
      .execute(db);
    await sql`
      INSERT INTO transaction_items (id, transaction_id, kind, product_id, description, quantity,
        unit_price, tax_category, gross, net, created_at)
      SELECT ${uuidv7At(sql`t.created_at`)}, t.id, 'sale', p.product_id, 'Bench product', 1,
        10, 'goods', 10, 10, t.created_at
      FROM transactions t JOIN (VALUES ${productValues}) AS p(location_id, product_id)
        ON p.location_id = t.location_id`.execute(db);
    await sql`
      INSERT INTO payments (id, transaction_id, method, amount, tendered, change, created_by,
        created_at)
      SELECT ${uuidv7At(sql`t.created_at`)}, t.id, 'card', 30, 30, 0, ${userId}::uuid,
        t.created_at
      FROM transactions t JOIN (VALUES ${storeValues}) AS s(n, location_id, register_id, past_id)
        ON s.location_id = t.location_id`.execute(db);
    // Only this scenario's stores: a database seeded by the size bench has sales of its own.
    const rows = await db.selectFrom("transactions").select("id")
      .where("status", "=", "pending")
      .where("location_id", "in", stores.map((s) => s.location))
      .orderBy("created_at").execute();
    return { token, ids: rows.map((r) => r.id), next: 0 };
  },
  request(_i, state) {
    // The runner restarts `i` for the measured run: a shared counter never completes twice.
    const id = state.ids[state.next++ % state.ids.length];
    return {
      method: "POST",
      path: `/v1/transactions/${id}/complete`,
      headers: { Authorization: `Bearer ${state.token}` },
    };
  },
};
