/**
 * Manager override (API §8): when the runtime config asks for one and the acting user lacks
 * `pos.override`, the request carries `override: { code }`, the 8-digit employee number +
 * PIN of another active user holding `pos.override` (effective permissions). The code is
 * checked by auth's `checkEmployeePin`: a wrong code counts as a wrong PIN for that employee
 * number (the PIN-login lockout applies to both), so codes cannot be guessed through this
 * door either. Verification (bcrypt) runs before the caller opens its database transaction.
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
import { checkEmployeePin } from "../auth/pin_check.ts";
import type { AppDeps } from "../deps.ts";

/** Who approved an action: the acting user (holding pos.override) or another manager. */
export interface Approver {
  userId: string;
  email: string;
  /** true when approved by another user's code. */
  viaCode: boolean;
}

type OverrideDeps = Pick<AppDeps, "db" | "config" | "clock">;

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

/** Checks an override code; the approver, or 403 `manager_override_required`. */
async function verifyOverrideCode(
  deps: OverrideDeps,
  actor: Actor,
  code: string,
): Promise<Approver> {
  const parsed = parseOverrideCode(code);
  if (!parsed) throw refused("The override code must be 8 digits (employee number + PIN)");
  const check = await checkEmployeePin(deps, parsed.employeeNumber, parsed.pin);
  if (check.outcome === "locked") {
    throw refused("Too many wrong PINs for this employee number; try again later");
  }
  if (check.outcome === "wrong") throw refused("The override code is not valid");
  const user = check.user;
  if (!user.isActive) throw refused("The approving user is disabled");
  if (user.id === actor.userId) {
    throw refused("An override must come from another user holding pos.override");
  }
  const record = await findActorRecord(deps.db, { id: user.id });
  const permissions = expandPermissions(record?.permissions ?? []);
  if (!permissions.has("pos.override")) {
    throw refused("The approving user does not hold pos.override");
  }
  return { userId: user.id, email: user.email, viaCode: true };
}
