import { assert, assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import type { Permission } from "../auth/permissions.ts";
import { ForbiddenError } from "../errors.ts";
import { assertMayChangeSession, assertMayRecordProgress, teachesSession } from "./teaching.ts";

const editor = new Set<Permission>(["lessons.view", "lessons.edit"]);
const teacher = new Set<Permission>(["lessons.view", "lessons.teach"]);
const session = { instructorId: "i1", substituteInstructorId: "i2" };

Deno.test("teachesSession() holds for the session's instructor and its substitute only", () => {
  assert(teachesSession(["i1"], session));
  assert(teachesSession(["i2"], session));
  assert(!teachesSession(["i3"], session));
  assert(!teachesSession([], { instructorId: "i1", substituteInstructorId: null }));
});

Deno.test("assertMayChangeSession() lets lessons.edit change any session, substitutes included", () => {
  assertMayChangeSession(editor, [], session, { substituteInstructorId: "i3" });
});

Deno.test("assertMayChangeSession() lets a teacher change only sessions they teach", () => {
  assertMayChangeSession(teacher, ["i2"], session, {});
  const error = assertThrows(
    () => assertMayChangeSession(teacher, ["i3"], session, {}),
    ForbiddenError,
  ) as ForbiddenError;
  assertEquals(error.message, "You can only change sessions you teach");
});

Deno.test("assertMayChangeSession() refuses a teacher assigning a substitute", () => {
  const error = assertThrows(
    () => assertMayChangeSession(teacher, ["i1"], session, { substituteInstructorId: null }),
    ForbiddenError,
  ) as ForbiddenError;
  assertEquals(error.message, "Assigning a substitute needs the lessons.edit permission");
});

Deno.test("assertMayRecordProgress() lets a teacher record progress only in slots they teach", () => {
  assertMayRecordProgress(editor, [], undefined);
  assertMayRecordProgress(teacher, ["i1"], "i1");
  for (const slotInstructorId of ["i2", undefined]) {
    const error = assertThrows(
      () => assertMayRecordProgress(teacher, ["i1"], slotInstructorId),
      ForbiddenError,
    ) as ForbiddenError;
    assertEquals(error.code, "forbidden");
  }
});
