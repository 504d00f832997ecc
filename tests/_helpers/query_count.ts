/**
 * Completing a transaction on a database handle that counts the statements it sends, for the
 * tests that bound the queries of a completion (a sale, a repair payment).
 */
import type { Actor } from "../../app/actor.ts";
import { completeTransaction } from "../../app/pos/complete_transaction.ts";
import { assertEquals } from "./assert.ts";
import type { TestApp, TestUser } from "./test_app.ts";

/** Completes the (paid) transaction as `cashier` and returns how many statements it took. */
export async function completeCountingQueries(
  t: TestApp,
  cashier: TestUser,
  transactionId: string,
): Promise<number> {
  const counter = { queries: 0 };
  const db = t.deps.db.withPlugin({
    transformQuery(args) {
      counter.queries++;
      return args.node;
    },
    transformResult(args) {
      return Promise.resolve(args.result);
    },
  });
  const actor: Actor = {
    userId: cashier.id,
    email: cashier.email,
    kind: "access",
    permissions: new Set(["pos.edit", "pos.view"]),
  };
  const done = await completeTransaction({ ...t.deps, db }, actor, transactionId, undefined);
  assertEquals(done.status, "complete");
  return counter.queries;
}
