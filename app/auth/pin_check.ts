/**
 * Checking an employee number + PIN against the wrong-PIN counter (API §2): the one check
 * behind PIN login and the POS manager override codes, so a code cannot be guessed through
 * either door.
 *
 * The counter is the user's who holds the employee number (`pinCounterKey`), so it follows
 * them when they are renumbered: a new number gives no fresh guesses. A number nobody holds
 * counts on a counter of its own, and answers exactly like a wrong PIN.
 *
 * Each attempt is reserved before the PIN is compared: in a short transaction of its own the
 * counter row is locked, refused while locked, else counted as a failure
 * (`reservePinAttempt`; the fifth in the window locks). Only then does bcrypt run, outside any
 * transaction; an accepted PIN gives its attempt back (`releasePinAttempt`). So parallel
 * attempts for one user are counted one after another and at most five are ever compared
 * per window, however many arrive at once.
 */
import type { Transaction } from "kysely";
import {
  type PinAttempt,
  pinCounterKey,
  type PinFailureState,
  releasePinAttempt,
  reservePinAttempt,
  userPinCounterKey,
} from "../../domain/auth/pin.ts";
import type { Database } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { verifySecret } from "./passwords.ts";
import { clearPinFailures, lockPinFailures, savePinFailures } from "./pin_failures_repo.ts";
import { type Credentials, findCredentialsByEmployeeNumber } from "./users_repo.ts";

/** The employee whose PIN matched (active or not: the caller decides), without any hash. */
export type PinHolder = Omit<Credentials, "passwordHash" | "pinHash">;

export type PinCheck =
  /** Too many wrong PINs: nothing was compared. */
  | { outcome: "locked"; retryAfterSeconds: number }
  /**
   * Unknown employee number, wrong PIN, or a right PIN of a holder `accept` refused: the
   * attempt stays counted (`state`).
   */
  | { outcome: "wrong"; userId: string | null; state: PinFailureState }
  | { outcome: "ok"; user: PinHolder };

type PinDeps = Pick<AppDeps, "db" | "clock" | "config">;

export interface PinCheckOptions {
  /**
   * Whether the holder of a matching PIN is accepted (default: always); one refused counts
   * as a wrong PIN, so a refusal and a wrong PIN cannot be told apart by the lockout either.
   */
  accept?: (holder: PinHolder) => boolean | Promise<boolean>;
  /** Runs in a transaction of its own after a counted failure (the callers audit it there). */
  onFailure?: (
    trx: Transaction<Database>,
    failure: { userId: string | null; state: PinFailureState },
  ) => Promise<void>;
}

/** Locks the counter and reserves one attempt (counted unless refused). */
function reserveAttempt(deps: PinDeps, key: string): Promise<PinAttempt> {
  return withTransaction(deps.db, async (trx) => {
    const now = deps.clock.now();
    const attempt = reservePinAttempt(await lockPinFailures(trx, key, now), now);
    if (attempt.allowed) await savePinFailures(trx, key, attempt.state, now);
    return attempt;
  });
}

/** Gives back an attempt whose PIN was accepted. */
function releaseAttempt(deps: PinDeps, key: string): Promise<void> {
  return withTransaction(deps.db, async (trx) => {
    const now = deps.clock.now();
    const state = await lockPinFailures(trx, key, now);
    await savePinFailures(trx, key, releasePinAttempt(state), now);
  });
}

/** Forgets the user's wrong PINs (after a successful PIN login). */
export async function clearUserPinFailures(
  deps: Pick<AppDeps, "db" | "clock">,
  userId: string,
): Promise<void> {
  await clearPinFailures(deps.db, userPinCounterKey(userId), deps.clock.now());
}

/**
 * Checks `pin` for `employeeNumber`: find its holder, reserve the attempt on their counter,
 * compare, then release it when the PIN matched and `accept` took its holder. A success does
 * not reset the earlier failures: PIN login does that itself (`clearUserPinFailures`), a
 * manager override does not.
 */
export async function checkEmployeePin(
  deps: PinDeps,
  employeeNumber: string,
  pin: string,
  options: PinCheckOptions = {},
): Promise<PinCheck> {
  const user = await findCredentialsByEmployeeNumber(deps.db, employeeNumber);
  const key = pinCounterKey(employeeNumber, user?.id);
  const attempt = await reserveAttempt(deps, key);
  if (!attempt.allowed) {
    return { outcome: "locked", retryAfterSeconds: attempt.retryAfterSeconds };
  }
  const ok = await verifySecret(pin, user?.pinHash, deps.config.bcryptCost);
  if (user && ok) {
    const { passwordHash: _password, pinHash: _pin, ...holder } = user;
    if (await (options.accept?.(holder) ?? true)) {
      await releaseAttempt(deps, key);
      return { outcome: "ok", user: holder };
    }
  }
  const failure = { userId: user?.id ?? null, state: attempt.state };
  const onFailure = options.onFailure;
  if (onFailure) await withTransaction(deps.db, (trx) => onFailure(trx, failure));
  return { outcome: "wrong", ...failure };
}
