import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { ValidationError } from "../errors.ts";
import { assertSlotEndsByMidnight, endMinuteOfTime, makeupMinutes } from "./lesson_times.ts";

Deno.test("endMinuteOfTime() reads 24:00 as the end of the day", () => {
  assertEquals(endMinuteOfTime("16:30"), 990);
  assertEquals(endMinuteOfTime("24:00"), 1440);
});

Deno.test("assertSlotEndsByMidnight() accepts a slot ending at midnight, refuses a later end", () => {
  assertSlotEndsByMidnight(1410, 30);
  const error = assertThrows(
    () => assertSlotEndsByMidnight(1410, 31),
    ValidationError,
  ) as ValidationError;
  assertEquals(error.issues?.[0]?.path, "durationMinutes");
});

Deno.test("makeupMinutes() keeps the original's time and length unless moved", () => {
  const original = { startTime: "16:00", endTime: "16:45" };
  assertEquals(makeupMinutes(original), { startMinute: 960, endMinute: 1005 });
  assertEquals(makeupMinutes(original, "09:30"), { startMinute: 570, endMinute: 615 });
  assertEquals(
    makeupMinutes({ startTime: "23:30", endTime: "24:00" }),
    { startMinute: 1410, endMinute: 1440 },
  );
});

Deno.test("makeupMinutes() refuses a makeup running past midnight on startTime", () => {
  const error = assertThrows(
    () => makeupMinutes({ startTime: "16:00", endTime: "17:00" }, "23:30"),
    ValidationError,
  ) as ValidationError;
  assertEquals(error.issues, [{ path: "startTime", message: "The makeup must end by midnight" }]);
});
