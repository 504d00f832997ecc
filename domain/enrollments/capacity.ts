/**
 * Enrollment rules (spec behavioural rule 4): a slot holds at most `maxStudents` seats
 * (active and paused enrollments hold one), and a member cannot hold two enrollments at
 * the same weekday and time over overlapping dates.
 */
import { ConflictError } from "../errors.ts";
import { dateRangesOverlap, minuteRangesOverlap } from "../calendar.ts";
import { type SlotNames, slotText } from "../lessons/slot_overlap.ts";
import { type EnrollmentStatus, holdsSeat } from "./status_machine.ts";

export interface EnrollmentPlacement {
  slotId: string;
  dayOfWeek: number;
  startMinute: number;
  endMinute: number;
  startDate: string;
  endDate: string | null;
  /** What people call the slot (a refusal names it; its id otherwise). */
  names?: SlotNames;
}

export interface HeldEnrollment extends EnrollmentPlacement {
  id: string;
}

export interface EnrollCheck {
  memberId: string;
  /** "First Last" (a refusal names the member; the id otherwise). */
  memberName?: string;
  placement: EnrollmentPlacement;
  /** Whether the slot takes enrollments at all. */
  slotIsActive: boolean;
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

function placementText(placement: EnrollmentPlacement): string {
  return slotText(
    {
      id: placement.slotId,
      dayOfWeek: placement.dayOfWeek,
      startMinute: placement.startMinute,
      endMinute: placement.endMinute,
    },
    placement.names,
  );
}

/**
 * Throws `slot_inactive`, `slot_full` or `double_booked` when the member cannot take this
 * placement, naming the member and the slots as people know them: `Cannot enroll Mia Chen:
 * Piano with Jane Doe on Monday 16:00-16:30 is full (4)`.
 */
export function assertCanEnroll(check: EnrollCheck): void {
  const { placement } = check;
  const member = check.memberName ?? `member "${check.memberId}"`;
  if (!check.slotIsActive) {
    throw new ConflictError(
      "slot_inactive",
      `Cannot enroll ${member}: ${placementText(placement)} is not active`,
    );
  }
  if (check.seatsHeld >= check.maxStudents) {
    throw new ConflictError(
      "slot_full",
      `Cannot enroll ${member}: ${placementText(placement)} is full (${check.maxStudents})`,
    );
  }
  const clash = check.memberEnrollments.find((held) => placementsCollide(held, placement));
  if (clash) {
    throw new ConflictError(
      "double_booked",
      `Cannot enroll ${member}: they already take ${placementText(clash)} ` +
        `(enrollment from ${clash.startDate}${clash.endDate ? ` to ${clash.endDate}` : ""})`,
    );
  }
}

/**
 * Whether a change of an enrollment must pass the capacity and double-booking checks again:
 * it holds a seat and moves to another slot or other dates.
 */
export function placementCheckNeeded(
  current: { slotId: string; startDate: string; endDate: string | null; status: EnrollmentStatus },
  next: { slotId: string; startDate: string; endDate: string | null },
): boolean {
  return holdsSeat(current.status) && (next.slotId !== current.slotId ||
    next.startDate !== current.startDate || next.endDate !== current.endDate);
}
