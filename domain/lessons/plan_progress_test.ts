import { assertEquals } from "../../tests/_helpers/assert.ts";
import { itemDatesAfter, type ItemStatus, progressPercent } from "./plan_progress.ts";

const items = (...statuses: ItemStatus[]) => statuses.map((status) => ({ status }));

Deno.test("progressPercent() is mastered ÷ non-skipped items, rounded", () => {
  assertEquals(progressPercent(items("mastered", "in_progress", "not_started")), 33);
  assertEquals(progressPercent(items("mastered", "mastered", "not_started")), 67);
  assertEquals(progressPercent(items("mastered", "skipped")), 100);
  assertEquals(progressPercent(items("mastered", "skipped", "not_started")), 50);
});

Deno.test("progressPercent() is 0 when no item counts", () => {
  assertEquals(progressPercent([]), 0);
  assertEquals(progressPercent(items("skipped", "skipped")), 0);
});

Deno.test("itemDatesAfter() sets startedDate on in_progress and keeps an earlier one", () => {
  const none = { startedDate: null, masteredDate: null };
  assertEquals(itemDatesAfter("in_progress", none, "2026-12-01"), {
    startedDate: "2026-12-01",
    masteredDate: null,
  });
  assertEquals(
    itemDatesAfter("in_progress", { startedDate: "2026-11-01", masteredDate: null }, "2026-12-01"),
    { startedDate: "2026-11-01", masteredDate: null },
  );
});

Deno.test("itemDatesAfter() sets masteredDate, and startedDate when empty, on mastered", () => {
  assertEquals(
    itemDatesAfter("mastered", { startedDate: null, masteredDate: null }, "2026-12-01"),
    {
      startedDate: "2026-12-01",
      masteredDate: "2026-12-01",
    },
  );
  assertEquals(
    itemDatesAfter("mastered", { startedDate: "2026-11-01", masteredDate: null }, "2026-12-01"),
    { startedDate: "2026-11-01", masteredDate: "2026-12-01" },
  );
});

Deno.test("itemDatesAfter() clears dates on not_started and keeps them on skipped", () => {
  const both = { startedDate: "2026-11-01", masteredDate: "2026-11-02" };
  assertEquals(itemDatesAfter("not_started", both, "2026-12-01"), {
    startedDate: null,
    masteredDate: null,
  });
  assertEquals(itemDatesAfter("skipped", both, "2026-12-01"), both);
});

Deno.test("itemDatesAfter() returns only the two dates, whatever else the item holds", () => {
  const item = { status: "not_started", startedDate: null, masteredDate: null, title: "x" };
  assertEquals(Object.keys(itemDatesAfter("skipped", item, "2026-12-01")).sort(), [
    "masteredDate",
    "startedDate",
  ]);
});
