/**
 * The slot overlap rule: two active slots of the same instructor on the same weekday may not
 * overlap in time (touching end-to-start is fine). The database enforces it with an
 * exclusion constraint; this pure check gives the refusal a readable message first.
 *
 * Refusals name what people know (`slotText`): "Piano with Jane Doe on Monday 16:00-16:30 in
 * Room 2", falling back to the id only where a name was not passed.
 */
import { ConflictError } from "../errors.ts";
import { minuteRangesOverlap, timeOfMinutes } from "../calendar.ts";

export interface SlotTimes {
  id: string;
  instructorId: string;
  dayOfWeek: number;
  startMinute: number;
  endMinute: number;
  isActive: boolean;
}

export const WEEKDAY_NAMES = [
  "Sunday",
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
] as const;

/** What people call a slot (and its instructor), as far as it is known. */
export interface SlotNames {
  lessonTypeName?: string | null;
  instructorName?: string | null;
  room?: string | null;
}

/** "Monday 16:00-16:30": a weekday and the times of a slot. */
export function weeklyTimeText(slot: Pick<SlotTimes, "dayOfWeek" | "startMinute" | "endMinute">) {
  const day = WEEKDAY_NAMES[slot.dayOfWeek] ?? `day ${slot.dayOfWeek}`;
  return `${day} ${timeOfMinutes(slot.startMinute)}-${timeOfMinutes(slot.endMinute)}`;
}

/**
 * A slot for people: "Piano with Jane Doe on Monday 16:00-16:30 in Room 2" (each part when
 * known; `slot "<id>" on …` without a lesson type name).
 */
export function slotText(
  slot: Pick<SlotTimes, "id" | "dayOfWeek" | "startMinute" | "endMinute">,
  names: SlotNames = {},
): string {
  const what = names.lessonTypeName ? names.lessonTypeName : `slot "${slot.id}"`;
  const who = names.instructorName ? ` with ${names.instructorName}` : "";
  const where = names.room ? ` in ${names.room}` : "";
  return `${what}${who} on ${weeklyTimeText(slot)}${where}`;
}

/** Whether two slots collide under the overlap rule. */
export function slotsOverlap(a: SlotTimes, b: SlotTimes): boolean {
  return a.id !== b.id && a.isActive && b.isActive && a.instructorId === b.instructorId &&
    a.dayOfWeek === b.dayOfWeek && minuteRangesOverlap(a, b);
}

/** The first of `others` that `slot` collides with, if any. */
export function findOverlappingSlot<T extends SlotTimes>(
  slot: SlotTimes,
  others: readonly T[],
): T | undefined {
  return others.find((other) => slotsOverlap(slot, other));
}

/**
 * The `slot_overlap` refusal: "Cannot schedule Monday 16:00-16:30 for Jane Doe: it overlaps
 * Guitar on Monday 15:45-16:15 in Room 2" (`instructorName` and the other slot's names when
 * known; without `other`, a concurrent write's overlap: "another active slot of …").
 */
export function slotOverlapError(
  slot: SlotTimes,
  other?: SlotTimes & SlotNames,
  instructorName?: string | null,
): ConflictError {
  const who = instructorName ? instructorName : `instructor "${slot.instructorId}"`;
  const detail = other
    ? `: it overlaps ${slotText(other, { lessonTypeName: other.lessonTypeName, room: other.room })}`
    : `: it overlaps another active slot of ${instructorName ?? "the instructor"}`;
  return new ConflictError(
    "slot_overlap",
    `Cannot schedule ${weeklyTimeText(slot)} for ${who}${detail}`,
  );
}

/** Throws `slot_overlap` when `slot` collides with one of `others`. */
export function assertNoSlotOverlap(
  slot: SlotTimes,
  others: readonly (SlotTimes & SlotNames)[],
  instructorName?: string | null,
): void {
  const other = findOverlappingSlot(slot, others);
  if (other) throw slotOverlapError(slot, other, instructorName);
}
