/**
 * Calendar arithmetic on store-local dates ("YYYY-MM-DD") and times of day ("HH:MM").
 * Lessons happen at a wall-clock time in the store's timezone, so dates are counted as
 * calendar days (day numbers), never as UTC milliseconds: a DST change does not move a
 * lesson or skip a day.
 */

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;
const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01 of a calendar date. */
export function dayNumber(date: string): number {
  const match = DATE_PATTERN.exec(date);
  if (!match) throw new RangeError(`Expected a date YYYY-MM-DD, got "${date}"`);
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / MS_PER_DAY;
}

/** The calendar date of a day number. */
export function dateOfDayNumber(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return dateOfDayNumber(dayNumber(date) + days);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** 0 = Sunday .. 6 = Saturday. */
export function weekdayOf(date: string): number {
  return weekdayOfDayNumber(dayNumber(date));
}

export function weekdayOfDayNumber(day: number): number {
  // 1970-01-01 was a Thursday (4).
  return (((day + 4) % 7) + 7) % 7;
}

/** "HH:MM" → minutes after midnight. */
export function minutesOfTime(time: string): number {
  const match = TIME_PATTERN.exec(time);
  if (!match) throw new RangeError(`Expected a time HH:MM, got "${time}"`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/** Minutes after midnight → "HH:MM" (1440 → "24:00", the end of the day). */
export function timeOfMinutes(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}

/** The calendar date at instant `now` in the IANA time zone `timeZone`. */
export function localDate(now: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/** Half-open minute ranges [start, end) overlap; touching end-to-start does not. */
export function minuteRangesOverlap(
  a: { startMinute: number; endMinute: number },
  b: { startMinute: number; endMinute: number },
): boolean {
  return a.startMinute < b.endMinute && b.startMinute < a.endMinute;
}

/** Inclusive date ranges overlap; a missing end is open-ended. */
export function dateRangesOverlap(
  a: { startDate: string; endDate: string | null },
  b: { startDate: string; endDate: string | null },
): boolean {
  const aEndsBeforeB = a.endDate !== null && a.endDate < b.startDate;
  const bEndsBeforeA = b.endDate !== null && b.endDate < a.startDate;
  return !aEndsBeforeB && !bEndsBeforeA;
}
