/** Use cases of lesson types: each change is audited (`lesson_type.*`). */
import { ConflictError, NotFoundError } from "../../domain/errors.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { isForeignKeyViolation } from "../db/db_errors.ts";
import { withTransaction } from "../db/transaction.ts";
import {
  deleteLessonType,
  findLessonType,
  insertLessonType,
  type LessonTypeValues,
  updateLessonType,
} from "./lesson_types_repo.ts";
import type { LessonType } from "./lesson_schemas.ts";

function notFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Lesson type "${id}" does not exist`);
}

export async function requireLessonType(db: Db, id: string): Promise<LessonType> {
  const type = await findLessonType(db, id);
  if (!type) throw notFound(id);
  return type;
}

export async function createLessonType(
  deps: AppDeps,
  actor: Actor,
  input: Omit<LessonTypeValues, "description"> & { description?: string | null },
): Promise<LessonType> {
  return await withTransaction(deps.db, async (trx) => {
    const type = await insertLessonType(trx, {
      id: deps.ids.uuid(),
      name: input.name,
      description: input.description ?? null,
      durationMinutes: input.durationMinutes,
      ratePresets: input.ratePresets,
      now: deps.clock.now(),
    });
    await audit(deps, trx, actor, {
      action: "lesson_type.created",
      entityType: "lesson_type",
      entityId: type.id,
      details: { name: type.name },
    });
    return type;
  });
}

/** `ratePresets` keys given replace those rates (null clears one). */
export async function changeLessonType(
  deps: AppDeps,
  actor: Actor,
  id: string,
  changes: Partial<LessonTypeValues>,
): Promise<LessonType> {
  return await withTransaction(deps.db, async (trx) => {
    const type = await updateLessonType(trx, id, changes, deps.clock.now());
    if (!type) throw notFound(id);
    await audit(deps, trx, actor, {
      action: "lesson_type.updated",
      entityType: "lesson_type",
      entityId: id,
      details: { name: type.name, changed: Object.keys(changes) },
    });
    return type;
  });
}

/** Refused with `in_use` while schedule slots use the type. */
export async function removeLessonType(deps: AppDeps, actor: Actor, id: string): Promise<void> {
  await withTransaction(deps.db, async (trx) => {
    const type = await requireLessonType(trx, id);
    try {
      if (!(await deleteLessonType(trx, id))) throw notFound(id);
    } catch (error) {
      if (isForeignKeyViolation(error)) {
        throw new ConflictError("in_use", `Lesson type "${id}" is used by schedule slots`);
      }
      throw error;
    }
    await audit(deps, trx, actor, {
      action: "lesson_type.deleted",
      entityType: "lesson_type",
      entityId: id,
      details: { name: type.name },
    });
  });
}
