/**
 * Privilege changes (API §3, "no privilege beyond one's own"): the use cases of users, roles
 * and grants check the permissions involved with `assertCanGrant` (domain/auth/privileges.ts)
 * inside their transaction, run every change that could take `users.admin` away from someone
 * (disabling a user, removing a role from a user, editing a role's permissions, deleting a
 * role) through `keepingAnAdmin`, and audit a refusal with `auditingDenials`.
 *
 * Lock (one): `keepingAnAdmin` first takes the advisory lock "shop.admin_holders"
 * (privileges_repo.ts), before any row lock, so these changes run one at a time, and each
 * counts the active admins before and after its change with the earlier ones committed (READ
 * COMMITTED: each statement sees what committed before it began). Two admins disabling each
 * other at once: the second counts after the first committed and gets 409 `last_admin`.
 * Changes that can only add admins (assigning a role, enabling, creating a user) do not take
 * it: running beside one, a count can only err towards refusing.
 */
import { assertAdminRemains, PrivilegeDeniedError } from "../../domain/auth/privileges.ts";
import type { Transaction } from "kysely";
import type { Actor } from "../actor.ts";
import { audit, type AuditEvent } from "../audit/audit.ts";
import type { Database, Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import { findActorRecord } from "./actor_repo.ts";
import { countActiveAdmins, lockAdminHolders } from "./privileges_repo.ts";

/**
 * Runs `change` under the admin-holders lock: 409 `last_admin` (the transaction rolls back)
 * when it took the store from at least one active `users.admin` holder to none.
 */
export async function keepingAnAdmin<T>(
  trx: Transaction<Database>,
  change: () => Promise<T>,
): Promise<T> {
  await lockAdminHolders(trx);
  const before = await countActiveAdmins(trx);
  const result = await change();
  assertAdminRemains(before, await countActiveAdmins(trx));
  return result;
}

/** The permissions a user holds through their roles (not expanded); [] for no such user. */
export async function grantedPermissionsOf(db: Db, userId: string): Promise<string[]> {
  return (await findActorRecord(db, { id: userId }))?.permissions ?? [];
}

/**
 * Runs a privilege change; when it is refused for lack of permissions, the refusal is
 * audited as `denied` (a security event, with the missing permissions) after the change's
 * transaction rolled back, and the 403 goes on to the caller.
 */
export async function auditingDenials<T>(
  deps: Pick<AppDeps, "db" | "clock" | "ids" | "logger">,
  actor: Actor,
  denied: AuditEvent,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof PrivilegeDeniedError) {
      await audit(deps, deps.db, actor, {
        ...denied,
        details: { ...denied.details, missing: [...error.missing] },
      }).catch((auditError) =>
        deps.logger.warn("could not audit a refused privilege change", {
          action: denied.action,
          error: auditError instanceof Error ? auditError.message : String(auditError),
        })
      );
    }
    throw error;
  }
}
