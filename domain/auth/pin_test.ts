import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import {
  afterPinFailure,
  PIN_LOCK_SECONDS,
  type PinFailureState,
  pinLockRemainingSeconds,
  splitPinCode,
} from "./pin.ts";

Deno.test("splitPinCode() splits the 8 digits into employee number and PIN", () => {
  assertEquals(splitPinCode("00421234"), { employeeNumber: "0042", pin: "1234" });
  assertThrows(() => splitPinCode("0042123"));
  assertThrows(() => splitPinCode("0042abcd"));
});

Deno.test("afterPinFailure() locks for 15 minutes on the fifth failure within the window", () => {
  const start = new Date("2026-11-21T10:00:00Z");
  let state: PinFailureState | undefined;
  for (let i = 1; i <= 4; i++) {
    state = afterPinFailure(state, new Date(start.getTime() + i * 1000));
    assertEquals(state.failures, i);
    assertEquals(state.lockedUntil, null);
  }
  const fifth = new Date(start.getTime() + 5000);
  state = afterPinFailure(state, fifth);
  assertEquals(state.failures, 5);
  assertEquals(state.lockedUntil?.getTime(), fifth.getTime() + PIN_LOCK_SECONDS * 1000);
  assertEquals(pinLockRemainingSeconds(state, fifth), PIN_LOCK_SECONDS);
  assertEquals(
    pinLockRemainingSeconds(state, new Date(fifth.getTime() + PIN_LOCK_SECONDS * 1000)),
    0,
  );
});

Deno.test("afterPinFailure() starts counting again once the window or the lock has passed", () => {
  const start = new Date("2026-11-21T10:00:00Z");
  const old: PinFailureState = { failures: 4, firstFailureAt: start, lockedUntil: null };
  const later = new Date(start.getTime() + 16 * 60 * 1000);
  assertEquals(afterPinFailure(old, later).failures, 1);
  const locked: PinFailureState = {
    failures: 5,
    firstFailureAt: start,
    lockedUntil: new Date(start.getTime() + 1000),
  };
  assertEquals(afterPinFailure(locked, new Date(start.getTime() + 2000)).failures, 1);
});
