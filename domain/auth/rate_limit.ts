/** Fixed-window rate limiting arithmetic (the counters themselves live in the database). */

/** Start of the window of `windowSeconds` that contains `now` (aligned to the epoch). */
export function windowStart(now: Date, windowSeconds: number): Date {
  const size = windowSeconds * 1000;
  return new Date(Math.floor(now.getTime() / size) * size);
}

/** Seconds until the window containing `now` ends (at least 1). */
export function secondsUntilWindowEnds(now: Date, windowSeconds: number): number {
  const end = windowStart(now, windowSeconds).getTime() + windowSeconds * 1000;
  return Math.max(1, Math.ceil((end - now.getTime()) / 1000));
}
