/** The substitute availability rule (spec behavioural rule 2, API §10). */
import { ConflictError } from "../errors.ts";
import { timeOfMinutes } from "../calendar.ts";

export interface SubstituteConflicts {
  instructorId: string;
  /** The session's own instructor (who cannot substitute for themselves). */
  sessionInstructorId: string;
  date: string;
  isActive: boolean;
  blocked: boolean;
  /** An active slot of the substitute on the session's weekday overlapping its time. */
  overlappingSlot?: { id: string; startMinute: number; endMinute: number };
  /** Another session the substitute teaches or substitutes that date overlapping in time. */
  overlappingSession?: { id: string; startMinute: number; endMinute: number };
}

/** Throws `substitute_unavailable` naming the first reason the substitute cannot teach. */
export function assertSubstituteAvailable(c: SubstituteConflicts): void {
  const who = `Instructor "${c.instructorId}"`;
  let reason: string | undefined;
  if (c.instructorId === c.sessionInstructorId) reason = `${who} is the session's own instructor`;
  else if (!c.isActive) reason = `${who} is not active`;
  else if (c.blocked) reason = `${who} is blocked on ${c.date}`;
  else if (c.overlappingSlot) {
    const s = c.overlappingSlot;
    reason = `${who} teaches slot "${s.id}" (${timeOfMinutes(s.startMinute)}-${
      timeOfMinutes(s.endMinute)
    }) at that time`;
  } else if (c.overlappingSession) {
    const s = c.overlappingSession;
    reason = `${who} already teaches session "${s.id}" on ${c.date} (${
      timeOfMinutes(s.startMinute)
    }-${timeOfMinutes(s.endMinute)})`;
  }
  if (reason) throw new ConflictError("substitute_unavailable", reason);
}
