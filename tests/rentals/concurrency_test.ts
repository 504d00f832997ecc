/**
 * Concurrency on real PostgreSQL (skipped on the embedded database, which has one
 * connection): rentals of one unit at once (exactly one succeeds), terminals completing
 * payments of one charge at once (it is paid once), billing runs at once (no charge twice),
 * and a rent refund with the buyout that counted that rent (one of them wins).
 */
import { Kysely } from "kysely";
import type { Database } from "../../app/db/database.ts";
import { postgresClient } from "../../app/db/postgres_client.ts";
import { PostgresDialect } from "../../app/db/postgres_dialect.ts";
import { lockRental } from "../../app/rentals/rentals_repo.ts";
import { assertEquals } from "../_helpers/assert.ts";
import { api, type ApiResponse, type TestApp } from "../_helpers/test_app.ts";
import { sql, testServerUrl } from "../_helpers/test_db.ts";
import {
  call,
  chargesOf,
  makeFamily,
  makeInstrument,
  makeRental,
  payAndComplete,
  rentalsSuite,
  type RentalUsers,
  staleUnpaidSince,
  startRentalPayment,
  storeWithDrawer,
  today,
} from "./_fixtures.ts";

let t: TestApp;
let u: RentalUsers;
rentalsSuite((s) => ({ t, u } = s));

const ignore = !testServerUrl();

Deno.test({
  name: "eight rentals of one unit at once: exactly one succeeds, the others get unit_unavailable",
  ignore,
  async fn() {
    const { product, units } = await makeInstrument(t, u);
    const families = await Promise.all(Array.from({ length: 8 }, () => makeFamily(t, u)));
    const start = await today(t);
    const answers = await Promise.all(families.map((f) =>
      api(t.app, "POST", "/v1/rentals", {
        token: u.desk.token,
        body: {
          accountId: f.account.id,
          productId: product.id,
          unitId: units[0].id,
          startDate: start,
          billingInterval: "monthly",
          rate: "30.00",
        },
      })
    ));
    const statuses = answers.map((a) => a.status).sort();
    assertEquals(statuses, [201, 409, 409, 409, 409, 409, 409, 409]);
    for (const a of answers.filter((a) => a.status === 409)) {
      assertEquals(a.body.code, "unit_unavailable");
    }
    const rows = await t.deps.db.selectFrom("rentals").select("id")
      .where("unit_id", "=", units[0].id).execute();
    assertEquals(rows.length, 1);
  },
});

Deno.test({
  name: "six terminals complete payments of one charge at once: it is paid exactly once",
  ignore,
  async fn() {
    const store = await storeWithDrawer(t, u);
    const rental = await makeRental(t, u, {
      startDate: await today(t, -1),
      rentToOwn: { purchasePrice: "500.00", equityPercent: "25.00" },
    });
    await call(t, u.desk, "POST", "/v1/rentals/charges/generate", {}, 200);
    const [charge] = await chargesOf(t, u, rental.id);
    const payments = [];
    for (let i = 0; i < 6; i++) {
      const tx = await startRentalPayment(t, u, store.locationId, [charge.id]);
      await call(t, u.cashier, "POST", `/v1/transactions/${tx.id}/payments`, {
        method: "card",
        amount: tx.balanceDue,
      });
      payments.push(tx);
    }
    const answers = await Promise.all(
      payments.map((tx) =>
        api(t.app, "POST", `/v1/transactions/${tx.id}/complete`, {
          token: u.cashier.token,
          body: {},
        })
      ),
    );
    assertEquals(answers.map((a) => a.status).sort(), [200, 409, 409, 409, 409, 409]);
    const after = await chargesOf(t, u, rental.id);
    assertEquals(after[0].status, "paid");
    const winner = payments[answers.findIndex((a) => a.status === 200)]!;
    assertEquals(after[0].paidTransactionId, winner.id);
    const view = await call(t, u.viewer, "GET", `/v1/rentals/${rental.id}`);
    assertEquals([view.equity, view.payoffAmount], ["10.00", "490.00"]);
    assertEquals(await staleUnpaidSince(t, [rental.id]), []);
  },
});

Deno.test({
  name: "four billing runs at once create each charge once",
  ignore,
  async fn() {
    const rentals = await Promise.all(
      Array.from({ length: 6 }, () => makeRental(t, u, { startDate: "2025-01-15" })),
    );
    const through = "2025-12-31";
    const runs = await Promise.all(
      Array.from({ length: 4 }, () =>
        api(t.app, "POST", "/v1/rentals/charges/generate", {
          token: u.desk.token,
          body: { through },
        })),
    );
    assertEquals(runs.map((r) => r.status), [200, 200, 200, 200]);
    const created = runs.reduce((sum, r) => sum + r.body.created, 0);
    const rows = await t.deps.db.selectFrom("rental_charges").select(["rental_id", "period_start"])
      .where("rental_id", "in", rentals.map((r) => r.id)).execute();
    assertEquals(rows.length, 6 * 12);
    assertEquals(new Set(rows.map((r) => `${r.rental_id}/${r.period_start}`)).size, 6 * 12);
    // Every run counted each period of these rentals once: created by it, or skipped.
    for (const run of runs) assertEquals(run.body.created + run.body.skipped >= 72, true);
    assertEquals(created >= 72, true);
  },
});

Deno.test({
  name: "billing runs while terminals pay charges of several rentals at once: every one succeeds",
  ignore,
  async fn() {
    const store = await storeWithDrawer(t, u);
    const family = await makeFamily(t, u);
    const rentals = [];
    for (let i = 0; i < 4; i++) {
      const { product, units } = await makeInstrument(t, u);
      rentals.push(
        await makeRental(t, u, {
          accountId: family.account.id,
          memberId: family.member.id,
          productId: product.id,
          unitId: units[0].id,
          startDate: "2025-01-10",
          rentToOwn: { purchasePrice: "400.00", equityPercent: "50.00" },
        }),
      );
    }
    await call(t, u.desk, "POST", "/v1/rentals/charges/generate", { through: "2025-03-31" }, 200);
    // Three payments, each of one month of every rental, in rental orders that differ,
    // completed together with two billing runs for the months after.
    const byMonth = new Map<string, string[]>();
    for (const rental of rentals) {
      for (const charge of await chargesOf(t, u, rental.id)) {
        byMonth.set(charge.periodStart, [...(byMonth.get(charge.periodStart) ?? []), charge.id]);
      }
    }
    const months = [...byMonth.values()];
    assertEquals(months.map((ids) => ids.length), [4, 4, 4]);
    const payments = [];
    for (const [i, ids] of months.entries()) {
      payments.push(
        await startRentalPayment(t, u, store.locationId, i % 2 ? ids : [...ids].reverse()),
      );
    }
    const [completed, runs] = await Promise.all([
      Promise.all(payments.map((tx) => payAndComplete(t, u, tx))),
      Promise.all([0, 1].map(() =>
        api(t.app, "POST", "/v1/rentals/charges/generate", {
          token: u.desk.token,
          body: { through: "2025-09-30" },
        })
      )),
    ]);
    assertEquals(completed.map((tx) => tx.status), ["complete", "complete", "complete"]);
    assertEquals(runs.map((run) => run.status), [200, 200]);
    for (const rental of rentals) {
      const view = await call(t, u.viewer, "GET", `/v1/rentals/${rental.id}`);
      // Nine months billed, three paid (each accruing half its 40.00 as equity).
      assertEquals([view.balanceDue, view.equity, view.payoffAmount], [
        "240.00",
        "60.00",
        "340.00",
      ]);
    }
    // Each rental's oldest unpaid charge is April's, whichever transaction took its lock last.
    assertEquals(await staleUnpaidSince(t, rentals.map((r) => r.id)), []);
    const since = await t.deps.db.selectFrom("rentals").select("unpaid_since")
      .where("id", "in", rentals.map((r) => r.id)).execute();
    assertEquals(since.map((r) => r.unpaid_since), [
      "2025-04-10",
      "2025-04-10",
      "2025-04-10",
      "2025-04-10",
    ]);
  },
});

/** A rent-to-own rental with one month paid and a buyout sale of its payoff, paid, pending. */
async function paidRentAndBuyout(locationId: string) {
  const rental = await makeRental(t, u, {
    startDate: await today(t, -1),
    rentToOwn: { purchasePrice: "500.00", equityPercent: "50.00" },
  });
  await call(t, u.desk, "POST", "/v1/rentals/charges/generate", {}, 200);
  const [charge] = await chargesOf(t, u, rental.id);
  const rent = await payAndComplete(t, u, await startRentalPayment(t, u, locationId, [charge.id]));
  const buyout = await call(t, u.desk, "POST", `/v1/rentals/${rental.id}/buyout`, { locationId });
  assertEquals(buyout.subtotal, "480.00");
  await call(t, u.cashier, "POST", `/v1/transactions/${buyout.id}/payments`, {
    method: "card",
    amount: buyout.balanceDue,
  });
  const refund = () =>
    api(t.app, "POST", `/v1/transactions/${rent.id}/refunds`, {
      token: u.cashier.token,
      body: { items: [{ itemId: rent.items[0].id, quantity: 1 }], method: "card", reason: "x" },
    });
  const complete = () =>
    api(t.app, "POST", `/v1/transactions/${buyout.id}/complete`, {
      token: u.cashier.token,
      body: {},
    });
  return { rental, refund, complete };
}

/**
 * Exactly one of a rent refund and the completion of the buyout that counts that rent
 * succeeded, and the rental agrees; which one ("buyout" or "refund").
 */
async function oneOfThemWon(
  rentalId: string,
  done: ApiResponse,
  refunded: ApiResponse,
): Promise<"buyout" | "refund"> {
  const view = await call(t, u.viewer, "GET", `/v1/rentals/${rentalId}`);
  const [charge] = await chargesOf(t, u, rentalId);
  if (done.status === 200) {
    // The buyout won: it counted the rent, which stays paid.
    assertEquals([refunded.status, refunded.body.code], [409, "equity_consumed"], refunded.text);
    assertEquals([view.status, view.payoffAmount, charge.status], ["purchased", "480.00", "paid"]);
    return "buyout";
  }
  // The refund won: the equity went back, and the sale is refused at its stale payoff.
  assertEquals([done.status, done.body.code, done.body.payoffAmount], [
    409,
    "payoff_changed",
    "500.00",
  ], done.text);
  assertEquals(refunded.status, 201, refunded.text);
  assertEquals([view.status, view.payoffAmount, charge.status], ["active", "500.00", "unpaid"]);
  return "refund";
}

Deno.test({
  name:
    "rent refunds and the completions of the buyouts counting that rent at once: one of each pair wins",
  ignore,
  async fn() {
    const store = await storeWithDrawer(t, u);
    const pairs = [];
    for (let i = 0; i < 4; i++) pairs.push(await paidRentAndBuyout(store.locationId));
    // Each pair fired together, the refund first in half of them and the completion in the rest.
    await Promise.all(pairs.map(async ({ rental, refund, complete }, i) => {
      let done: ApiResponse, refunded: ApiResponse;
      if (i % 2) [done, refunded] = await Promise.all([complete(), refund()]);
      else [refunded, done] = await Promise.all([refund(), complete()]);
      await oneOfThemWon(rental.id, done, refunded);
    }));
  },
});

/**
 * Sends `first` and then `second` while another session holds the rental's lock, each once
 * the one before waits on a lock, then lets them go: they take the rental's lock in that order.
 */
async function inLockOrder(
  rentalId: string,
  first: () => Promise<ApiResponse>,
  second: () => Promise<ApiResponse>,
): Promise<[ApiResponse, ApiResponse]> {
  const other = new Kysely<Database>({
    dialect: new PostgresDialect({
      postgres: postgresClient(t.database.url!, { max: 1, onnotice: () => {} }),
    }),
  });
  const sent: Promise<ApiResponse>[] = [];
  try {
    await other.transaction().execute(async (trx) => {
      await lockRental(trx, rentalId);
      for (const request of [first, second]) {
        const answer = request();
        sent.push(answer);
        let settled = false;
        answer.then(() => (settled = true), () => (settled = true));
        for (let i = 0; i < 500 && !settled; i++) {
          const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n
            FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(t.deps.db);
          if (rows[0]!.n >= sent.length) break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        assertEquals(settled, false, "a request went through while the rental was locked");
      }
    });
  } finally {
    await other.destroy();
  }
  return [await sent[0]!, await sent[1]!];
}

Deno.test({
  name: "a rent refund and the buyout counting it: whichever takes the rental's lock first wins",
  ignore,
  async fn() {
    const store = await storeWithDrawer(t, u);
    // The refund first: the completion, waiting, then reads the payoff the refund left.
    const one = await paidRentAndBuyout(store.locationId);
    const [refunded, done] = await inLockOrder(one.rental.id, one.refund, one.complete);
    assertEquals(await oneOfThemWon(one.rental.id, done, refunded), "refund");
    // The completion first: the refund, waiting, then finds the rent counted.
    const two = await paidRentAndBuyout(store.locationId);
    const [done2, refunded2] = await inLockOrder(two.rental.id, two.complete, two.refund);
    assertEquals(await oneOfThemWon(two.rental.id, done2, refunded2), "buyout");
  },
});
