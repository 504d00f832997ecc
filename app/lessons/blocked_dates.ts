/** Use cases of instructors' blocked dates: each change is audited (`blocked_date.*`). */
import { ConflictError, NotFoundError } from "../../domain/errors.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import type { AppDeps } from "../deps.ts";
import { isForeignKeyViolation, isUniqueViolation } from "../db/db_errors.ts";
import { withTransaction } from "../db/transaction.ts";
import { deleteBlockedDate, insertBlockedDate } from "./blocked_dates_repo.ts";
import { requireInstructor } from "./instructors.ts";
import type { BlockedDate } from "./lesson_schemas.ts";

/** Blocks one day for the instructor; a day already blocked → 409 `duplicate`. */
export async function addBlockedDate(
  deps: AppDeps,
  actor: Actor,
  instructorId: string,
  input: { date: string; reason?: string | null },
): Promise<BlockedDate> {
  return await withTransaction(deps.db, async (trx) => {
    await requireInstructor(trx, instructorId);
    let blocked: BlockedDate;
    try {
      blocked = await insertBlockedDate(trx, {
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
        throw new NotFoundError("not_found", `Instructor "${instructorId}" does not exist`);
      }
      throw error;
    }
    await audit(deps, trx, actor, {
      action: "blocked_date.created",
      entityType: "blocked_date",
      entityId: blocked.id,
      details: { instructorId, date: blocked.date },
    });
    return blocked;
  });
}

export async function removeBlockedDate(
  deps: AppDeps,
  actor: Actor,
  instructorId: string,
  blockedDateId: string,
): Promise<void> {
  await withTransaction(deps.db, async (trx) => {
    const removed = await deleteBlockedDate(trx, instructorId, blockedDateId);
    if (!removed) {
      throw new NotFoundError("not_found", `Blocked date "${blockedDateId}" does not exist`);
    }
    await audit(deps, trx, actor, {
      action: "blocked_date.deleted",
      entityType: "blocked_date",
      entityId: blockedDateId,
      details: { instructorId, date: removed.date },
    });
  });
}
