/**
 * Manager override (API §8): when the runtime config asks for one and the acting user lacks
 * `pos.override`, the request carries `override: { code }`, the 8-digit employee number +
 * PIN of another active user holding `pos.override` (effective permissions). The code is
 * checked by auth's `checkEmployeePin`, which reserves the attempt on that employee number's
 * PIN counter before comparing (the PIN-login lockout covers both doors, also under parallel
 * attempts) and gives it back only when the approval is valid: a right PIN of a user who may
 * not approve (no `pos.override`, disabled, the caller) counts as a wrong one. Every refusal
 * of a code gets one and the same 403 body, so an answer never tells whose PIN was right;
 * each evaluated failure is audited as `pos.override_failed`. Verification (bcrypt) runs
 * before the caller opens its database transaction.
 */
import { expandPermissions } from "../../domain/auth/permissions.ts";
import { ForbiddenError } from "../../domain/errors.ts";
import {
  type ManagerOverrideConfig,
  type OverrideAction,
  overrideRequired,
  parseOverrideCode,
} from "../../domain/pos/manager_override.ts";
import { actingUserId, type Actor } from "../actor.ts";
import { findActorRecord } from "../auth/actor_repo.ts";
import { checkEmployeePin, type PinHolder } from "../auth/pin_check.ts";
import { audit } from "../audit/audit.ts";
import type { AppDeps } from "../deps.ts";

/** Who approved an action: the acting user (holding pos.override) or another manager. */
export interface Approver {
  userId: string;
  email: string;
  /** true when approved by another user's code. */
  viaCode: boolean;
}

type OverrideDeps = Pick<AppDeps, "db" | "config" | "clock" | "ids">;

/** The audit-log fields naming the cashier and, when one was needed, the approver. */
export function approvalDetails(actor: Actor, approver: Approver | null) {
  return {
    cashierId: actor.userId,
    approverId: approver?.userId ?? null,
    approverEmail: approver?.email ?? null,
    override: approver?.viaCode ?? false,
  };
}

function refused(detail: string): ForbiddenError {
  return new ForbiddenError("manager_override_required", detail);
}

/** The one answer to every refused code, whatever was wrong with it (API §8). */
const INVALID_CODE = "The override code is not valid";

/**
 * The approver of `action`, or null when the config does not ask for an override. Throws
 * 403 `manager_override_required` when one is needed and `override` is missing or invalid.
 */
export async function approveAction(
  deps: OverrideDeps,
  actor: Actor,
  action: OverrideAction,
  config: ManagerOverrideConfig,
  override: { code: string } | undefined,
  needed = true,
): Promise<Approver | null> {
  if (!needed || config[action] !== true) return null;
  const actorHolds = actor.permissions.has("pos.override");
  if (!overrideRequired(action, config, actorHolds)) {
    return { userId: actingUserId(actor), email: actor.email ?? "", viaCode: false };
  }
  if (!override) {
    throw refused(`This action needs a manager override (override.code)`);
  }
  return await verifyOverrideCode(deps, actor, override.code);
}

/** The locked look needs an approval that the first look did not ask for. */
class ApprovalNeededLate extends Error {}

/**
 * Runs a use case whose need for an approval depends on data that may change before its
 * transaction locks it (discounts and prices below the catalogue, by size). `firstLook` tells,
 * before the transaction, whether one is needed, and the code is checked then (bcrypt and the
 * PIN counter outside the transaction). `work` runs the transaction and hands the locked
 * look's answer to `approval(needed)`: the approver, or null when none is needed. Should the
 * locked look need an approval the first did not, the transaction is rolled back, the code
 * is checked, and `work` runs once more.
 */
export async function withApproval<T>(
  deps: OverrideDeps,
  actor: Actor,
  action: OverrideAction,
  config: ManagerOverrideConfig,
  override: { code: string } | undefined,
  firstLook: () => Promise<boolean>,
  work: (approval: (needed: boolean) => Approver | null) => Promise<T>,
): Promise<T> {
  let approver = await approveAction(deps, actor, action, config, override, await firstLook());
  const approval = (needed: boolean): Approver | null => {
    if (!needed || config[action] !== true) return null;
    if (!approver) throw new ApprovalNeededLate();
    return approver;
  };
  try {
    return await work(approval);
  } catch (error) {
    if (!(error instanceof ApprovalNeededLate)) throw error;
    approver = await approveAction(deps, actor, action, config, override);
    return await work(approval);
  }
}

/** Whether the holder of a matching PIN may approve for `actor`. */
async function mayApprove(deps: OverrideDeps, actor: Actor, holder: PinHolder) {
  if (!holder.isActive || holder.id === actor.userId) return false;
  const record = await findActorRecord(deps.db, { id: holder.id });
  return expandPermissions(record?.permissions ?? []).has("pos.override");
}

/** Checks an override code; the approver, or 403 `manager_override_required`. */
async function verifyOverrideCode(
  deps: OverrideDeps,
  actor: Actor,
  code: string,
): Promise<Approver> {
  const parsed = parseOverrideCode(code);
  if (!parsed) throw refused(INVALID_CODE);
  const { employeeNumber, pin } = parsed;
  const check = await checkEmployeePin(deps, employeeNumber, pin, {
    accept: (holder) => mayApprove(deps, actor, holder),
    onFailure: (trx, failure) =>
      audit(deps, trx, actor, {
        action: "pos.override_failed",
        entityType: "user",
        entityId: failure.userId,
        details: {
          employeeNumber,
          failures: failure.state.failures,
          locked: failure.state.lockedUntil !== null,
        },
      }),
  });
  if (check.outcome !== "ok") throw refused(INVALID_CODE);
  return { userId: check.user.id, email: check.user.email, viaCode: true };
}
