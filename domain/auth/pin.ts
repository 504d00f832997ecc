/**
 * PIN login (API §2): the 8-digit code is the 4-digit employee number followed by the
 * 4-digit PIN; after 5 wrong PINs for one employee number, PIN login for it is refused for
 * 15 minutes, even with the right PIN. The same counter covers manager-override codes (§8).
 * The counter belongs to the user holding the number (`pinCounterKey`): it follows them when
 * they are renumbered.
 *
 * Each attempt is counted *before* the PIN is compared (`reservePinAttempt`), and given back
 * when the PIN turns out right (`releasePinAttempt`): parallel attempts therefore cannot get
 * more than {@link PIN_MAX_FAILURES} comparisons per window, however many arrive at once.
 */

export const PIN_PATTERN = /^[0-9]{4}$/;
export const EMPLOYEE_NUMBER_PATTERN = /^[0-9]{4}$/;
export const PIN_CODE_PATTERN = /^[0-9]{8}$/;
export const PIN_MAX_FAILURES = 5;
export const PIN_LOCK_SECONDS = 15 * 60;
/** Failures older than this no longer count towards the lockout. */
export const PIN_FAILURE_WINDOW_SECONDS = 15 * 60;

/**
 * The wrong-PIN counter an attempt counts on: the user's (`userPinCounterKey`) when the
 * employee number belongs to one, so renumbering them starts no fresh count, else the
 * number's own, so guesses at a number nobody holds are counted and answered alike.
 */
export function pinCounterKey(employeeNumber: string, userId: string | null | undefined): string {
  return userId ? userPinCounterKey(userId) : `number:${employeeNumber}`;
}

/** The wrong-PIN counter of a user, whatever their employee number. */
export function userPinCounterKey(userId: string): string {
  return `user:${userId}`;
}

export function splitPinCode(code: string): { employeeNumber: string; pin: string } {
  if (!PIN_CODE_PATTERN.test(code)) throw new RangeError("A PIN code has exactly 8 digits");
  return { employeeNumber: code.slice(0, 4), pin: code.slice(4) };
}

export interface PinFailureState {
  failures: number;
  firstFailureAt: Date;
  lockedUntil: Date | null;
}

/** Seconds the employee number stays locked at `now`, or 0 when PIN login may be tried. */
export function pinLockRemainingSeconds(state: PinFailureState | undefined, now: Date): number {
  if (!state?.lockedUntil) return 0;
  const remaining = (state.lockedUntil.getTime() - now.getTime()) / 1000;
  return remaining > 0 ? Math.ceil(remaining) : 0;
}

/** The state after one more wrong PIN: the fifth failure in the window locks. */
export function afterPinFailure(state: PinFailureState | undefined, now: Date): PinFailureState {
  const windowExpired = !state ||
    now.getTime() - state.firstFailureAt.getTime() > PIN_FAILURE_WINDOW_SECONDS * 1000 ||
    (state.lockedUntil !== null && state.lockedUntil.getTime() <= now.getTime());
  const failures = windowExpired ? 1 : state.failures + 1;
  const firstFailureAt = windowExpired ? now : state.firstFailureAt;
  const lockedUntil = failures >= PIN_MAX_FAILURES
    ? new Date(now.getTime() + PIN_LOCK_SECONDS * 1000)
    : null;
  return { failures, firstFailureAt, lockedUntil };
}

/** The answer to "may one more PIN be compared for this employee number now?". */
export type PinAttempt =
  /** Locked: nothing may be compared for `retryAfterSeconds`. */
  | { allowed: false; retryAfterSeconds: number }
  /** Allowed, and already counted as a failure in `state` (released if the PIN is right). */
  | { allowed: true; state: PinFailureState };

/**
 * Reserves one attempt: refused while the number is locked; otherwise counted up front as a
 * wrong PIN ({@link afterPinFailure}: the fifth in the window locks, so a sixth parallel
 * attempt is refused before its PIN is compared).
 */
export function reservePinAttempt(state: PinFailureState | undefined, now: Date): PinAttempt {
  const retryAfterSeconds = pinLockRemainingSeconds(state, now);
  if (retryAfterSeconds > 0) return { allowed: false, retryAfterSeconds };
  return { allowed: true, state: afterPinFailure(state, now) };
}

/**
 * Gives back an attempt reserved by {@link reservePinAttempt} whose PIN was right: one failure
 * fewer, and no lock unless the failures left still reach the limit. Undefined when nothing
 * is left to count.
 */
export function releasePinAttempt(
  state: PinFailureState | undefined,
): PinFailureState | undefined {
  if (!state || state.failures <= 1) return undefined;
  const failures = state.failures - 1;
  return {
    failures,
    firstFailureAt: state.firstFailureAt,
    lockedUntil: failures >= PIN_MAX_FAILURES ? state.lockedUntil : null,
  };
}
