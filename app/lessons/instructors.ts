/**
 * Use cases of instructors: each change is audited (`instructor.*`). An instructor may be
 * linked to a user (who then teaches as it); a user links to at most one instructor.
 */
import { ConflictError, InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import { hasUser } from "../auth/users_repo.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { isForeignKeyViolation, isUniqueViolation } from "../db/db_errors.ts";
import { withTransaction } from "../db/transaction.ts";
import {
  deleteInstructor,
  findInstructor,
  insertInstructor,
  type InstructorChanges,
  listInstructorIdsOfUser,
  updateInstructor,
} from "./instructors_repo.ts";
import type { Instructor } from "./lesson_schemas.ts";

function notFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Instructor "${id}" does not exist`);
}

export async function requireInstructor(db: Db, id: string): Promise<Instructor> {
  const instructor = await findInstructor(db, id);
  if (!instructor) throw notFound(id);
  return instructor;
}

/** The instructors the actor teaches as (none for the system actor). */
export async function teachingInstructorIds(db: Db, actor: Actor): Promise<string[]> {
  return actor.userId === null ? [] : await listInstructorIdsOfUser(db, actor.userId);
}

function unknownUser(userId: string | null | undefined): InvalidReferenceError {
  return new InvalidReferenceError("userId", `User "${userId}" does not exist`);
}

async function assertUserLink(db: Db, userId: string | null | undefined): Promise<void> {
  if (userId && !(await hasUser(db, userId))) throw unknownUser(userId);
}

function duplicateUserLink(userId: string | null | undefined): ConflictError {
  return new ConflictError(
    "duplicate",
    `User "${userId}" is already linked to another instructor`,
  );
}

export async function createInstructor(
  deps: AppDeps,
  actor: Actor,
  input: {
    userId?: string | null;
    firstName: string;
    lastName: string;
    email?: string | null;
    isActive?: boolean;
  },
): Promise<Instructor> {
  return await withTransaction(deps.db, async (trx) => {
    await assertUserLink(trx, input.userId);
    let instructor: Instructor;
    try {
      instructor = await insertInstructor(trx, {
        id: deps.ids.uuid(),
        userId: input.userId ?? null,
        firstName: input.firstName,
        lastName: input.lastName,
        email: input.email ?? null,
        isActive: input.isActive ?? true,
        now: deps.clock.now(),
      });
    } catch (error) {
      if (isUniqueViolation(error, "instructors_user_id_key")) {
        throw duplicateUserLink(input.userId);
      }
      if (isForeignKeyViolation(error)) throw unknownUser(input.userId);
      throw error;
    }
    await audit(deps, trx, actor, {
      action: "instructor.created",
      entityType: "instructor",
      entityId: instructor.id,
      details: {
        firstName: instructor.firstName,
        lastName: instructor.lastName,
        userId: instructor.userId,
      },
    });
    return instructor;
  });
}

export async function changeInstructor(
  deps: AppDeps,
  actor: Actor,
  id: string,
  changes: InstructorChanges,
): Promise<Instructor> {
  return await withTransaction(deps.db, async (trx) => {
    await assertUserLink(trx, changes.userId);
    let instructor: Instructor | undefined;
    try {
      instructor = await updateInstructor(trx, id, changes, deps.clock.now());
    } catch (error) {
      if (isUniqueViolation(error, "instructors_user_id_key")) {
        throw duplicateUserLink(changes.userId);
      }
      throw error;
    }
    if (!instructor) throw notFound(id);
    await audit(deps, trx, actor, {
      action: "instructor.updated",
      entityType: "instructor",
      entityId: id,
      details: { changed: Object.keys(changes) },
    });
    return instructor;
  });
}

/** Refused with `in_use` while slots or sessions refer to the instructor. */
export async function removeInstructor(deps: AppDeps, actor: Actor, id: string): Promise<void> {
  await withTransaction(deps.db, async (trx) => {
    const instructor = await requireInstructor(trx, id);
    try {
      if (!(await deleteInstructor(trx, id))) throw notFound(id);
    } catch (error) {
      if (isForeignKeyViolation(error)) {
        throw new ConflictError(
          "in_use",
          `Instructor "${id}" has schedule slots or sessions; deactivate the instructor instead`,
        );
      }
      throw error;
    }
    await audit(deps, trx, actor, {
      action: "instructor.deleted",
      entityType: "instructor",
      entityId: id,
      details: { firstName: instructor.firstName, lastName: instructor.lastName },
    });
  });
}
