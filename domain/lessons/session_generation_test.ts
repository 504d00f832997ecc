import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import { weekdayOf } from "../calendar.ts";
import { type GenerationInput, planSessions } from "./session_generation.ts";

const tuesdaySlot = {
  id: "slot-tue",
  instructorId: "inst-1",
  dayOfWeek: 2,
  startMinute: 17 * 60,
  endMinute: 17 * 60 + 30,
  isActive: true,
};

function input(overrides: Partial<GenerationInput> = {}): GenerationInput {
  return {
    slots: [tuesdaySlot],
    enrollments: [{
      id: "enr-1",
      slotId: "slot-tue",
      memberId: "mem-1",
      status: "active",
      startDate: "2026-01-01",
      endDate: null,
    }],
    blockedDates: [],
    closures: [],
    from: "2026-12-01",
    to: "2026-12-31",
    ...overrides,
  };
}

Deno.test("planSessions() makes one session per slot weekday in the inclusive window", () => {
  const plan = planSessions(input());
  assertEquals(plan.sessions.map((s) => s.date), [
    "2026-12-01",
    "2026-12-08",
    "2026-12-15",
    "2026-12-22",
    "2026-12-29",
  ]);
  const first = plan.sessions[0]!;
  assertEquals(first, {
    enrollmentId: "enr-1",
    slotId: "slot-tue",
    memberId: "mem-1",
    instructorId: "inst-1",
    date: "2026-12-01",
    startMinute: 1020,
    endMinute: 1050,
  });
  assertEquals(plan.skipped, { blockedDates: 0, closures: 0 });
});

Deno.test("planSessions() includes both window ends and handles week boundaries", () => {
  // Window from a Tuesday to a Tuesday, and one that starts the day after a Tuesday.
  assertEquals(planSessions(input({ from: "2026-12-01", to: "2026-12-08" })).sessions.length, 2);
  assertEquals(planSessions(input({ from: "2026-12-02", to: "2026-12-07" })).sessions.length, 0);
  // A Sunday (0) and a Saturday (6) slot in a window running Saturday to Sunday.
  const weekend = input({
    slots: [
      { ...tuesdaySlot, id: "sun", dayOfWeek: 0 },
      { ...tuesdaySlot, id: "sat", dayOfWeek: 6, instructorId: "inst-2" },
    ],
    enrollments: [
      {
        id: "a",
        slotId: "sun",
        memberId: "m",
        status: "active",
        startDate: "2026-01-01",
        endDate: null,
      },
      {
        id: "b",
        slotId: "sat",
        memberId: "m",
        status: "active",
        startDate: "2026-01-01",
        endDate: null,
      },
    ],
    from: "2026-12-05",
    to: "2026-12-13",
  });
  assertEquals(planSessions(weekend).sessions.map((s) => `${s.slotId}:${s.date}`), [
    "sun:2026-12-06",
    "sun:2026-12-13",
    "sat:2026-12-05",
    "sat:2026-12-12",
  ]);
});

Deno.test("planSessions() keeps weekly wall-clock dates across the March and November DST changes", () => {
  // America/New_York: DST starts Sun 2026-03-08 and ends Sun 2026-11-01.
  const sundaySlot = { ...tuesdaySlot, id: "sun", dayOfWeek: 0, startMinute: 90, endMinute: 150 };
  const plan = planSessions(input({
    slots: [sundaySlot],
    enrollments: [{
      id: "e",
      slotId: "sun",
      memberId: "m",
      status: "active",
      startDate: "2026-01-01",
      endDate: null,
    }],
    from: "2026-03-01",
    to: "2026-03-15",
  }));
  assertEquals(plan.sessions.map((s) => s.date), ["2026-03-01", "2026-03-08", "2026-03-15"]);
  assert(plan.sessions.every((s) => s.startMinute === 90 && weekdayOf(s.date) === 0));
  const autumn = planSessions(input({ from: "2026-10-25", to: "2026-11-10" }));
  assertEquals(autumn.sessions.map((s) => s.date), ["2026-10-27", "2026-11-03", "2026-11-10"]);
  // A whole year holds 52 or 53 occurrences whatever the DST changes in between.
  const year = planSessions(input({ from: "2026-01-01", to: "2026-12-31" }));
  assertEquals(year.sessions.length, 52);
});

Deno.test("planSessions() stays within the enrollment's own date range", () => {
  const plan = planSessions(input({
    enrollments: [{
      id: "e",
      slotId: "slot-tue",
      memberId: "m",
      status: "active",
      startDate: "2026-12-08",
      endDate: "2026-12-22",
    }],
  }));
  assertEquals(plan.sessions.map((s) => s.date), ["2026-12-08", "2026-12-15", "2026-12-22"]);
});

Deno.test("planSessions() skips the instructor's blocked dates and store closures, counting each", () => {
  const plan = planSessions(input({
    blockedDates: [
      { instructorId: "inst-1", date: "2026-12-08" },
      { instructorId: "someone-else", date: "2026-12-15" },
    ],
    closures: [{ startDate: "2026-12-24", endDate: "2027-01-02" }],
  }));
  assertEquals(plan.sessions.map((s) => s.date), ["2026-12-01", "2026-12-15", "2026-12-22"]);
  assertEquals(plan.skipped, { blockedDates: 1, closures: 1 });
});

Deno.test("planSessions() counts a date both closed and blocked once, as a closure", () => {
  const plan = planSessions(input({
    blockedDates: [{ instructorId: "inst-1", date: "2026-12-01" }],
    closures: [{ startDate: "2026-12-01", endDate: "2026-12-01" }],
  }));
  assertEquals(plan.skipped, { blockedDates: 0, closures: 1 });
});

Deno.test("planSessions() ignores inactive slots and enrollments that are not active", () => {
  const enrollment = { slotId: "slot-tue", memberId: "m", startDate: "2026-01-01", endDate: null };
  const plan = planSessions(input({
    enrollments: [
      { ...enrollment, id: "p", status: "paused" },
      { ...enrollment, id: "w", status: "withdrawn" },
    ],
  }));
  assertEquals(plan.sessions.length, 0);
  assertEquals(
    planSessions(input({ slots: [{ ...tuesdaySlot, isActive: false }] })).sessions.length,
    0,
  );
});

Deno.test("planSessions() returns nothing for a window that ends before it starts", () => {
  assertEquals(planSessions(input({ from: "2026-12-31", to: "2026-12-01" })).sessions, []);
});

Deno.test("planSessions() orders sessions by enrollment, then date", () => {
  const enrollment = {
    slotId: "slot-tue",
    status: "active",
    startDate: "2026-01-01",
    endDate: null,
  };
  const plan = planSessions(input({
    enrollments: [
      { ...enrollment, id: "b", memberId: "m2" },
      { ...enrollment, id: "a", memberId: "m1" },
    ],
    to: "2026-12-08",
  }));
  assertEquals(plan.sessions.map((s) => `${s.enrollmentId}:${s.date}`), [
    "a:2026-12-01",
    "a:2026-12-08",
    "b:2026-12-01",
    "b:2026-12-08",
  ]);
});
