import fc from "fast-check";
import { assert, assertEquals, assertThrows } from "../tests/_helpers/assert.ts";
import {
  addDays,
  dateRangesOverlap,
  dayNumber,
  daysBetween,
  minuteRangesOverlap,
  minutesOfTime,
  startOfStoreDay,
  storeDayRange,
  storeLocalDate,
  storeLocalDateTime,
  timeOfMinutes,
  timeZoneOffsetMs,
  weekdayOf,
} from "./calendar.ts";

Deno.test("weekdayOf() counts 0 = Sunday .. 6 = Saturday", () => {
  assertEquals(weekdayOf("2026-11-22"), 0);
  assertEquals(weekdayOf("2026-11-21"), 6);
  assertEquals(weekdayOf("1969-12-31"), 3);
});

Deno.test("addDays() and daysBetween() step calendar days across DST changes and years", () => {
  assertEquals(addDays("2026-03-07", 1), "2026-03-08");
  assertEquals(addDays("2026-03-08", 1), "2026-03-09");
  assertEquals(addDays("2026-10-31", 7), "2026-11-07");
  assertEquals(addDays("2026-12-31", 1), "2027-01-01");
  assertEquals(addDays("2028-02-28", 1), "2028-02-29");
  assertEquals(daysBetween("2026-01-01", "2027-01-01"), 365);
});

Deno.test("minutesOfTime() and timeOfMinutes() convert HH:MM", () => {
  assertEquals(minutesOfTime("00:00"), 0);
  assertEquals(minutesOfTime("17:30"), 1050);
  assertEquals(timeOfMinutes(1050), "17:30");
  assertEquals(timeOfMinutes(1440), "24:00");
  assertThrows(() => minutesOfTime("24:00"));
});

Deno.test("minuteRangesOverlap() treats touching end-to-start as no overlap", () => {
  assert(
    !minuteRangesOverlap({ startMinute: 600, endMinute: 630 }, {
      startMinute: 630,
      endMinute: 660,
    }),
  );
  assert(
    minuteRangesOverlap({ startMinute: 600, endMinute: 631 }, { startMinute: 630, endMinute: 660 }),
  );
});

Deno.test("dateRangesOverlap() is inclusive and treats a missing end as open", () => {
  assert(dateRangesOverlap({ startDate: "2026-01-01", endDate: "2026-01-31" }, {
    startDate: "2026-01-31",
    endDate: null,
  }));
  assert(
    !dateRangesOverlap({ startDate: "2026-01-01", endDate: "2026-01-30" }, {
      startDate: "2026-01-31",
      endDate: null,
    }),
  );
  assert(dateRangesOverlap({ startDate: "2026-01-01", endDate: null }, {
    startDate: "2020-01-01",
    endDate: null,
  }));
});

Deno.test("dayNumber() refuses malformed dates and days that are not on the calendar", () => {
  assertEquals(dayNumber("1970-01-02"), 1);
  for (const bad of ["2026-2-01", "2026-02-30", "2026-13-01", "2026-00-10", "", "20260201"]) {
    assertThrows(() => dayNumber(bad), RangeError);
  }
  assertThrows(() => weekdayOf("2026-04-31"), RangeError);
  assertThrows(() => daysBetween("2026-01-01", "2026-02-29"), RangeError);
});

Deno.test("storeLocalDate() gives the calendar date in the store's time zone", () => {
  const instant = new Date("2026-11-21T03:30:00.000Z");
  assertEquals(storeLocalDate(instant, "UTC"), "2026-11-21");
  assertEquals(storeLocalDate(instant, "America/New_York"), "2026-11-20");
  assertEquals(storeLocalDate(instant, "Asia/Kolkata"), "2026-11-21");
  assertEquals(storeLocalDate(instant, "Asia/Tokyo"), "2026-11-21");
  assertEquals(
    storeLocalDate(new Date("2026-12-31T23:30:00Z"), "Pacific/Kiritimati"),
    "2027-01-01",
  );
  assertEquals(storeLocalDateTime(instant, "America/New_York"), "2026-11-20 22:30");
  assertEquals(
    storeLocalDateTime(new Date("2026-06-01T00:05:00Z"), "Europe/Berlin"),
    "2026-06-01 02:05",
  );
});

Deno.test("storeLocalDate() answers a repeated second from memory, and the next second anew", () => {
  // Midnight in New York: the last second of one day, then the first of the next, each asked
  // twice (the second ask is answered from memory) and in both orders.
  const before = new Date("2026-11-21T04:59:59.000Z");
  const after = new Date("2026-11-21T05:00:00.000Z");
  for (const instants of [[before, before, after, after], [after, after, before, before]]) {
    assertEquals(
      instants.map((instant) => storeLocalDate(instant, "America/New_York")),
      instants.map((instant) => instant === before ? "2026-11-20" : "2026-11-21"),
    );
  }
  // The same second in another zone is not the same answer.
  assertEquals(storeLocalDate(new Date("2026-11-21T04:59:59.500Z"), "Asia/Tokyo"), "2026-11-21");
  assertEquals(
    storeLocalDate(new Date("2026-11-21T04:59:59.999Z"), "America/New_York"),
    "2026-11-20",
  );
  assertThrows(() => storeLocalDate(new Date(Number.NaN), "UTC"), RangeError);
});

Deno.test("storeLocalDate() refuses an unknown time zone", () => {
  assertThrows(() => storeLocalDate(new Date(), "Mars/Olympus_Mons"), RangeError);
});

Deno.test("timeZoneOffsetMs() follows daylight saving time", () => {
  assertEquals(
    timeZoneOffsetMs(new Date("2026-01-15T12:00:00Z"), "America/New_York"),
    -5 * 3_600_000,
  );
  assertEquals(
    timeZoneOffsetMs(new Date("2026-07-15T12:00:00Z"), "America/New_York"),
    -4 * 3_600_000,
  );
  assertEquals(timeZoneOffsetMs(new Date("2026-07-15T12:00:00Z"), "Asia/Kolkata"), 5.5 * 3_600_000);
});

Deno.test("storeDayRange() spans 23 and 25 hours on DST change days", () => {
  const spring = storeDayRange("2026-03-08", "America/New_York");
  assertEquals(spring.start.toISOString(), "2026-03-08T05:00:00.000Z");
  assertEquals(spring.end.toISOString(), "2026-03-09T04:00:00.000Z");
  const fall = storeDayRange("2026-11-01", "America/New_York");
  assertEquals(fall.end.getTime() - fall.start.getTime(), 25 * 3_600_000);
  assertEquals(storeDayRange("2026-05-01", "UTC").start.toISOString(), "2026-05-01T00:00:00.000Z");
});

Deno.test("startOfStoreDay() finds the day's first instant when DST skips midnight", () => {
  // São Paulo skipped 00:00–01:00 on 2018-11-04.
  const start = startOfStoreDay("2018-11-04", "America/Sao_Paulo");
  assertEquals(start.toISOString(), "2018-11-04T03:00:00.000Z");
  assertEquals(storeLocalDateTime(start, "America/Sao_Paulo"), "2018-11-04 01:00");
});

Deno.test("addDays() crosses month and year ends", () => {
  assertEquals(addDays("2026-02-28", 1), "2026-03-01");
  assertEquals(addDays("2028-02-28", 1), "2028-02-29");
  assertEquals(addDays("2026-12-31", 1), "2027-01-01");
  assertEquals(addDays("2026-01-01", -1), "2025-12-31");
  assertThrows(() => addDays("2026-02-30", 1), RangeError);
});

Deno.test("every instant falls inside the store-day range of its own local date", () => {
  const zones = [
    "UTC",
    "America/New_York",
    "America/Los_Angeles",
    "Europe/Berlin",
    "Asia/Kolkata",
    "Australia/Lord_Howe",
    "Pacific/Chatham",
    "America/Sao_Paulo",
  ];
  fc.assert(
    fc.property(
      fc.integer({ min: Date.UTC(2015, 0, 1), max: Date.UTC(2035, 0, 1) }),
      fc.constantFrom(...zones),
      (ms, zone) => {
        const instant = new Date(ms);
        const date = storeLocalDate(instant, zone);
        const { start, end } = storeDayRange(date, zone);
        assert(start.getTime() <= ms && ms < end.getTime(), `${instant.toISOString()} ${zone}`);
        assertEquals(storeLocalDate(start, zone), date);
        assertEquals(storeLocalDate(new Date(start.getTime() - 1), zone), addDays(date, -1));
      },
    ),
    { numRuns: 300 },
  );
});
