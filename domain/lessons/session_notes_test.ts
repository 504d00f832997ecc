import { assertEquals } from "../../tests/_helpers/assert.ts";
import { notesCompletedAtAfter } from "./session_notes.ts";

const now = new Date("2026-12-01T17:00:00Z");
const earlier = new Date("2026-11-24T17:00:00Z");

Deno.test("notesCompletedAtAfter() sets the time on the first non-empty notes and keeps it", () => {
  assertEquals(notesCompletedAtAfter("Scales in G", null, now), now);
  assertEquals(notesCompletedAtAfter("More scales", earlier, now), earlier);
});

Deno.test("notesCompletedAtAfter() clears the time for empty or blank notes", () => {
  assertEquals(notesCompletedAtAfter(null, earlier, now), null);
  assertEquals(notesCompletedAtAfter("  ", earlier, now), null);
});
