/**
 * Times of lessons within their day: slots and sessions end by midnight ("24:00", minute
 * 1440, is the end of the day), and a makeup keeps its original's length.
 */
import { ValidationError } from "../errors.ts";
import { minutesOfTime } from "../calendar.ts";

export const MINUTES_PER_DAY = 1440;

/** Minutes after midnight of an end time, where "24:00" is the end of the day (1440). */
export function endMinuteOfTime(time: string): number {
  return time === "24:00" ? MINUTES_PER_DAY : minutesOfTime(time);
}

/** Throws `validation_failed` (on durationMinutes) when a slot would run past midnight. */
export function assertSlotEndsByMidnight(startMinute: number, durationMinutes: number): void {
  if (startMinute + durationMinutes > MINUTES_PER_DAY) {
    throw new ValidationError([{
      path: "durationMinutes",
      message: "A slot must end by midnight (startTime + durationMinutes ≤ 24:00)",
    }]);
  }
}

/**
 * The minutes of a makeup of `original`: at `startTime` (default: the original's) for the
 * original's length; refused (on startTime) when it would run past midnight.
 */
export function makeupMinutes(
  original: { startTime: string; endTime: string },
  startTime?: string,
): { startMinute: number; endMinute: number } {
  const originalStart = minutesOfTime(original.startTime);
  const length = endMinuteOfTime(original.endTime) - originalStart;
  const startMinute = startTime ? minutesOfTime(startTime) : originalStart;
  const endMinute = startMinute + length;
  if (endMinute > MINUTES_PER_DAY) {
    throw new ValidationError([{ path: "startTime", message: "The makeup must end by midnight" }]);
  }
  return { startMinute, endMinute };
}
