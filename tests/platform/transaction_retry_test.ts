/**
 * `withTransaction` runs a top-level unit of work again when it fails with a deadlock (40P01)
 * or a serialization failure (40001), up to three runs with a random pause, before the caller
 * gets the error (409 `concurrent_update`); a joined transaction leaves that to its owner
 * (issue 15 item 8).
 */
import type { Kysely } from "kysely";
import { assert, assertEquals, assertRejects } from "../_helpers/assert.ts";
import type { Database } from "../../app/db/database.ts";
import { TRANSACTION_ATTEMPTS, withTransaction } from "../../app/db/transaction.ts";
import { toProblem } from "../../server/errors.ts";
import { createTestDatabase, type TestDatabase, testServerUrl } from "../_helpers/test_db.ts";

let database: TestDatabase;
let db: Kysely<Database>;

Deno.test.beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
});
Deno.test.afterAll(async () => {
  await database.close();
});

function sqlError(code: string): Error {
  return Object.assign(new Error(`simulated ${code}`), { code });
}

async function addLocation(trx: Kysely<Database>, name: string): Promise<string> {
  const id = crypto.randomUUID();
  const now = new Date();
  await trx.insertInto("locations").values({ id, name, created_at: now, updated_at: now })
    .execute();
  return id;
}

async function locationNames(prefix: string): Promise<string[]> {
  const rows = await db.selectFrom("locations").select("name")
    .where("name", "like", `${prefix}%`).orderBy("name").execute();
  return rows.map((row) => row.name);
}

Deno.test("a serialization failure or deadlock re-runs the whole unit of work", async () => {
  for (const code of ["40001", "40P01"]) {
    let runs = 0;
    const result = await withTransaction(db, async (trx) => {
      runs++;
      await addLocation(trx, `retry-${code}-run-${runs}`);
      if (runs < TRANSACTION_ATTEMPTS) throw sqlError(code);
      return "done";
    });
    assertEquals(result, "done");
    assertEquals(runs, TRANSACTION_ATTEMPTS);
    // The failed runs were rolled back: only the last run's write is left.
    assertEquals(await locationNames(`retry-${code}-`), [`retry-${code}-run-3`]);
  }
});

Deno.test("after the last run the conflict reaches the caller as 409 concurrent_update", async () => {
  let runs = 0;
  const error = await assertRejects(() =>
    withTransaction(db, () => {
      runs++;
      return Promise.reject(sqlError("40P01"));
    })
  );
  assertEquals(runs, TRANSACTION_ATTEMPTS);
  const problem = toProblem(error, "req-1");
  assertEquals(problem.status, 409);
  assertEquals(problem.body.code, "concurrent_update");
});

Deno.test("other errors are not retried", async () => {
  for (const error of [sqlError("23505"), sqlError("CONNECTION_CLOSED"), new Error("bug")]) {
    let runs = 0;
    await assertRejects(() =>
      withTransaction(db, () => {
        runs++;
        return Promise.reject(error);
      })
    );
    assertEquals(runs, 1, error.message);
  }
});

Deno.test("a joined transaction does not retry on its own: its owner re-runs everything", async () => {
  let outer = 0;
  let inner = 0;
  await withTransaction(db, async (trx) => {
    outer++;
    await addLocation(trx, `joined-outer-${outer}`);
    await withTransaction(trx, async (joined) => {
      inner++;
      await addLocation(joined, `joined-inner-${inner}`);
      if (outer === 1) throw sqlError("40001");
    });
  });
  assertEquals({ outer, inner }, { outer: 2, inner: 2 });
  assertEquals(await locationNames("joined-"), ["joined-inner-2", "joined-outer-2"]);
});

Deno.test({
  name: "two transactions that deadlock on PostgreSQL both succeed, one after a retry",
  ignore: !testServerUrl(),
  async fn() {
    const [x, y] = [await addLocation(db, "deadlock-x"), await addLocation(db, "deadlock-y")];
    let bothHoldOne!: () => void;
    const barrier = new Promise<void>((resolve) => (bothHoldOne = resolve));
    let holding = 0;
    const runs = { a: 0, b: 0 };
    const lockBoth = (who: "a" | "b", first: string, second: string) =>
      withTransaction(db, async (trx) => {
        runs[who]++;
        const rename = (id: string) =>
          trx.updateTable("locations").set({ name: `deadlock-${who}` }).where("id", "=", id)
            .execute();
        await rename(first);
        if (runs[who] === 1) {
          if (++holding === 2) bothHoldOne();
          await barrier;
        }
        await rename(second);
        return who;
      });
    const results = await Promise.all([lockBoth("a", x, y), lockBoth("b", y, x)]);
    assertEquals(results, ["a", "b"]);
    assertEquals(runs.a + runs.b, 3, JSON.stringify(runs));
    assert(runs.a === 2 || runs.b === 2);
  },
});

Deno.test("a query through the pool inside a transaction's work fails at once instead of waiting forever", async () => {
  // On the embedded engine the transaction holds the only session: this query used to wait
  // for it forever (and every request behind it). Both engines refuse it, naming the mistake.
  await assertRejects(
    () =>
      withTransaction(db, async (trx) => {
        await addLocation(trx, "nested-pool-query");
        await db.selectFrom("locations").select("id").execute();
      }),
    Error,
    "inside a transaction's work",
  );
  assertEquals(await locationNames("nested-pool-query"), [], "the transaction rolled back");
  // A transaction opened on the pool from inside another one is the same mistake.
  await assertRejects(
    () => withTransaction(db, () => withTransaction(db, () => Promise.resolve())),
    Error,
    "inside a transaction's work",
  );
  // Work started inside that queries once the transaction has ended may use the pool.
  let ended!: () => void;
  const transactionEnded = new Promise<void>((resolve) => (ended = resolve));
  let later: Promise<unknown> | undefined;
  await withTransaction(db, (trx) => {
    later = transactionEnded.then(() => locationNames("after-commit-pool-query"));
    return addLocation(trx, "after-commit-pool-query");
  });
  ended();
  assertEquals(await later, ["after-commit-pool-query"]);
  // And joining the transaction (passing trx) is how work composes.
  await withTransaction(
    db,
    (trx) => withTransaction(trx, (inner) => addLocation(inner, "composed-by-trx")),
  );
  assertEquals(await locationNames("composed-by-trx"), ["composed-by-trx"]);
});
