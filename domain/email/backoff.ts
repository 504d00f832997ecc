/** Retry schedule of outgoing email: exponential backoff, then give up. */

export const EMAIL_MAX_ATTEMPTS = 8;
const BASE_DELAY_SECONDS = 30;
const MAX_DELAY_SECONDS = 60 * 60;

/** Delay before the next try after `attempts` failed tries (30 s, 60 s, 120 s, … ≤ 1 h). */
export function retryDelaySeconds(attempts: number): number {
  const exponent = Math.max(0, attempts - 1);
  return Math.min(MAX_DELAY_SECONDS, BASE_DELAY_SECONDS * 2 ** exponent);
}

/** Whether a message that failed `attempts` times should be given up. */
export function shouldGiveUp(attempts: number): boolean {
  return attempts >= EMAIL_MAX_ATTEMPTS;
}
