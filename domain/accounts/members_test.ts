import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { ValidationError } from "../errors.ts";
import { assertBornBy, assertMinorFlagSettable, memberIsMinor } from "./members.ts";

Deno.test("memberIsMinor() judges by the date of birth when known, else by the flag", () => {
  assertEquals(memberIsMinor({ dateOfBirth: "2010-01-01", isMinor: false }, "2026-11-21"), true);
  assertEquals(memberIsMinor({ dateOfBirth: "1990-01-01", isMinor: true }, "2026-11-21"), false);
  assertEquals(memberIsMinor({ dateOfBirth: null, isMinor: true }, "2026-11-21"), true);
  assertEquals(memberIsMinor({ dateOfBirth: null, isMinor: false }, "2026-11-21"), false);
});

Deno.test("assertBornBy() refuses a date of birth after today, not today itself", () => {
  assertBornBy("2026-11-21", "2026-11-21");
  assertBornBy(null, "2026-11-21");
  assertBornBy(undefined, "2026-11-21");
  assertThrows(() => assertBornBy("2026-11-22", "2026-11-21"), ValidationError);
});

Deno.test("assertMinorFlagSettable() refuses isMinor only together with a date of birth", () => {
  assertMinorFlagSettable("create", true, null);
  assertMinorFlagSettable("update", false, "2000-01-01");
  const created = assertThrows(
    () => assertMinorFlagSettable("create", true, "2000-01-01"),
    ValidationError,
  ) as ValidationError;
  assertEquals(created.issues?.[0]?.path, "isMinor");
  assertThrows(() => assertMinorFlagSettable("update", true, "2000-01-01"), ValidationError);
});
