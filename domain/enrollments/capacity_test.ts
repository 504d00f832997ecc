import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { ConflictError } from "../errors.ts";
import {
  assertCanEnroll,
  type EnrollCheck,
  placementCheckNeeded,
  placementsCollide,
} from "./capacity.ts";

const placement = {
  slotId: "s9",
  dayOfWeek: 2,
  startMinute: 960,
  endMinute: 990,
  startDate: "2026-12-01",
  endDate: null,
};

function check(overrides: Partial<EnrollCheck> = {}): EnrollCheck {
  return {
    memberId: "m1",
    placement,
    slotIsActive: true,
    maxStudents: 4,
    seatsHeld: 0,
    memberEnrollments: [],
    ...overrides,
  };
}

Deno.test("assertCanEnroll() accepts a free seat", () => {
  assertCanEnroll(check({ seatsHeld: 3 }));
});

Deno.test("assertCanEnroll() refuses a full slot with slot_full", () => {
  const error = assertThrows(
    () => assertCanEnroll(check({ seatsHeld: 4 })),
    ConflictError,
  ) as ConflictError;
  assertEquals(error.code, "slot_full");
  assertEquals(
    error.message,
    'Cannot enroll member "m1": slot "s9" on Tuesday 16:00-16:30 is full (4)',
  );
});

Deno.test("assertCanEnroll() refuses a member already taking that weekday and time", () => {
  const held = { ...placement, id: "e1", slotId: "s8", startMinute: 975, endMinute: 1005 };
  const error = assertThrows(
    () => assertCanEnroll(check({ memberEnrollments: [held] })),
    ConflictError,
  ) as ConflictError;
  assertEquals(error.code, "double_booked");
});

Deno.test("assertCanEnroll() names the member and the slots as people know them", () => {
  const names = { lessonTypeName: "Piano", instructorName: "Jane Doe", room: "Room 2" };
  const named = check({ memberName: "Mia Chen", placement: { ...placement, names } });
  const messageOf = (c: EnrollCheck) =>
    assertThrows(() => assertCanEnroll(c), ConflictError).message;
  assertEquals(
    messageOf({ ...named, seatsHeld: 4 }),
    "Cannot enroll Mia Chen: Piano with Jane Doe on Tuesday 16:00-16:30 in Room 2 is full (4)",
  );
  assertEquals(
    messageOf({ ...named, slotIsActive: false }),
    "Cannot enroll Mia Chen: Piano with Jane Doe on Tuesday 16:00-16:30 in Room 2 is not active",
  );
  const held = {
    ...placement,
    id: "e1",
    slotId: "s8",
    startMinute: 975,
    endMinute: 1005,
    names: { lessonTypeName: "Guitar", instructorName: "Bob Li" },
  };
  assertEquals(
    messageOf({ ...named, memberEnrollments: [held] }),
    "Cannot enroll Mia Chen: they already take Guitar with Bob Li on Tuesday 16:15-16:45 " +
      "(enrollment from 2026-12-01)",
  );
});

Deno.test("placementsCollide() needs the same weekday, overlapping times and overlapping dates", () => {
  const other = { ...placement, slotId: "s8" };
  assertEquals(placementsCollide(placement, other), true);
  assertEquals(placementsCollide(placement, { ...other, dayOfWeek: 3 }), false);
  assertEquals(
    placementsCollide(placement, { ...other, startMinute: 990, endMinute: 1020 }),
    false,
  );
  assertEquals(
    placementsCollide(placement, { ...other, startDate: "2026-01-01", endDate: "2026-11-30" }),
    false,
  );
});

Deno.test("assertCanEnroll() refuses an inactive slot with slot_inactive", () => {
  const error = assertThrows(
    () => assertCanEnroll(check({ slotIsActive: false })),
    ConflictError,
  ) as ConflictError;
  assertEquals(error.code, "slot_inactive");
  assertEquals(
    error.message,
    'Cannot enroll member "m1": slot "s9" on Tuesday 16:00-16:30 is not active',
  );
});

Deno.test("placementCheckNeeded() re-checks a seat-holding enrollment moved in slot or dates", () => {
  const current = {
    slotId: "s9",
    startDate: "2026-12-01",
    endDate: null,
    status: "paused" as const,
  };
  assertEquals(placementCheckNeeded(current, current), false);
  assertEquals(placementCheckNeeded(current, { ...current, slotId: "s8" }), true);
  assertEquals(placementCheckNeeded(current, { ...current, startDate: "2026-12-08" }), true);
  assertEquals(placementCheckNeeded(current, { ...current, endDate: "2027-01-31" }), true);
  assertEquals(
    placementCheckNeeded({ ...current, status: "withdrawn" }, { ...current, slotId: "s8" }),
    false,
  );
});
