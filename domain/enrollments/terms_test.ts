import { assert, assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { ValidationError } from "../errors.ts";
import {
  assertEnrollmentDates,
  defaultEnrollmentRate,
  enrollmentDatesInOrder,
  type RatePresets,
} from "./terms.ts";

const none: RatePresets = { weekly: null, monthly: null, quarterly: null };

Deno.test("enrollmentDatesInOrder() accepts no end, the same day and a later end", () => {
  assert(enrollmentDatesInOrder("2026-12-01", null));
  assert(enrollmentDatesInOrder("2026-12-01", undefined));
  assert(enrollmentDatesInOrder("2026-12-01", "2026-12-01"));
  assert(enrollmentDatesInOrder("2026-12-01", "2027-01-31"));
  assert(!enrollmentDatesInOrder("2026-12-01", "2026-11-30"));
});

Deno.test("assertEnrollmentDates() refuses an end before the start on endDate", () => {
  assertEnrollmentDates("2026-12-01", null);
  const error = assertThrows(
    () => assertEnrollmentDates("2026-12-01", "2026-11-30"),
    ValidationError,
  ) as ValidationError;
  assertEquals(error.issues, [{
    path: "endDate",
    message: "endDate must not be before startDate",
  }]);
});

Deno.test("defaultEnrollmentRate() takes the slot's preset first, then the lesson type's", () => {
  const slot = { ...none, monthly: "80.00" };
  const type = { ...none, monthly: "90.00", weekly: "25.00" };
  assertEquals(defaultEnrollmentRate("monthly", slot, type), "80.00");
  assertEquals(defaultEnrollmentRate("weekly", slot, type), "25.00");
  assertEquals(defaultEnrollmentRate("quarterly", slot, type), null);
  assertEquals(defaultEnrollmentRate("weekly", slot, undefined), null);
});
