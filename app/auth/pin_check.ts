/**
 * Checking an employee number + PIN against the wrong-PIN counter (API §2): the one check
 * behind PIN login and the POS manager override codes, so a code cannot be guessed through
 * either door. A wrong PIN (or an unknown employee number) counts one failure for the
 * employee number, in a transaction of its own; five failures within the window lock it for a
 * while, even with the right PIN. The bcrypt comparison runs outside any transaction.
 */
import type { Transaction } from "kysely";
import {
  afterPinFailure,
  type PinFailureState,
  pinLockRemainingSeconds,
} from "../../domain/auth/pin.ts";
import type { Database } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { verifySecret } from "./passwords.ts";
import { findPinFailures, lockPinFailures, savePinFailures } from "./pin_failures_repo.ts";
import { type Credentials, findCredentialsByEmployeeNumber } from "./users_repo.ts";

/** The employee whose PIN matched (active or not: the caller decides), without any hash. */
export type PinHolder = Omit<Credentials, "passwordHash" | "pinHash">;

export type PinCheck =
  /** Too many wrong PINs: nothing was compared. */
  | { outcome: "locked"; retryAfterSeconds: number }
  /** Unknown employee number or wrong PIN: one more failure was counted (`state`). */
  | { outcome: "wrong"; userId: string | null; state: PinFailureState }
  | { outcome: "ok"; user: PinHolder };

/**
 * Checks `pin` for `employeeNumber`. `onFailure` runs in the transaction that counts a
 * failure (PIN login audits it there). A success does not reset the counter: PIN login does
 * (`clearPinFailures`), a manager override does not.
 */
export async function checkEmployeePin(
  deps: Pick<AppDeps, "db" | "clock" | "config">,
  employeeNumber: string,
  pin: string,
  onFailure?: (
    trx: Transaction<Database>,
    failure: { userId: string | null; state: PinFailureState },
  ) => Promise<void>,
): Promise<PinCheck> {
  const now = deps.clock.now();
  const retryAfterSeconds = pinLockRemainingSeconds(
    await findPinFailures(deps.db, employeeNumber),
    now,
  );
  if (retryAfterSeconds > 0) return { outcome: "locked", retryAfterSeconds };
  const user = await findCredentialsByEmployeeNumber(deps.db, employeeNumber);
  const ok = await verifySecret(pin, user?.pinHash, deps.config.bcryptCost);
  if (!user || !ok) {
    const state = await withTransaction(deps.db, async (trx) => {
      const next = afterPinFailure(await lockPinFailures(trx, employeeNumber, now), now);
      await savePinFailures(trx, employeeNumber, next);
      await onFailure?.(trx, { userId: user?.id ?? null, state: next });
      return next;
    });
    return { outcome: "wrong", userId: user?.id ?? null, state };
  }
  const { passwordHash: _password, pinHash: _pin, ...holder } = user;
  return { outcome: "ok", user: holder };
}
