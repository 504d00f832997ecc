/** The substitute availability rule (spec behavioural rule 2, API §10). */
import { ConflictError } from "../errors.ts";
import { timeOfMinutes } from "../calendar.ts";
import { type SlotNames, slotText } from "./slot_overlap.ts";

export interface SubstituteConflicts {
  instructorId: string;
  /** "First Last" of the substitute (the refusal names them; the id otherwise). */
  instructorName?: string;
  /** The session's own instructor (who cannot substitute for themselves). */
  sessionInstructorId: string;
  date: string;
  isActive: boolean;
  blocked: boolean;
  /** An active slot of the substitute on the session's weekday overlapping its time. */
  overlappingSlot?: {
    id: string;
    dayOfWeek: number;
    startMinute: number;
    endMinute: number;
  } & SlotNames;
  /** Another session the substitute teaches or substitutes that date overlapping in time. */
  overlappingSession?: {
    id: string;
    startMinute: number;
    endMinute: number;
    memberName?: string | null;
    lessonTypeName?: string | null;
  };
}

/** "Mia Chen's Piano lesson", as far as it is known; `session "<id>"` otherwise. */
function lessonText(session: NonNullable<SubstituteConflicts["overlappingSession"]>): string {
  const what = session.lessonTypeName ? `${session.lessonTypeName} lesson` : "lesson";
  return session.memberName ? `${session.memberName}'s ${what}` : `session "${session.id}"`;
}

/** Throws `substitute_unavailable` naming the first reason the substitute cannot teach. */
export function assertSubstituteAvailable(c: SubstituteConflicts): void {
  const who = c.instructorName ?? `Instructor "${c.instructorId}"`;
  let reason: string | undefined;
  if (c.instructorId === c.sessionInstructorId) reason = `${who} is the session's own instructor`;
  else if (!c.isActive) reason = `${who} is not active`;
  else if (c.blocked) reason = `${who} is blocked on ${c.date}`;
  else if (c.overlappingSlot) {
    const s = c.overlappingSlot;
    reason = `${who} teaches ${
      slotText(s, { lessonTypeName: s.lessonTypeName, room: s.room })
    } at that time`;
  } else if (c.overlappingSession) {
    const s = c.overlappingSession;
    reason = `${who} already teaches ${lessonText(s)} on ${c.date} (${
      timeOfMinutes(s.startMinute)
    }-${timeOfMinutes(s.endMinute)})`;
  }
  if (reason) throw new ConflictError("substitute_unavailable", reason);
}
