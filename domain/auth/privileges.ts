/**
 * No privilege beyond one's own (API §3), as pure rules the use cases call:
 *  - `assertCanGrant`: assigning or removing a role, creating, editing or deleting a role,
 *    creating a user with roles, an admin reset link for a user and disabling a user need
 *    every permission involved (the role's, or the target user's) among the caller's
 *    effective permissions, else 403 `forbidden`;
 *  - `assertHoldsEveryPermission`: what reads or writes every domain at once (a backup of the
 *    whole shop) needs every permission, else 403 `forbidden`;
 *  - `assertAdminRemains`: no change may leave the store without an active user holding
 *    `users.admin` (409 `last_admin`), unless it had none before.
 */
import { ConflictError, ForbiddenError } from "../errors.ts";
import { expandPermissions, type Permission, PERMISSIONS } from "./permissions.ts";

/** The permission whose holders administer users; the store must keep an active holder. */
export const ADMIN_PERMISSION: Permission = "users.admin";

/** A privilege change refused because the caller lacks `missing` (403 `forbidden`). */
export class PrivilegeDeniedError extends ForbiddenError {
  readonly missing: readonly Permission[];

  constructor(
    missing: readonly Permission[],
    message = `This change involves permissions you do not hold: ${missing.join(", ")}`,
  ) {
    super("forbidden", message);
    this.missing = missing;
  }
}

/** The permissions among `involved` (inheritance expanded) that the caller does not hold. */
export function missingPermissions(
  caller: ReadonlySet<Permission>,
  involved: Iterable<string>,
): Permission[] {
  return [...expandPermissions(involved)].filter((p) => !caller.has(p)).sort();
}

/** 403 `forbidden` (PrivilegeDeniedError) unless the caller holds every involved permission. */
export function assertCanGrant(
  caller: ReadonlySet<Permission>,
  involved: Iterable<string>,
): void {
  const missing = missingPermissions(caller, involved);
  if (missing.length > 0) throw new PrivilegeDeniedError(missing);
}

/**
 * 403 `forbidden` (PrivilegeDeniedError) unless the caller holds every permission: `what`
 * (e.g. "A backup") reads or writes every domain, so anything less would be a privilege
 * beyond the caller's own.
 */
export function assertHoldsEveryPermission(caller: ReadonlySet<Permission>, what: string): void {
  const missing = missingPermissions(caller, PERMISSIONS.map((p) => p.id));
  if (missing.length > 0) {
    throw new PrivilegeDeniedError(
      missing,
      `${what} covers every domain and needs every permission; you lack ${missing.join(", ")}`,
    );
  }
}

/** Whether these granted permissions make their holder an administrator of users. */
export function grantsAdmin(granted: Iterable<string>): boolean {
  return expandPermissions(granted).has(ADMIN_PERMISSION);
}

/**
 * 409 `last_admin` when a change took the store from at least one active `users.admin`
 * holder to none (a store that had none is not blocked by changes that do not concern it).
 */
export function assertAdminRemains(activeAdminsBefore: number, activeAdminsAfter: number): void {
  if (activeAdminsBefore > 0 && activeAdminsAfter === 0) {
    throw new ConflictError(
      "last_admin",
      "This change would leave no active user holding users.admin",
    );
  }
}
