/** Enrollment statuses: active ↔ paused; active|paused → withdrawn|completed (final). */
import { ConflictError } from "../errors.ts";

export const ENROLLMENT_STATUSES = ["active", "paused", "withdrawn", "completed"] as const;
export type EnrollmentStatus = typeof ENROLLMENT_STATUSES[number];

const MOVES: Record<EnrollmentStatus, readonly EnrollmentStatus[]> = {
  active: ["paused", "withdrawn", "completed"],
  paused: ["active", "withdrawn", "completed"],
  withdrawn: [],
  completed: [],
};

export function canMoveEnrollment(from: EnrollmentStatus, to: EnrollmentStatus): boolean {
  return MOVES[from].includes(to);
}

export function assertEnrollmentTransition(from: EnrollmentStatus, to: EnrollmentStatus): void {
  if (!canMoveEnrollment(from, to)) {
    throw new ConflictError(
      "invalid_transition",
      `Cannot move an enrollment from ${from} to ${to}`,
    );
  }
}

/** Statuses that hold a seat in the slot: withdrawn and completed release it. */
export const SEAT_HOLDING_STATUSES = [
  "active",
  "paused",
] as const satisfies readonly EnrollmentStatus[];

export function holdsSeat(status: EnrollmentStatus): boolean {
  return (SEAT_HOLDING_STATUSES as readonly EnrollmentStatus[]).includes(status);
}
