/**
 * Wrong master passwords per user (API §12): after 5 wrong master passwords from one user
 * within 15 minutes (unlock or change-master-password), that user's next attempts are refused
 * (429 rate_limited) for the rest of the window, even with the right password.
 *
 * The window opens with the first wrong password and lasts 15 minutes. Each attempt is counted
 * *before* the password is tried (`reserveUnlockAttempt`) and given back when it was right
 * (`releaseUnlockAttempt`): parallel attempts therefore cannot try more than five passwords
 * per window, however many arrive at once.
 */

export const UNLOCK_MAX_FAILURES = 5;
export const UNLOCK_WINDOW_SECONDS = 15 * 60;

export interface UnlockFailures {
  failures: number;
  windowStartedAt: Date;
}

export type UnlockAttempt =
  /** Five failures in the window: nothing may be tried for `retryAfterSeconds`. */
  | { allowed: false; retryAfterSeconds: number }
  /** Allowed and already counted as a failure in `state` (given back when right). */
  | { allowed: true; state: UnlockFailures };

function windowEnd(state: UnlockFailures): number {
  return state.windowStartedAt.getTime() + UNLOCK_WINDOW_SECONDS * 1000;
}

/** The failures that still count at `now` (none once the window has passed). */
export function currentFailures(
  state: UnlockFailures | undefined,
  now: Date,
): UnlockFailures | undefined {
  if (!state || state.failures <= 0 || now.getTime() >= windowEnd(state)) return undefined;
  return state;
}

/** Reserves one attempt: refused after five failures in the window, else counted up front. */
export function reserveUnlockAttempt(
  stored: UnlockFailures | undefined,
  now: Date,
): UnlockAttempt {
  const state = currentFailures(stored, now);
  if (!state) return { allowed: true, state: { failures: 1, windowStartedAt: now } };
  if (state.failures >= UNLOCK_MAX_FAILURES) {
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((windowEnd(state) - now.getTime()) / 1000)),
    };
  }
  return { allowed: true, state: { ...state, failures: state.failures + 1 } };
}

/** Gives back an attempt whose password was right (the earlier failures still count). */
export function releaseUnlockAttempt(
  stored: UnlockFailures | undefined,
  now: Date,
): UnlockFailures | undefined {
  const state = currentFailures(stored, now);
  if (!state || state.failures <= 1) return undefined;
  return { ...state, failures: state.failures - 1 };
}
