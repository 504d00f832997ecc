import { assertEquals } from "../../tests/_helpers/assert.ts";
import { EMAIL_MAX_ATTEMPTS, retryDelaySeconds, shouldGiveUp } from "./backoff.ts";

Deno.test("retryDelaySeconds() doubles from 30 s and stops growing at an hour", () => {
  assertEquals([1, 2, 3, 4].map(retryDelaySeconds), [30, 60, 120, 240]);
  assertEquals(retryDelaySeconds(20), 3600);
});

Deno.test("shouldGiveUp() gives up after the last attempt", () => {
  assertEquals(shouldGiveUp(EMAIL_MAX_ATTEMPTS - 1), false);
  assertEquals(shouldGiveUp(EMAIL_MAX_ATTEMPTS), true);
});
