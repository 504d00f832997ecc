/** Use cases of lesson types, instructors, blocked dates and store closures. */
import { ConflictError, InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";
import { isForeignKeyViolation, isUniqueViolation } from "../db/db_errors.ts";
import type { Db } from "../db/database.ts";
import { localDate } from "../../domain/lessons/calendar.ts";
import { findStoreTimezone } from "../platform/platform_repo.ts";
import {
  deleteBlockedDate,
  deleteInstructor,
  deleteLessonType,
  deleteStoreClosure,
  findInstructor,
  insertBlockedDate,
  insertInstructor,
  type InstructorChanges,
  updateInstructor,
  userExists,
} from "./lessons_repo.ts";
import type { Instructor } from "./lesson_schemas.ts";

/** Today's date in the store's time zone. */
export async function storeToday(deps: AppDeps, db: Db = deps.db): Promise<string> {
  return localDate(deps.clock.now(), await findStoreTimezone(db));
}

export async function removeLessonType(deps: AppDeps, id: string): Promise<void> {
  try {
    if (!(await deleteLessonType(deps.db, id))) {
      throw new NotFoundError(`Lesson type "${id}" does not exist`);
    }
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw new ConflictError("in_use", `Lesson type "${id}" is used by schedule slots`);
    }
    throw error;
  }
}

async function assertUserLink(db: Db, userId: string | null | undefined): Promise<void> {
  if (userId && !(await userExists(db, userId))) {
    throw new InvalidReferenceError("userId", `User "${userId}" does not exist`);
  }
}

function duplicateUserLink(userId: string | null | undefined): ConflictError {
  return new ConflictError(
    "duplicate",
    `User "${userId}" is already linked to another instructor`,
  );
}

export async function createInstructor(
  deps: AppDeps,
  input: {
    userId?: string | null;
    firstName: string;
    lastName: string;
    email?: string | null;
    isActive?: boolean;
  },
): Promise<Instructor> {
  await assertUserLink(deps.db, input.userId);
  try {
    return await insertInstructor(deps.db, {
      id: deps.ids.uuid(),
      userId: input.userId ?? null,
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email ?? null,
      isActive: input.isActive ?? true,
      now: deps.clock.now(),
    });
  } catch (error) {
    if (isUniqueViolation(error, "instructors_user_id_key")) throw duplicateUserLink(input.userId);
    if (isForeignKeyViolation(error)) {
      throw new InvalidReferenceError("userId", `User "${input.userId}" does not exist`);
    }
    throw error;
  }
}

export async function changeInstructor(
  deps: AppDeps,
  id: string,
  changes: InstructorChanges,
): Promise<Instructor> {
  await assertUserLink(deps.db, changes.userId);
  let instructor: Instructor | undefined;
  try {
    instructor = await updateInstructor(deps.db, id, changes, deps.clock.now());
  } catch (error) {
    if (isUniqueViolation(error, "instructors_user_id_key")) {
      throw duplicateUserLink(changes.userId);
    }
    throw error;
  }
  if (!instructor) throw new NotFoundError(`Instructor "${id}" does not exist`);
  return instructor;
}

export async function removeInstructor(deps: AppDeps, id: string): Promise<void> {
  try {
    if (!(await deleteInstructor(deps.db, id))) {
      throw new NotFoundError(`Instructor "${id}" does not exist`);
    }
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw new ConflictError(
        "in_use",
        `Instructor "${id}" has schedule slots or sessions; deactivate the instructor instead`,
      );
    }
    throw error;
  }
}

export async function requireInstructor(db: Db, id: string): Promise<Instructor> {
  const instructor = await findInstructor(db, id);
  if (!instructor) throw new NotFoundError(`Instructor "${id}" does not exist`);
  return instructor;
}

export async function addBlockedDate(
  deps: AppDeps,
  instructorId: string,
  input: { date: string; reason?: string | null },
) {
  await requireInstructor(deps.db, instructorId);
  try {
    return await insertBlockedDate(deps.db, {
      id: deps.ids.uuid(),
      instructorId,
      date: input.date,
      reason: input.reason ?? null,
      now: deps.clock.now(),
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ConflictError(
        "duplicate",
        `Instructor "${instructorId}" is already blocked on ${input.date}`,
      );
    }
    if (isForeignKeyViolation(error)) {
      throw new NotFoundError(`Instructor "${instructorId}" does not exist`);
    }
    throw error;
  }
}

export async function removeBlockedDate(
  deps: AppDeps,
  instructorId: string,
  blockedDateId: string,
): Promise<void> {
  if (!(await deleteBlockedDate(deps.db, instructorId, blockedDateId))) {
    throw new NotFoundError(`Blocked date "${blockedDateId}" does not exist`);
  }
}

export async function removeStoreClosure(deps: AppDeps, id: string): Promise<void> {
  if (!(await deleteStoreClosure(deps.db, id))) {
    throw new NotFoundError(`Store closure "${id}" does not exist`);
  }
}
