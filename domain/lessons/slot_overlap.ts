/**
 * The slot overlap rule: two active slots of the same instructor on the same weekday may not
 * overlap in time (touching end-to-start is fine). The database enforces it with an
 * exclusion constraint; this pure check gives the refusal a readable message first.
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

/** Whether two slots collide under the overlap rule. */
export function slotsOverlap(a: SlotTimes, b: SlotTimes): boolean {
  return a.id !== b.id && a.isActive && b.isActive && a.instructorId === b.instructorId &&
    a.dayOfWeek === b.dayOfWeek && minuteRangesOverlap(a, b);
}

/** The first of `others` that `slot` collides with, if any. */
export function findOverlappingSlot(slot: SlotTimes, others: readonly SlotTimes[]) {
  return others.find((other) => slotsOverlap(slot, other));
}

export function slotOverlapError(slot: SlotTimes, other?: SlotTimes): ConflictError {
  const day = WEEKDAY_NAMES[slot.dayOfWeek] ?? `day ${slot.dayOfWeek}`;
  const range = `${timeOfMinutes(slot.startMinute)}-${timeOfMinutes(slot.endMinute)}`;
  const detail = other
    ? `: it overlaps slot "${other.id}" (${timeOfMinutes(other.startMinute)}-${
      timeOfMinutes(other.endMinute)
    })`
    : ": it overlaps another active slot of the instructor";
  return new ConflictError(
    "slot_overlap",
    `Cannot schedule ${day} ${range} for instructor "${slot.instructorId}"${detail}`,
  );
}

/** Throws `slot_overlap` when `slot` collides with one of `others`. */
export function assertNoSlotOverlap(slot: SlotTimes, others: readonly SlotTimes[]): void {
  const other = findOverlappingSlot(slot, others);
  if (other) throw slotOverlapError(slot, other);
}
