/**
 * Use cases of role grants (API §3): which roles a user holds, assigning and removing one.
 * Grants apply to existing tokens at once (`changeIdentity` drops the cached actors).
 */
import { ConflictError, InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import type { AppDeps } from "../deps.ts";
import { changeIdentity } from "./actor_cache.ts";
import type { RoleSummary } from "./auth_schemas.ts";
import { findRoleSummary } from "./roles_repo.ts";
import { deleteUserRole, insertUserRole, listUserRoles } from "./user_roles_repo.ts";
import { type IdentityDeps, userNotFound } from "./users.ts";
import { hasUser, lockUser } from "./users_repo.ts";

export async function rolesOfUser(
  deps: Pick<AppDeps, "db">,
  userId: string,
): Promise<RoleSummary[]> {
  if (!(await hasUser(deps.db, userId))) throw userNotFound(userId);
  return await listUserRoles(deps.db, userId);
}

/** Assigning a role the user already has → 409 `duplicate`. */
export async function assignRole(
  deps: IdentityDeps,
  actor: Actor,
  userId: string,
  roleId: string,
): Promise<RoleSummary> {
  return await changeIdentity(deps, async (trx) => {
    if (!(await lockUser(trx, userId))) throw userNotFound(userId);
    const role = await findRoleSummary(trx, roleId);
    if (!role) throw new InvalidReferenceError("roleId", `Role "${roleId}" does not exist`);
    if (!(await insertUserRole(trx, userId, roleId, deps.clock.now()))) {
      throw new ConflictError("duplicate", `The user already has the role "${role.slug}"`);
    }
    await audit(deps, trx, actor, {
      action: "user.role_assigned",
      entityType: "user",
      entityId: userId,
      details: { roleId: role.id, roleSlug: role.slug },
    });
    return role;
  });
}

export async function removeRole(
  deps: IdentityDeps,
  actor: Actor,
  userId: string,
  roleId: string,
): Promise<void> {
  await changeIdentity(deps, async (trx) => {
    const role = await findRoleSummary(trx, roleId);
    if (!role || !(await deleteUserRole(trx, userId, roleId))) {
      throw new NotFoundError("not_found", `User "${userId}" does not have role "${roleId}"`);
    }
    await audit(deps, trx, actor, {
      action: "user.role_removed",
      entityType: "user",
      entityId: userId,
      details: { roleId: role.id, roleSlug: role.slug },
    });
  });
}
