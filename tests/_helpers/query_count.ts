/**
 * Database handles that count the statements they send: completing a transaction, for the
 * tests that bound the queries of a completion (a sale, a repair payment), and any read.
 */
import type { Kysely } from "kysely";
import type { Actor } from "../../app/actor.ts";
import type { Database } from "../../app/db/database.ts";
import { completeTransaction } from "../../app/pos/complete_transaction.ts";
import { assertEquals } from "./assert.ts";
import type { TestApp, TestUser } from "./test_app.ts";

/** Completes the (paid) transaction as `cashier` and returns how many statements it took. */
export async function completeCountingQueries(
  t: TestApp,
  cashier: TestUser,
  transactionId: string,
): Promise<number> {
  const counted = countingStatements(t.deps.db);
  const actor: Actor = {
    userId: cashier.id,
    email: cashier.email,
    kind: "access",
    permissions: new Set(["pos.edit", "pos.view"]),
  };
  const done = await completeTransaction(
    { ...t.deps, db: counted.db },
    actor,
    transactionId,
    undefined,
  );
  assertEquals(done.status, "complete");
  return counted.count();
}

/**
 * `db`, counting the statements run through it: counted as results, since `transformQuery`
 * also sees statements compiled and not run (a memoized list's parts).
 */
export function countingStatements(
  db: Kysely<Database>,
): { db: Kysely<Database>; count(): number } {
  let statements = 0;
  const counted = db.withPlugin({
    transformQuery: (args) => args.node,
    transformResult(args) {
      statements++;
      return Promise.resolve(args.result);
    },
  });
  return { db: counted, count: () => statements };
}
