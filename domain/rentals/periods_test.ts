import fc from "fast-check";
import { assertEquals } from "../../tests/_helpers/assert.ts";
import { addDays, daysBetween } from "../calendar.ts";
import {
  addMonthsClamped,
  type BillingInterval,
  periodIndexOf,
  periodOf,
  periodsThrough,
} from "./periods.ts";

const date = fc.integer({ min: 0, max: 365 * 100 }).map((n) => addDays("1990-01-01", n));
const interval = fc.constantFrom<BillingInterval>("monthly", "weekly");

Deno.test("monthly periods keep the start day, clamped to the month's end", () => {
  assertEquals(addMonthsClamped("2026-01-31", 1), "2026-02-28");
  assertEquals(addMonthsClamped("2028-01-31", 1), "2028-02-29");
  assertEquals(addMonthsClamped("2026-01-31", 2), "2026-03-31");
  assertEquals(addMonthsClamped("2026-11-30", 3), "2027-02-28");
  assertEquals(addMonthsClamped("2026-12-15", 1), "2027-01-15");
  assertEquals(periodOf("2026-01-31", "monthly", 0), {
    index: 0,
    periodStart: "2026-01-31",
    periodEnd: "2026-02-27",
    dueDate: "2026-01-31",
  });
  assertEquals(periodOf("2026-01-31", "monthly", 1).periodEnd, "2026-03-30");
});

Deno.test("weekly periods are seven days each", () => {
  assertEquals(periodOf("2026-12-28", "weekly", 1), {
    index: 1,
    periodStart: "2027-01-04",
    periodEnd: "2027-01-10",
    dueDate: "2027-01-04",
  });
});

Deno.test("periodsThrough: every period starting on or before the date", () => {
  assertEquals(periodsThrough("2026-01-15", "monthly", "2026-01-14"), []);
  assertEquals(
    periodsThrough("2026-01-15", "monthly", "2026-04-15").map((p) => p.periodStart),
    ["2026-01-15", "2026-02-15", "2026-03-15", "2026-04-15"],
  );
  assertEquals(
    periodsThrough("2026-01-15", "monthly", "2026-04-14", 2).map((p) => p.index),
    [2],
  );
});

Deno.test("property: periods tile the calendar without gap or overlap", () => {
  fc.assert(fc.property(date, interval, fc.integer({ min: 0, max: 200 }), (start, iv, k) => {
    const p = periodOf(start, iv, k);
    const next = periodOf(start, iv, k + 1);
    assertEquals(addDays(p.periodEnd, 1), next.periodStart);
    assertEquals(p.dueDate, p.periodStart);
    const length = daysBetween(p.periodStart, p.periodEnd) + 1;
    if (iv === "weekly") assertEquals(length, 7);
    else assertEquals(length >= 28 && length <= 31, true);
    assertEquals(periodIndexOf(start, iv, p.periodStart), k);
  }));
});

Deno.test("property: a monthly period starts on the start day or the month's last day", () => {
  fc.assert(fc.property(date, fc.integer({ min: 0, max: 600 }), (start, k) => {
    const p = periodOf(start, "monthly", k).periodStart;
    const startDay = Number(start.slice(8));
    const day = Number(p.slice(8));
    if (day !== startDay) {
      assertEquals(day < startDay, true);
      assertEquals(addDays(p, 1).slice(8), "01"); // the month's last day
    }
  }));
});

Deno.test("property: periodsThrough from an index continues the earlier list", () => {
  fc.assert(
    fc.property(date, interval, fc.integer({ min: 0, max: 900 }), fc.nat(30), (s, iv, d, from) => {
      const through = addDays(s, d);
      const all = periodsThrough(s, iv, through);
      assertEquals(periodsThrough(s, iv, through, from), all.slice(from));
      for (const p of all) assertEquals(p.periodStart <= through, true);
      assertEquals(periodOf(s, iv, all.length).periodStart > through, true);
    }),
  );
});
