/** Use cases of lesson sessions: status, notes, substitutes, makeups (API §10). */
import type { Transaction } from "kysely";
import { minutesOfTime, weekdayOf } from "../../domain/calendar.ts";
import { ConflictError, InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import { endMinuteOfTime, makeupMinutes } from "../../domain/lessons/lesson_times.ts";
import { notesCompletedAtAfter } from "../../domain/lessons/session_notes.ts";
import {
  assertCanMakeUp,
  assertSessionTransition,
  type SessionStatus,
} from "../../domain/lessons/session_status.ts";
import { assertSubstituteAvailable } from "../../domain/lessons/substitute.ts";
import { assertMayChangeSession } from "../../domain/lessons/teaching.ts";
import type { Actor } from "../actor.ts";
import type { AppDeps } from "../deps.ts";
import type { Database, Db } from "../db/database.ts";
import { isUniqueViolation } from "../db/db_errors.ts";
import { withTransaction } from "../db/transaction.ts";
import { isInstructorBlocked } from "./blocked_dates_repo.ts";
import { teachingInstructorIds } from "./instructors.ts";
import { lockInstructor } from "./instructors_repo.ts";
import type { Session, SessionRecord } from "./lesson_schemas.ts";
import {
  findOverlappingSessionOf,
  findSession,
  insertMakeupSession,
  lockSession,
  type SessionUpdate,
  updateSession,
} from "./sessions_repo.ts";
import { findOverlappingSlots } from "./slots_repo.ts";

function notFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Lesson session "${id}" does not exist`);
}

export async function requireSession(db: Db, id: string): Promise<Session> {
  const session = await findSession(db, id);
  if (!session) throw notFound(id);
  return session;
}

/** Locks the substitute and checks the availability rule for the session. */
async function assertSubstitute(
  trx: Transaction<Database>,
  session: SessionRecord,
  substituteId: string,
): Promise<void> {
  const substitute = await lockInstructor(trx, substituteId);
  if (!substitute) {
    throw new InvalidReferenceError(
      "substituteInstructorId",
      `Instructor "${substituteId}" does not exist`,
    );
  }
  const startMinute = minutesOfTime(session.startTime);
  const endMinute = endMinuteOfTime(session.endTime);
  const [overlappingSlot] = await findOverlappingSlots(
    trx,
    substituteId,
    weekdayOf(session.date),
    startMinute,
    endMinute,
  );
  assertSubstituteAvailable({
    instructorId: substituteId,
    instructorName: `${substitute.firstName} ${substitute.lastName}`,
    sessionInstructorId: session.instructorId,
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
    const session = await lockSession(trx, id);
    if (!session) throw notFound(id);
    assertMayChangeSession(
      actor.permissions,
      await teachingInstructorIds(trx, actor),
      session,
      changes,
    );
    const update: SessionUpdate = {};
    if (changes.status !== undefined && changes.status !== session.status) {
      assertSessionTransition(session.status, changes.status);
      update.status = changes.status;
    }
    if (changes.notes !== undefined) {
      update.notes = changes.notes;
      update.notesCompletedAt = notesCompletedAtAfter(
        changes.notes,
        session.notesCompletedAt === null ? null : new Date(session.notesCompletedAt),
        deps.clock.now(),
      );
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
    await updateSession(trx, id, update, deps.clock.now());
    return (await findSession(trx, id))!;
  });
}

/** A makeup for a missed or cancelled session: a new session in status `makeup`. */
export async function createMakeupSession(
  deps: AppDeps,
  id: string,
  input: { date: string; startTime?: string },
): Promise<Session> {
  return await withTransaction(deps.db, async (trx) => {
    const original = await lockSession(trx, id);
    if (!original) throw notFound(id);
    assertCanMakeUp(original.status);
    const { startMinute, endMinute } = makeupMinutes(original, input.startTime);
    try {
      const makeup = await insertMakeupSession(trx, {
        id: deps.ids.uuid(),
        original,
        date: input.date,
        startMinute,
        endMinute,
        now: deps.clock.now(),
      });
      return (await findSession(trx, makeup.id))!;
    } catch (error) {
      if (isUniqueViolation(error, "lesson_sessions_makeup_for_key")) {
        throw new ConflictError("duplicate", `Session "${id}" already has a makeup session`);
      }
      throw error;
    }
  });
}
