import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { ValidationError } from "../errors.ts";
import { generationWindow, MAX_WINDOW_DAYS } from "./generation_window.ts";

const defaults = { today: "2026-12-01", windowDays: 28 };

Deno.test("generationWindow() defaults to today .. today + windowDays", () => {
  assertEquals(generationWindow({}, defaults), { from: "2026-12-01", to: "2026-12-29" });
  assertEquals(generationWindow({ from: "2027-01-01" }, defaults), {
    from: "2027-01-01",
    to: "2027-01-29",
  });
  assertEquals(generationWindow({ to: "2026-12-05" }, defaults), {
    from: "2026-12-01",
    to: "2026-12-05",
  });
});

Deno.test("generationWindow() takes explicit dates as they are, a single day included", () => {
  assertEquals(generationWindow({ from: "2026-12-01", to: "2026-12-01" }), {
    from: "2026-12-01",
    to: "2026-12-01",
  });
});

Deno.test("generationWindow() refuses a reversed window and one over 366 days on to", () => {
  assertEquals(MAX_WINDOW_DAYS, 366);
  generationWindow({ from: "2027-01-01", to: "2028-01-02" });
  for (
    const input of [{ from: "2026-12-02", to: "2026-12-01" }, {
      from: "2027-01-01",
      to: "2028-01-03",
    }]
  ) {
    const error = assertThrows(() => generationWindow(input), ValidationError) as ValidationError;
    assertEquals(error.issues?.[0]?.path, "to");
  }
});
