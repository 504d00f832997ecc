import { assert, assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { ConflictError } from "../errors.ts";
import {
  assertCanMakeUp,
  assertSessionTransition,
  canMoveSession,
  SESSION_STATUSES,
} from "./session_status.ts";

Deno.test("scheduled and makeup sessions move to attended, missed or cancelled", () => {
  for (const from of ["scheduled", "makeup"] as const) {
    for (const to of ["attended", "missed", "cancelled"] as const) assert(canMoveSession(from, to));
  }
});

Deno.test("every other session move is refused with invalid_transition", () => {
  const allowed = new Set([
    "scheduled>attended",
    "scheduled>missed",
    "scheduled>cancelled",
    "makeup>attended",
    "makeup>missed",
    "makeup>cancelled",
  ]);
  for (const from of SESSION_STATUSES) {
    for (const to of SESSION_STATUSES) {
      if (allowed.has(`${from}>${to}`)) continue;
      const error = assertThrows(
        () => assertSessionTransition(from, to),
        ConflictError,
      ) as ConflictError;
      assertEquals(error.code, "invalid_transition");
    }
  }
});

Deno.test("assertCanMakeUp() accepts only missed or cancelled sessions", () => {
  assertCanMakeUp("missed");
  assertCanMakeUp("cancelled");
  for (const status of ["scheduled", "attended", "makeup"] as const) {
    assertEquals(
      (assertThrows(() => assertCanMakeUp(status), ConflictError) as ConflictError).code,
      "invalid_transition",
    );
  }
});
