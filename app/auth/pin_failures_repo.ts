/**
 * The SQL of the wrong-PIN counters (PIN login and manager override codes share them), one
 * row per counter key (`pinCounterKey` in domain/auth/pin.ts: the user's, or the number's
 * for a number nobody holds).
 *
 * Lock: a counter row is locked `FOR UPDATE` (`lockPinFailures`, which creates the row
 * first), so concurrent attempts on one counter are reserved and released one after
 * another. A row is never deleted while attempts may be in flight (a reservation waiting for
 * the lock would find no row to count on): clearing sets the count back to zero.
 */
import type { Transaction } from "kysely";
import type { PinFailureState } from "../../domain/auth/pin.ts";
import type { Database, Db } from "../db/database.ts";

function selectPinFailures(db: Db, key: string) {
  return db.selectFrom("pin_login_failures")
    .select([
      "failures",
      "first_failure_at as firstFailureAt",
      "locked_until as lockedUntil",
    ])
    .where("counter_key", "=", key);
}

/**
 * Makes sure the counter's row exists and locks it `FOR UPDATE` until the transaction ends;
 * the state, or undefined when no failure is counted (a new or cleared row).
 */
export async function lockPinFailures(
  trx: Transaction<Database>,
  key: string,
  now: Date,
): Promise<PinFailureState | undefined> {
  await trx.insertInto("pin_login_failures")
    .values({ counter_key: key, failures: 0, first_failure_at: now })
    .onConflict((oc) => oc.column("counter_key").doNothing())
    .execute();
  const state = await selectPinFailures(trx, key).forUpdate().executeTakeFirst();
  return state && state.failures > 0 ? state : undefined;
}

/** Stores the state of a row locked by {@link lockPinFailures}; undefined clears it. */
export async function savePinFailures(
  trx: Transaction<Database>,
  key: string,
  state: PinFailureState | undefined,
  now: Date,
): Promise<void> {
  await trx.updateTable("pin_login_failures").set({
    failures: state?.failures ?? 0,
    first_failure_at: state?.firstFailureAt ?? now,
    locked_until: state?.lockedUntil ?? null,
  }).where("counter_key", "=", key).execute();
}

/** Sets the count back to zero (no lock), e.g. after a successful PIN login. */
export async function clearPinFailures(db: Db, key: string, now: Date): Promise<void> {
  await db.updateTable("pin_login_failures")
    .set({ failures: 0, first_failure_at: now, locked_until: null })
    .where("counter_key", "=", key).execute();
}
