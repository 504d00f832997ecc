/**
 * The SQL of wrong-PIN counters per employee number (PIN login and manager override codes
 * share them).
 *
 * Lock: a counter row is locked `FOR UPDATE` (`lockPinFailures`, which creates the row
 * first), so concurrent wrong PINs for one employee number are counted one after another.
 */
import type { Transaction } from "kysely";
import type { PinFailureState } from "../../domain/auth/pin.ts";
import type { Database, Db } from "../db/database.ts";

function selectPinFailures(db: Db, employeeNumber: string) {
  return db.selectFrom("pin_login_failures")
    .select([
      "failures",
      "first_failure_at as firstFailureAt",
      "locked_until as lockedUntil",
    ])
    .where("employee_number", "=", employeeNumber);
}

export function findPinFailures(
  db: Db,
  employeeNumber: string,
): Promise<PinFailureState | undefined> {
  return selectPinFailures(db, employeeNumber).executeTakeFirst();
}

/**
 * Makes sure the employee number's row exists and locks it `FOR UPDATE` until the
 * transaction ends; the state, or undefined when no failure is counted yet (a new row).
 */
export async function lockPinFailures(
  trx: Transaction<Database>,
  employeeNumber: string,
  now: Date,
): Promise<PinFailureState | undefined> {
  await trx.insertInto("pin_login_failures")
    .values({ employee_number: employeeNumber, failures: 0, first_failure_at: now })
    .onConflict((oc) => oc.column("employee_number").doNothing())
    .execute();
  const state = await selectPinFailures(trx, employeeNumber).forUpdate().executeTakeFirst();
  return state && state.failures > 0 ? state : undefined;
}

export async function savePinFailures(
  db: Db,
  employeeNumber: string,
  state: PinFailureState,
): Promise<void> {
  await db.updateTable("pin_login_failures").set({
    failures: state.failures,
    first_failure_at: state.firstFailureAt,
    locked_until: state.lockedUntil,
  }).where("employee_number", "=", employeeNumber).execute();
}

export async function clearPinFailures(db: Db, employeeNumber: string): Promise<void> {
  await db.deleteFrom("pin_login_failures").where("employee_number", "=", employeeNumber)
    .execute();
}
