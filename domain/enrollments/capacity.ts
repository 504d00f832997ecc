/**
 * Enrollment rules (spec behavioural rule 4): a slot holds at most `maxStudents` seats
 * (active and paused enrollments hold one), and a member cannot hold two enrollments at
 * the same weekday and time over overlapping dates.
 */
import { ConflictError } from "../errors.ts";
import { dateRangesOverlap, minuteRangesOverlap } from "../lessons/calendar.ts";

/** Statuses that hold a seat in the slot. */
export const SEAT_HOLDING_STATUSES = ["active", "paused"] as const;

export interface EnrollmentPlacement {
  slotId: string;
  dayOfWeek: number;
  startMinute: number;
  endMinute: number;
  startDate: string;
  endDate: string | null;
}

export interface HeldEnrollment extends EnrollmentPlacement {
  id: string;
}

export interface EnrollCheck {
  memberId: string;
  placement: EnrollmentPlacement;
  maxStudents: number;
  /** Seats held in the slot by other enrollments whose dates overlap the new one. */
  seatsHeld: number;
  /** The member's other active/paused enrollments. */
  memberEnrollments: readonly HeldEnrollment[];
}

/** Whether two placements would have the member in two lessons at once. */
export function placementsCollide(a: EnrollmentPlacement, b: EnrollmentPlacement): boolean {
  return a.dayOfWeek === b.dayOfWeek && minuteRangesOverlap(a, b) && dateRangesOverlap(a, b);
}

/** Throws `slot_full` or `double_booked` when the member cannot take this placement. */
export function assertCanEnroll(check: EnrollCheck): void {
  const { placement } = check;
  if (check.seatsHeld >= check.maxStudents) {
    throw new ConflictError(
      "slot_full",
      `Cannot enroll member "${check.memberId}": slot "${placement.slotId}" is full (${check.maxStudents})`,
    );
  }
  const clash = check.memberEnrollments.find((held) => placementsCollide(held, placement));
  if (clash) {
    throw new ConflictError(
      "double_booked",
      `Cannot enroll member "${check.memberId}": enrollment "${clash.id}" already takes that day and time`,
    );
  }
}
