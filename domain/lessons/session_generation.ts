/**
 * Which lesson sessions should exist in a window (spec behavioural rule 1): one per active
 * enrollment per occurrence of its (active) slot's weekday within the enrollment's date
 * range, except on the slot instructor's blocked dates and during store closures.
 *
 * Everything is counted in store-local calendar days, so DST changes in the store's time
 * zone neither shift nor drop a lesson: a 17:00 lesson stays "17:00" on its date.
 */
import { dateOfDayNumber, dayNumber, weekdayOfDayNumber } from "../calendar.ts";
import type { SlotTimes } from "./slot_overlap.ts";

/** A slot as generation sees it: the same facts the overlap rule reads. */
export type GenerationSlot = SlotTimes;

export interface GenerationEnrollment {
  id: string;
  slotId: string;
  memberId: string;
  status: string;
  startDate: string;
  endDate: string | null;
}

export interface GenerationInput {
  slots: readonly GenerationSlot[];
  enrollments: readonly GenerationEnrollment[];
  blockedDates: ReadonlyArray<{ instructorId: string; date: string }>;
  closures: ReadonlyArray<{ startDate: string; endDate: string }>;
  /** Inclusive store-local window. */
  from: string;
  to: string;
}

export interface PlannedSession {
  enrollmentId: string;
  slotId: string;
  memberId: string;
  instructorId: string;
  date: string;
  startMinute: number;
  endMinute: number;
}

export interface GenerationPlan {
  /** Sorted by enrollment id, then date (a stable order for inserting). */
  sessions: PlannedSession[];
  skipped: { blockedDates: number; closures: number };
}

export function planSessions(input: GenerationInput): GenerationPlan {
  const first = dayNumber(input.from);
  const last = dayNumber(input.to);
  const plan: GenerationPlan = { sessions: [], skipped: { blockedDates: 0, closures: 0 } };
  if (last < first) return plan;

  const closed = new Set<number>();
  for (const closure of input.closures) {
    const start = Math.max(first, dayNumber(closure.startDate));
    const end = Math.min(last, dayNumber(closure.endDate));
    for (let day = start; day <= end; day++) closed.add(day);
  }
  const blocked = new Set<string>();
  for (const b of input.blockedDates) blocked.add(`${b.instructorId}|${dayNumber(b.date)}`);

  const slots = new Map<string, GenerationSlot>();
  for (const slot of input.slots) if (slot.isActive) slots.set(slot.id, slot);

  const enrollments = input.enrollments.filter((e) => e.status === "active" && slots.has(e.slotId))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  for (const enrollment of enrollments) {
    const slot = slots.get(enrollment.slotId)!;
    const start = Math.max(first, dayNumber(enrollment.startDate));
    const end = Math.min(last, enrollment.endDate === null ? last : dayNumber(enrollment.endDate));
    if (end < start) continue;
    const offset = (slot.dayOfWeek - weekdayOfDayNumber(start) + 7) % 7;
    for (let day = start + offset; day <= end; day += 7) {
      if (closed.has(day)) {
        plan.skipped.closures++;
        continue;
      }
      if (blocked.has(`${slot.instructorId}|${day}`)) {
        plan.skipped.blockedDates++;
        continue;
      }
      plan.sessions.push({
        enrollmentId: enrollment.id,
        slotId: slot.id,
        memberId: enrollment.memberId,
        instructorId: slot.instructorId,
        date: dateOfDayNumber(day),
        startMinute: slot.startMinute,
        endMinute: slot.endMinute,
      });
    }
  }
  return plan;
}
