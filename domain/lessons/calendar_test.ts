import { assert, assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import {
  addDays,
  dateRangesOverlap,
  daysBetween,
  localDate,
  minuteRangesOverlap,
  minutesOfTime,
  timeOfMinutes,
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

Deno.test("localDate() gives the calendar date in the store's time zone", () => {
  const instant = new Date("2026-11-21T03:30:00Z");
  assertEquals(localDate(instant, "UTC"), "2026-11-21");
  assertEquals(localDate(instant, "America/New_York"), "2026-11-20");
  assertEquals(localDate(instant, "Asia/Tokyo"), "2026-11-21");
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
