import { assert, assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import {
  afterPinFailure,
  PIN_LOCK_SECONDS,
  PIN_MAX_FAILURES,
  pinCounterKey,
  type PinFailureState,
  pinLockRemainingSeconds,
  releasePinAttempt,
  reservePinAttempt,
  splitPinCode,
  userPinCounterKey,
} from "./pin.ts";

Deno.test("pinCounterKey() is the holder's counter, whatever their number; else the number's", () => {
  const id = "0190a0b1-0000-7000-8000-000000000001";
  assertEquals(pinCounterKey("0042", id), userPinCounterKey(id));
  assertEquals(pinCounterKey("0777", id), pinCounterKey("0042", id));
  assertEquals(pinCounterKey("0042", null), "number:0042");
  assert(pinCounterKey("0042", null) !== pinCounterKey("0043", undefined));
});

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

Deno.test("reservePinAttempt() counts each attempt up front: the sixth in a window is refused uncompared", () => {
  const now = new Date("2026-11-21T10:00:00Z");
  let state: PinFailureState | undefined;
  for (let i = 1; i <= PIN_MAX_FAILURES; i++) {
    const attempt = reservePinAttempt(state, now);
    assert(attempt.allowed, `attempt ${i} is allowed`);
    state = attempt.state;
    assertEquals(state.failures, i);
  }
  assertEquals(state?.lockedUntil?.getTime(), now.getTime() + PIN_LOCK_SECONDS * 1000);
  assertEquals(reservePinAttempt(state, now), {
    allowed: false,
    retryAfterSeconds: PIN_LOCK_SECONDS,
  });
});

Deno.test("releasePinAttempt() gives back one attempt and lifts a lock the failures no longer reach", () => {
  const now = new Date("2026-11-21T10:00:00Z");
  const locked: PinFailureState = {
    failures: PIN_MAX_FAILURES,
    firstFailureAt: now,
    lockedUntil: new Date(now.getTime() + PIN_LOCK_SECONDS * 1000),
  };
  assertEquals(releasePinAttempt(locked), {
    failures: PIN_MAX_FAILURES - 1,
    firstFailureAt: now,
    lockedUntil: null,
  });
  assertEquals(
    releasePinAttempt({ failures: 1, firstFailureAt: now, lockedUntil: null }),
    undefined,
  );
  assertEquals(releasePinAttempt(undefined), undefined);
  // Reserve then release leaves the count where it was.
  const before: PinFailureState = { failures: 2, firstFailureAt: now, lockedUntil: null };
  const attempt = reservePinAttempt(before, new Date(now.getTime() + 1000));
  assert(attempt.allowed);
  assertEquals(releasePinAttempt(attempt.state), before);
});
