/**
 * Cash adjustments: cash in or out of an open drawer (API §8). A manager's approval is needed
 * when `managerOverride.cashInOut` is on; it is audited with the adjustment as
 * `pos.cash_adjustment`.
 */
import { actingUserId, type Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { currentConfig } from "../platform/runtime_config.ts";
import type { ListParams } from "../schemas.ts";
import { type AdjustmentRecord, insertAdjustment, listAdjustments } from "./adjustments_repo.ts";
import { drawerNotOpen, requireDrawerSession, requireLockedDrawerSession } from "./drawers.ts";
import { approvalDetails, approveAction } from "./overrides.ts";

export async function addAdjustment(
  deps: AppDeps,
  actor: Actor,
  sessionId: string,
  input: {
    direction: "in" | "out";
    amount: string;
    reason: string;
    override?: { code: string };
  },
): Promise<AdjustmentRecord> {
  const existing = await requireDrawerSession(deps.db, sessionId);
  if (existing.status !== "open") throw await drawerNotOpen(deps.db, sessionId);
  const config = await currentConfig(deps);
  const approver = await approveAction(
    deps,
    actor,
    "cashInOut",
    config.managerOverride,
    input.override,
  );
  return await withTransaction(deps.db, async (trx) => {
    const session = await requireLockedDrawerSession(trx, sessionId, "share");
    if (session.status !== "open") throw await drawerNotOpen(trx, sessionId);
    const now = deps.clock.now();
    const adjustment = await insertAdjustment(trx, {
      id: deps.ids.uuid(),
      drawerSessionId: sessionId,
      direction: input.direction,
      amount: input.amount,
      reason: input.reason,
      createdBy: actingUserId(actor),
      approvedBy: approver?.userId ?? null,
      now,
    });
    await audit(deps, trx, actor, {
      action: "pos.cash_adjustment",
      entityType: "drawer_session",
      entityId: sessionId,
      details: {
        adjustmentId: adjustment.id,
        direction: adjustment.direction,
        amount: adjustment.amount,
        reason: adjustment.reason,
        ...approvalDetails(actor, approver),
      },
    });
    return adjustment;
  });
}

export async function listDrawerAdjustments(
  deps: Pick<AppDeps, "db">,
  sessionId: string,
  params: ListParams,
) {
  await requireDrawerSession(deps.db, sessionId);
  return listAdjustments(deps.db, sessionId, params);
}
