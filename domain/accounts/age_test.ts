import { assertEquals } from "../../tests/_helpers/assert.ts";
import { ageOn, isMinorOn } from "./age.ts";

Deno.test("ageOn() counts completed years", () => {
  assertEquals(ageOn("2000-06-15", "2018-06-14"), 17);
  assertEquals(ageOn("2000-06-15", "2018-06-15"), 18);
  assertEquals(ageOn("2000-06-15", "2030-01-01"), 29);
});

Deno.test("ageOn() completes a 29 February birthday on 1 March in common years", () => {
  assertEquals(ageOn("2008-02-29", "2026-02-28"), 17);
  assertEquals(ageOn("2008-02-29", "2026-03-01"), 18);
  assertEquals(ageOn("2008-02-29", "2028-02-29"), 20);
});

Deno.test("isMinorOn() is true until the 18th birthday", () => {
  assertEquals(isMinorOn("2008-11-21", "2026-11-20"), true);
  assertEquals(isMinorOn("2008-11-21", "2026-11-21"), false);
});
