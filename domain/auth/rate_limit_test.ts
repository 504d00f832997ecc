import { assertEquals } from "../../tests/_helpers/assert.ts";
import { secondsUntilWindowEnds, windowStart } from "./rate_limit.ts";

Deno.test("windowStart() aligns to whole windows and secondsUntilWindowEnds() counts the rest", () => {
  const now = new Date("2026-11-21T10:07:30Z");
  assertEquals(windowStart(now, 900).toISOString(), "2026-11-21T10:00:00.000Z");
  assertEquals(secondsUntilWindowEnds(now, 900), 450);
  assertEquals(secondsUntilWindowEnds(new Date("2026-11-21T10:14:59.900Z"), 900), 1);
});
