import { assert, assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { ConflictError } from "../errors.ts";
import {
  assertEnrollmentTransition,
  canMoveEnrollment,
  ENROLLMENT_STATUSES,
  holdsSeat,
} from "./status_machine.ts";

Deno.test("enrollments move active ↔ paused and from either to withdrawn or completed", () => {
  assert(canMoveEnrollment("active", "paused"));
  assert(canMoveEnrollment("paused", "active"));
  for (const from of ["active", "paused"] as const) {
    assert(canMoveEnrollment(from, "withdrawn"));
    assert(canMoveEnrollment(from, "completed"));
  }
});

Deno.test("withdrawn and completed are final, and a status cannot move to itself", () => {
  for (const from of ["withdrawn", "completed"] as const) {
    for (const to of ENROLLMENT_STATUSES) {
      const error = assertThrows(
        () => assertEnrollmentTransition(from, to),
        ConflictError,
      ) as ConflictError;
      assertEquals(error.code, "invalid_transition");
    }
  }
  assert(!canMoveEnrollment("active", "active"));
  assert(!canMoveEnrollment("paused", "paused"));
});

Deno.test("only active and paused enrollments hold a seat", () => {
  assertEquals(ENROLLMENT_STATUSES.filter(holdsSeat), ["active", "paused"]);
});
