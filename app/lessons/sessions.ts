/** Use cases of lesson sessions: status, notes, substitutes, makeups (API §10). */
import {
  ConflictError,
  ForbiddenError,
  InvalidReferenceError,
  NotFoundError,
  ValidationError,
} from "../../domain/errors.ts";
import { minutesOfTime, weekdayOf } from "../../domain/lessons/calendar.ts";
import {
  assertCanMakeUp,
  assertSessionTransition,
  type SessionStatus,
} from "../../domain/lessons/session_status.ts";
import { assertSubstituteAvailable } from "../../domain/lessons/substitute.ts";
import type { Actor } from "../auth/actor.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { isUniqueViolation } from "../db/db_errors.ts";
import { withTransaction } from "../db/transaction.ts";
import {
  findInstructor,
  findOverlappingSessionOf,
  findOverlappingSlots,
  findSession,
  insertMakeupSession,
  instructorIdsOfUser,
  isInstructorBlocked,
  updateSession,
} from "./lessons_repo.ts";
import type { Session } from "./lesson_schemas.ts";

/** Whether the actor may act on a session as its instructor or substitute. */
async function teachesSession(db: Db, actor: Actor, session: Session): Promise<boolean> {
  const mine = await instructorIdsOfUser(db, actor.userId);
  return mine.includes(session.instructorId) ||
    (session.substituteInstructorId !== null && mine.includes(session.substituteInstructorId));
}

async function assertSubstitute(trx: Db, session: Session, substituteId: string) {
  const substitute = await findInstructor(trx, substituteId, true);
  if (!substitute) {
    throw new InvalidReferenceError(
      "substituteInstructorId",
      `Instructor "${substituteId}" does not exist`,
    );
  }
  if (substituteId === session.instructorId) {
    throw new ConflictError(
      "substitute_unavailable",
      `Instructor "${substituteId}" is the session's own instructor`,
    );
  }
  const startMinute = minutesOfTime(session.startTime);
  const endMinute = session.endTime === "24:00" ? 1440 : minutesOfTime(session.endTime);
  const [overlappingSlot] = await findOverlappingSlots(
    trx,
    substituteId,
    weekdayOf(session.date),
    startMinute,
    endMinute,
  );
  assertSubstituteAvailable({
    instructorId: substituteId,
    date: session.date,
    isActive: substitute.isActive,
    blocked: await isInstructorBlocked(trx, substituteId, session.date),
    overlappingSlot,
    overlappingSession: await findOverlappingSessionOf(
      trx,
      substituteId,
      session.date,
      startMinute,
      endMinute,
      session.id,
    ),
  });
}

export interface SessionChanges {
  status?: SessionStatus;
  notes?: string | null;
  substituteInstructorId?: string | null;
}

/**
 * Applies status, notes and substitute changes. lessons.edit may change all three; a
 * lessons.teach user only status and notes of sessions they teach (else 403 forbidden).
 */
export async function changeSession(
  deps: AppDeps,
  actor: Actor,
  id: string,
  changes: SessionChanges,
): Promise<Session> {
  return await withTransaction(deps.db, async (trx) => {
    const session = await findSession(trx, id, true);
    if (!session) throw new NotFoundError(`Lesson session "${id}" does not exist`);
    if (!actor.permissions.has("lessons.edit")) {
      if (!(await teachesSession(trx, actor, session))) {
        throw new ForbiddenError("forbidden", "You can only change sessions you teach");
      }
      if (changes.substituteInstructorId !== undefined) {
        throw new ForbiddenError(
          "forbidden",
          "Assigning a substitute needs the lessons.edit permission",
        );
      }
    }
    const update: Parameters<typeof updateSession>[2] = {};
    if (changes.status !== undefined && changes.status !== session.status) {
      assertSessionTransition(session.status, changes.status);
      update.status = changes.status;
    }
    if (changes.notes !== undefined) {
      const hasNotes = (changes.notes ?? "").trim() !== "";
      update.notes = changes.notes;
      update.notesCompletedAt = hasNotes
        ? (session.notesCompletedAt ? new Date(session.notesCompletedAt) : deps.clock.now())
        : null;
    }
    if (
      changes.substituteInstructorId !== undefined &&
      changes.substituteInstructorId !== session.substituteInstructorId
    ) {
      if (changes.substituteInstructorId !== null) {
        await assertSubstitute(trx, session, changes.substituteInstructorId);
      }
      update.substituteInstructorId = changes.substituteInstructorId;
    }
    return await updateSession(trx, id, update, deps.clock.now());
  });
}

/** A makeup for a missed or cancelled session: a new session in status `makeup`. */
export async function createMakeupSession(
  deps: AppDeps,
  id: string,
  input: { date: string; startTime?: string },
): Promise<Session> {
  return await withTransaction(deps.db, async (trx) => {
    const original = await findSession(trx, id, true);
    if (!original) throw new NotFoundError(`Lesson session "${id}" does not exist`);
    assertCanMakeUp(original.status);
    const originalStart = minutesOfTime(original.startTime);
    const originalEnd = original.endTime === "24:00" ? 1440 : minutesOfTime(original.endTime);
    const startMinute = input.startTime ? minutesOfTime(input.startTime) : originalStart;
    const endMinute = startMinute + (originalEnd - originalStart);
    if (endMinute > 1440) {
      throw new ValidationError([{
        path: "startTime",
        message: "The makeup must end by midnight",
      }]);
    }
    try {
      return await insertMakeupSession(trx, {
        id: deps.ids.uuid(),
        original,
        date: input.date,
        startMinute,
        endMinute,
        now: deps.clock.now(),
      });
    } catch (error) {
      if (isUniqueViolation(error, "lesson_sessions_makeup_for_key")) {
        throw new ConflictError("duplicate", `Session "${id}" already has a makeup session`);
      }
      throw error;
    }
  });
}
