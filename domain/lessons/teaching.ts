/**
 * Who may act on lessons they teach (API §10): `lessons.edit` may change any session or
 * plan; a `lessons.teach` user acts only as the instructor (or substitute) of the session,
 * or the instructor of the enrollment's slot, and may not assign substitutes.
 * `instructorIds` are the instructors the user teaches as.
 */
import type { Permission } from "../auth/permissions.ts";
import { ForbiddenError } from "../errors.ts";

/** Whether the user teaches the session as its instructor or its substitute. */
export function teachesSession(
  instructorIds: readonly string[],
  session: { instructorId: string; substituteInstructorId: string | null },
): boolean {
  return instructorIds.includes(session.instructorId) ||
    (session.substituteInstructorId !== null &&
      instructorIds.includes(session.substituteInstructorId));
}

/** Throws `forbidden` unless the user may make these changes to the session. */
export function assertMayChangeSession(
  permissions: ReadonlySet<Permission>,
  instructorIds: readonly string[],
  session: { instructorId: string; substituteInstructorId: string | null },
  changes: { substituteInstructorId?: string | null },
): void {
  if (permissions.has("lessons.edit")) return;
  if (!teachesSession(instructorIds, session)) {
    throw new ForbiddenError("forbidden", "You can only change sessions you teach");
  }
  if (changes.substituteInstructorId !== undefined) {
    throw new ForbiddenError(
      "forbidden",
      "Assigning a substitute needs the lessons.edit permission",
    );
  }
}

/**
 * Throws `forbidden` unless the user may record progress on a plan of an enrollment whose
 * slot `slotInstructorId` teaches (undefined: the enrollment is gone).
 */
export function assertMayRecordProgress(
  permissions: ReadonlySet<Permission>,
  instructorIds: readonly string[],
  slotInstructorId: string | undefined,
): void {
  if (permissions.has("lessons.edit")) return;
  if (slotInstructorId === undefined || !instructorIds.includes(slotInstructorId)) {
    throw new ForbiddenError("forbidden", "You can only update plans of lessons you teach");
  }
}
