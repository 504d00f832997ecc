import { assert, assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { ConflictError } from "../errors.ts";
import {
  assertNoSlotOverlap,
  findOverlappingSlot,
  slotOverlapError,
  slotsOverlap,
  type SlotTimes,
} from "./slot_overlap.ts";

function slot(overrides: Partial<SlotTimes>): SlotTimes {
  return {
    id: "s1",
    instructorId: "i1",
    dayOfWeek: 2,
    startMinute: 16 * 60,
    endMinute: 16 * 60 + 30,
    isActive: true,
    ...overrides,
  };
}

Deno.test("slotsOverlap() finds the same instructor, weekday and overlapping times", () => {
  assert(slotsOverlap(slot({}), slot({ id: "s2", startMinute: 16 * 60 + 15, endMinute: 17 * 60 })));
});

Deno.test("slotsOverlap() allows touching end-to-start", () => {
  assert(
    !slotsOverlap(slot({}), slot({ id: "s2", startMinute: 16 * 60 + 30, endMinute: 17 * 60 })),
  );
});

Deno.test("slotsOverlap() ignores other instructors, other weekdays and inactive slots", () => {
  assert(!slotsOverlap(slot({}), slot({ id: "s2", instructorId: "i2" })));
  assert(!slotsOverlap(slot({}), slot({ id: "s2", dayOfWeek: 3 })));
  assert(!slotsOverlap(slot({}), slot({ id: "s2", isActive: false })));
  assert(!slotsOverlap(slot({ isActive: false }), slot({ id: "s2" })));
});

Deno.test("slotsOverlap() never compares a slot with itself (an update)", () => {
  assert(!slotsOverlap(slot({}), slot({})));
});

Deno.test("assertNoSlotOverlap() refuses with slot_overlap naming the day, times and the other slot", () => {
  const other = slot({ id: "s2", startMinute: 16 * 60 - 10, endMinute: 16 * 60 + 5 });
  assertEquals(findOverlappingSlot(slot({}), [other])?.id, "s2");
  const error = assertThrows(
    () => assertNoSlotOverlap(slot({}), [other]),
    ConflictError,
  ) as ConflictError;
  assertEquals(error.code, "slot_overlap");
  assertEquals(
    error.message,
    'Cannot schedule Tuesday 16:00-16:30 for instructor "i1": it overlaps slot "s2" on ' +
      "Tuesday 15:50-16:05",
  );
  assertNoSlotOverlap(slot({}), [slot({ id: "s3", dayOfWeek: 4 })]);
});

Deno.test("slot_overlap names the instructor and the other slot's lesson type and room", () => {
  const other = {
    ...slot({ id: "s2", startMinute: 16 * 60 - 10, endMinute: 16 * 60 + 5 }),
    lessonTypeName: "Guitar",
    room: "Room 2",
  };
  const error = assertThrows(
    () => assertNoSlotOverlap(slot({}), [other], "Jane Doe"),
    ConflictError,
  );
  assertEquals(
    error.message,
    "Cannot schedule Tuesday 16:00-16:30 for Jane Doe: it overlaps Guitar on Tuesday " +
      "15:50-16:05 in Room 2",
  );
  assertEquals(
    slotOverlapError(slot({}), undefined, "Jane Doe").message,
    "Cannot schedule Tuesday 16:00-16:30 for Jane Doe: it overlaps another active slot of Jane Doe",
  );
});
