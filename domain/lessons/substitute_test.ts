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
    [{ ...free, overlappingSlot: { id: "s1", startMinute: 600, endMinute: 660 } }, "10:00-11:00"],
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
