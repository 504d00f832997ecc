/**
 * The calendar kernel: store-local dates ("YYYY-MM-DD"), times of day ("HH:MM") and the
 * store's IANA time zone (API §1.2: dates are the store's, timestamps are UTC).
 *
 * - Dates are counted as calendar days (day numbers since 1970-01-01), never as UTC
 *   milliseconds, so a DST change does not move a lesson or skip a day.
 * - Every date argument is validated strictly: the shape YYYY-MM-DD *and* a real calendar
 *   day ("2026-02-30" is refused), with a RangeError (a programming error: input dates are
 *   validated by the schemas before they get here).
 * - Pure: `Intl.DateTimeFormat` does the time-zone arithmetic, no I/O, no clock.
 */

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;
const MS_PER_DAY = 86_400_000;

interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

function parseIsoDate(date: string): CalendarDay {
  const match = typeof date === "string" ? DATE_PATTERN.exec(date) : null;
  if (!match) throw new RangeError(`Expected a date YYYY-MM-DD, got ${JSON.stringify(date)}`);
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    throw new RangeError(`Not a calendar date: ${JSON.stringify(date)}`);
  }
  return { year, month, day };
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, "0");
}

function isoDateOf(clock: CalendarDay): string {
  return `${pad(clock.year, 4)}-${pad(clock.month)}-${pad(clock.day)}`;
}

// ---------------------------------------------------------------------------------------
// Calendar days

/** Days since 1970-01-01 of a calendar date. */
export function dayNumber(date: string): number {
  const { year, month, day } = parseIsoDate(date);
  return Date.UTC(year, month - 1, day) / MS_PER_DAY;
}

/** The calendar date of a day number. */
export function dateOfDayNumber(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** `date` plus `days` calendar days (`"2026-02-28"`, 1 → `"2026-03-01"`). */
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

/** Inclusive date ranges overlap; a missing end is open-ended. */
export function dateRangesOverlap(
  a: { startDate: string; endDate: string | null },
  b: { startDate: string; endDate: string | null },
): boolean {
  const aEndsBeforeB = a.endDate !== null && a.endDate < b.startDate;
  const bEndsBeforeA = b.endDate !== null && b.endDate < a.startDate;
  return !aEndsBeforeB && !bEndsBeforeA;
}

// ---------------------------------------------------------------------------------------
// Times of day

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
  return `${pad(h)}:${pad(m)}`;
}

/** Half-open minute ranges [start, end) overlap; touching end-to-start does not. */
export function minuteRangesOverlap(
  a: { startMinute: number; endMinute: number },
  b: { startMinute: number; endMinute: number },
): boolean {
  return a.startMinute < b.endMinute && b.startMinute < a.endMinute;
}

// ---------------------------------------------------------------------------------------
// The store's time zone

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // Throws RangeError for an unknown time zone.
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

interface WallClock extends CalendarDay {
  hour: number;
  minute: number;
  second: number;
}

function wallClock(instant: Date, timeZone: string): WallClock {
  if (Number.isNaN(instant.getTime())) throw new RangeError("Invalid date");
  const values: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type !== "literal") values[part.type] = Number(part.value);
  }
  return {
    year: values.year ?? 0,
    month: values.month ?? 1,
    day: values.day ?? 1,
    hour: (values.hour ?? 0) % 24,
    minute: values.minute ?? 0,
    second: values.second ?? 0,
  };
}

/**
 * Per time zone, the last UTC second whose local date `storeLocalDate` worked out, and that
 * date: most calls ask for "today", many times a second, and `formatToParts` is the costly
 * part of a list request's date handling. Offsets are whole seconds, so one second has one date.
 */
const lastLocalDates = new Map<string, { second: number; date: string }>();

/** The store-local calendar date (`YYYY-MM-DD`) of a UTC instant in the IANA `timeZone`. */
export function storeLocalDate(instant: Date, timeZone: string): string {
  const second = Math.floor(instant.getTime() / 1000);
  const last = lastLocalDates.get(timeZone);
  if (last !== undefined && last.second === second) return last.date;
  const date = isoDateOf(wallClock(instant, timeZone));
  lastLocalDates.set(timeZone, { second, date });
  return date;
}

/** The store-local date and time `YYYY-MM-DD HH:MM` of a UTC instant (for receipts). */
export function storeLocalDateTime(instant: Date, timeZone: string): string {
  const clock = wallClock(instant, timeZone);
  return `${isoDateOf(clock)} ${pad(clock.hour)}:${pad(clock.minute)}`;
}

/** The offset of `timeZone` from UTC at `instant`, in milliseconds (whole seconds). */
export function timeZoneOffsetMs(instant: Date, timeZone: string): number {
  const c = wallClock(instant, timeZone);
  const asUtc = Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The first instant whose store-local date is `date` (local midnight, or later in a gap). */
export function startOfStoreDay(date: string, timeZone: string): Date {
  const { year, month, day } = parseIsoDate(date);
  const wall = Date.UTC(year, month - 1, day);
  const hour = 3_600_000;
  const offsets = new Set(
    [wall - 36 * hour, wall, wall + 36 * hour].map((t) => timeZoneOffsetMs(new Date(t), timeZone)),
  );
  let best: number | undefined;
  for (const offset of offsets) {
    const candidate = wall - offset;
    if (storeLocalDate(new Date(candidate), timeZone) !== date) continue;
    if (best === undefined || candidate < best) best = candidate;
  }
  if (best === undefined) {
    // A gap swallowed local midnight and the candidates missed it: step to the first instant.
    let t = wall - Math.max(...offsets);
    while (storeLocalDate(new Date(t), timeZone) < date) t += 60_000;
    best = t;
  }
  return new Date(best);
}

/**
 * The UTC half-open range `[start, end)` of the store-local `date` in `timeZone` (23, 24 or
 * 25 hours around DST changes), for querying timestamps that fall on that date.
 */
export function storeDayRange(date: string, timeZone: string): { start: Date; end: Date } {
  return {
    start: startOfStoreDay(date, timeZone),
    end: startOfStoreDay(addDays(date, 1), timeZone),
  };
}
