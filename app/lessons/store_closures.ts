/** Use cases of store closures: each change is audited (`store_closure.*`). */
import { NotFoundError } from "../../domain/errors.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import type { AppDeps } from "../deps.ts";
import { withTransaction } from "../db/transaction.ts";
import type { StoreClosure } from "./lesson_schemas.ts";
import { deleteStoreClosure, insertStoreClosure } from "./store_closures_repo.ts";

/** Closes the store from `startDate` to `endDate` (inclusive) for lessons. */
export async function createStoreClosure(
  deps: AppDeps,
  actor: Actor,
  input: { startDate: string; endDate: string; reason: string },
): Promise<StoreClosure> {
  return await withTransaction(deps.db, async (trx) => {
    const closure = await insertStoreClosure(trx, {
      id: deps.ids.uuid(),
      startDate: input.startDate,
      endDate: input.endDate,
      reason: input.reason,
      now: deps.clock.now(),
    });
    await audit(deps, trx, actor, {
      action: "store_closure.created",
      entityType: "store_closure",
      entityId: closure.id,
      details: { startDate: closure.startDate, endDate: closure.endDate, reason: closure.reason },
    });
    return closure;
  });
}

export async function removeStoreClosure(deps: AppDeps, actor: Actor, id: string): Promise<void> {
  await withTransaction(deps.db, async (trx) => {
    const removed = await deleteStoreClosure(trx, id);
    if (!removed) throw new NotFoundError("not_found", `Store closure "${id}" does not exist`);
    await audit(deps, trx, actor, {
      action: "store_closure.deleted",
      entityType: "store_closure",
      entityId: id,
      details: { startDate: removed.startDate, endDate: removed.endDate, reason: removed.reason },
    });
  });
}
