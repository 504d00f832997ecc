/**
 * Store-local calendar helpers (API §1.2: dates are the store's, timestamps are UTC). Pure:
 * `Intl.DateTimeFormat` does the time-zone arithmetic, no I/O.
 */

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

interface WallClock {
  year: number;
  month: number;
  day: number;
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

function pad(value: number, width = 2): string {
  return String(value).padStart(width, "0");
}

function isoDateOf(clock: { year: number; month: number; day: number }): string {
  return `${pad(clock.year, 4)}-${pad(clock.month)}-${pad(clock.day)}`;
}

/** The store-local calendar date (`YYYY-MM-DD`) of a UTC instant in the IANA `timeZone`. */
export function storeLocalDate(instant: Date, timeZone: string): string {
  return isoDateOf(wallClock(instant, timeZone));
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

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

function parseIsoDate(date: string): { year: number; month: number; day: number } {
  const match = DATE_PATTERN.exec(date);
  if (!match) throw new RangeError(`Expected YYYY-MM-DD, got ${JSON.stringify(date)}`);
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    throw new RangeError(`Not a calendar date: ${date}`);
  }
  return { year, month, day };
}

/** `date` plus `days` calendar days (`"2026-02-28"`, 1 → `"2026-03-01"`). */
export function addDays(date: string, days: number): string {
  const { year, month, day } = parseIsoDate(date);
  const next = new Date(Date.UTC(year, month - 1, day + days));
  return isoDateOf({
    year: next.getUTCFullYear(),
    month: next.getUTCMonth() + 1,
    day: next.getUTCDate(),
  });
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
