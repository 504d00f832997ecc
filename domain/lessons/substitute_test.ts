import { assertEquals, assertStringIncludes, assertThrows } from "../../tests/_helpers/assert.ts";
import { ConflictError } from "../errors.ts";
import { assertSubstituteAvailable } from "./substitute.ts";

const free = {
  instructorId: "i9",
  sessionInstructorId: "i1",
  date: "2026-12-01",
  isActive: true,
  blocked: false,
};

Deno.test("assertSubstituteAvailable() accepts a free, active instructor", () => {
  assertSubstituteAvailable(free);
});

Deno.test("assertSubstituteAvailable() refuses a blocked, busy or inactive substitute", () => {
  const cases = [
    [{ ...free, blocked: true }, "blocked on 2026-12-01"],
    [
      { ...free, overlappingSlot: { id: "s1", dayOfWeek: 2, startMinute: 600, endMinute: 660 } },
      'slot "s1" on Tuesday 10:00-11:00',
    ],
    [
      { ...free, overlappingSession: { id: "x1", startMinute: 600, endMinute: 630 } },
      'session "x1"',
    ],
    [{ ...free, isActive: false }, "not active"],
    [{ ...free, sessionInstructorId: "i9" }, "the session's own instructor"],
  ] as const;
  for (const [input, text] of cases) {
    const error = assertThrows(
      () => assertSubstituteAvailable(input),
      ConflictError,
    ) as ConflictError;
    assertEquals(error.code, "substitute_unavailable");
    assertStringIncludes(error.message, text);
  }
});

Deno.test("assertSubstituteAvailable() names the substitute, their slot and their lesson", () => {
  const named = { ...free, instructorName: "Bob Li" };
  const cases = [
    [{ ...named, blocked: true }, "Bob Li is blocked on 2026-12-01"],
    [
      {
        ...named,
        overlappingSlot: {
          id: "s1",
          dayOfWeek: 2,
          startMinute: 600,
          endMinute: 660,
          lessonTypeName: "Guitar",
          room: "Room 2",
        },
      },
      "Bob Li teaches Guitar on Tuesday 10:00-11:00 in Room 2 at that time",
    ],
    [
      {
        ...named,
        overlappingSession: {
          id: "x1",
          startMinute: 600,
          endMinute: 630,
          memberName: "Mia Chen",
          lessonTypeName: "Piano",
        },
      },
      "Bob Li already teaches Mia Chen's Piano lesson on 2026-12-01 (10:00-10:30)",
    ],
  ] as const;
  for (const [input, text] of cases) {
    const error = assertThrows(() => assertSubstituteAvailable(input), ConflictError);
    assertEquals(error.message, text);
  }
});
