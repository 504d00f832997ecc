/**
 * Repair batches (API §9): a school's or a band's instruments taken in together. CRUD with
 * soft delete (refused with 409 in_use while tickets belong to the batch), and the approval
 * workflow draft → submitted → approved | rejected (domain/repairs/batch_status.ts), each
 * move under the batch's row lock; approvals and rejections are audited.
 */
import { ConflictError, InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import { type BatchAction, nextBatchStatus } from "../../domain/repairs/batch_status.ts";
import { findAccount } from "../accounts/accounts_repo.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import {
  type BatchValues,
  type BatchView,
  findBatch,
  insertBatch,
  lockBatch,
  setBatchStatus,
  softDeleteBatch,
  updateBatchRow,
} from "./batches_repo.ts";
import type { BatchJson } from "./repair_schemas.ts";
import { hasTicketsInBatch } from "./tickets_repo.ts";

function batchNotFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Repair batch "${id}" does not exist`);
}

export function batchJson(batch: BatchView): BatchJson {
  return {
    id: batch.id,
    name: batch.name,
    accountId: batch.accountId,
    accountName: batch.accountName,
    notes: batch.notes,
    status: batch.status,
    ticketCount: batch.ticketCount,
    submittedAt: batch.submittedAt,
    submittedBy: batch.submittedBy,
    decidedAt: batch.decidedAt,
    decidedBy: batch.decidedBy,
    approvalNote: batch.status === "approved" ? batch.decisionNote : null,
    rejectionReason: batch.status === "rejected" ? batch.decisionNote : null,
    createdBy: batch.createdBy,
    createdAt: batch.createdAt,
    updatedAt: batch.updatedAt,
  };
}

export async function requireBatch(db: Db, id: string): Promise<BatchJson> {
  const batch = await findBatch(db, id);
  if (!batch) throw batchNotFound(id);
  return batchJson(batch);
}

async function checkAccount(db: Db, accountId: string): Promise<void> {
  if (!(await findAccount(db, accountId))) {
    throw new InvalidReferenceError("accountId", `Account "${accountId}" does not exist`);
  }
}

export async function createBatch(
  deps: AppDeps,
  actor: Actor,
  input: { name: string; accountId: string; notes?: string | null },
): Promise<BatchJson> {
  return await withTransaction(deps.db, async (trx) => {
    await checkAccount(trx, input.accountId);
    const id = deps.ids.uuid();
    await insertBatch(trx, {
      id,
      name: input.name,
      accountId: input.accountId,
      notes: input.notes ?? null,
      createdBy: actor.userId,
      now: deps.clock.now(),
    });
    return await requireBatch(trx, id);
  });
}

export async function updateBatch(
  deps: AppDeps,
  _actor: Actor,
  id: string,
  input: Partial<BatchValues>,
): Promise<BatchJson> {
  return await withTransaction(deps.db, async (trx) => {
    if (!(await lockBatch(trx, id))) throw batchNotFound(id);
    if (input.accountId !== undefined) await checkAccount(trx, input.accountId);
    await updateBatchRow(trx, id, input, deps.clock.now());
    return await requireBatch(trx, id);
  });
}

export async function deleteBatch(deps: AppDeps, actor: Actor, id: string): Promise<void> {
  await withTransaction(deps.db, async (trx) => {
    const batch = await lockBatch(trx, id);
    if (!batch) throw batchNotFound(id);
    if (await hasTicketsInBatch(trx, id)) {
      throw new ConflictError(
        "in_use",
        `Repair batch "${batch.name}" still holds tickets: move them out first`,
      );
    }
    await softDeleteBatch(trx, id, deps.clock.now());
    await audit(deps, trx, actor, {
      action: "repair_batch.deleted",
      entityType: "repair_batch",
      entityId: id,
      details: { name: batch.name },
    });
  });
}

/** submit (repairs.edit), approve `{ note? }` or reject `{ reason }` (repairs.approve). */
export async function moveBatch(
  deps: AppDeps,
  actor: Actor,
  id: string,
  action: BatchAction,
  note: string | null,
): Promise<BatchJson> {
  return await withTransaction(deps.db, async (trx) => {
    const batch = await lockBatch(trx, id);
    if (!batch) throw batchNotFound(id);
    const status = nextBatchStatus(batch.status, action);
    await setBatchStatus(trx, id, { status, by: actor.userId, note }, deps.clock.now());
    if (action !== "submit") {
      await audit(deps, trx, actor, {
        action: `repair_batch.${status}`,
        entityType: "repair_batch",
        entityId: id,
        details: { name: batch.name, ...(note !== null ? { note } : {}) },
      });
    }
    return await requireBatch(trx, id);
  });
}
