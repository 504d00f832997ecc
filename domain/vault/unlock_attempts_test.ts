import { assertEquals } from "../../tests/_helpers/assert.ts";
import { masterPasswordProblem } from "./master_password.ts";
import {
  releaseUnlockAttempt,
  reserveUnlockAttempt,
  UNLOCK_MAX_FAILURES,
  UNLOCK_WINDOW_SECONDS,
  type UnlockFailures,
} from "./unlock_attempts.ts";

const START = new Date("2026-11-25T09:00:00Z");
const at = (seconds: number) => new Date(START.getTime() + seconds * 1000);

/** `n` reservations (each a wrong password) one second apart. */
function fail(n: number, state?: UnlockFailures): UnlockFailures | undefined {
  for (let i = 0; i < n; i++) {
    const attempt = reserveUnlockAttempt(state, at(i));
    if (!attempt.allowed) throw new Error("refused");
    state = attempt.state;
  }
  return state;
}

Deno.test("reserveUnlockAttempt() allows five attempts, then refuses for the rest of the window", () => {
  const state = fail(UNLOCK_MAX_FAILURES);
  assertEquals(state?.failures, 5);
  const sixth = reserveUnlockAttempt(state, at(60));
  assertEquals(sixth, { allowed: false, retryAfterSeconds: UNLOCK_WINDOW_SECONDS - 60 });
  const last = reserveUnlockAttempt(state, at(UNLOCK_WINDOW_SECONDS - 1));
  assertEquals(last, { allowed: false, retryAfterSeconds: 1 });
});

Deno.test("reserveUnlockAttempt() opens a new window once the old one has passed", () => {
  const state = fail(UNLOCK_MAX_FAILURES);
  const next = reserveUnlockAttempt(state, at(UNLOCK_WINDOW_SECONDS));
  assertEquals(next, {
    allowed: true,
    state: { failures: 1, windowStartedAt: at(UNLOCK_WINDOW_SECONDS) },
  });
});

Deno.test("releaseUnlockAttempt() gives back a right password's attempt, not the earlier ones", () => {
  const four = fail(4);
  const fifth = reserveUnlockAttempt(four, at(10));
  if (!fifth.allowed) throw new Error("refused");
  assertEquals(fifth.state.failures, 5);
  assertEquals(releaseUnlockAttempt(fifth.state, at(10))?.failures, 4);
  assertEquals(releaseUnlockAttempt(fail(1), at(2)), undefined);
  assertEquals(releaseUnlockAttempt(undefined, at(2)), undefined);
});

Deno.test("masterPasswordProblem() counts characters, not bytes (at least 12, at most 1,024)", () => {
  assertEquals(
    masterPasswordProblem("elevenchars"),
    "The master password needs at least 12 characters",
  );
  assertEquals(masterPasswordProblem("twelve chars"), undefined);
  assertEquals(
    masterPasswordProblem("ééééééééééé"),
    "The master password needs at least 12 characters",
  );
  assertEquals(masterPasswordProblem("🔑".repeat(12)), undefined);
  assertEquals(masterPasswordProblem("x".repeat(1025))?.includes("at most"), true);
});
