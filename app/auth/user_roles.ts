/**
 * Use cases of role grants (API §3): which roles a user holds, assigning and removing one.
 * Grants apply to existing tokens at once (`changeIdentity` drops the cached actors).
 * Assigning or removing a role needs every permission of the role and of the user (403
 * `forbidden`, audited); removing one may not leave the store without an admin (409
 * `last_admin`; see privileges.ts).
 */
import { assertCanGrant } from "../../domain/auth/privileges.ts";
import { ConflictError, InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import type { AppDeps } from "../deps.ts";
import { changeIdentity } from "./actor_cache.ts";
import type { RoleSummary } from "./auth_schemas.ts";
import { auditingDenials, grantedPermissionsOf, keepingAnAdmin } from "./privileges.ts";
import { findRole } from "./roles_repo.ts";
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
  const denied = {
    action: "user.role_assign_denied",
    entityType: "user",
    entityId: userId,
    details: { roleId },
  };
  return await auditingDenials(deps, actor, denied, () =>
    changeIdentity(deps, async (trx) => {
      if (!(await lockUser(trx, userId))) throw userNotFound(userId);
      const role = await findRole(trx, roleId);
      if (!role) throw new InvalidReferenceError("roleId", `Role "${roleId}" does not exist`);
      assertCanGrant(actor.permissions, [
        ...role.permissions,
        ...await grantedPermissionsOf(trx, userId),
      ]);
      if (!(await insertUserRole(trx, userId, roleId, deps.clock.now()))) {
        throw new ConflictError("duplicate", `The user already has the role "${role.slug}"`);
      }
      await audit(deps, trx, actor, {
        action: "user.role_assigned",
        entityType: "user",
        entityId: userId,
        details: { roleId: role.id, roleSlug: role.slug },
      });
      return { id: role.id, slug: role.slug, name: role.name };
    }));
}

export async function removeRole(
  deps: IdentityDeps,
  actor: Actor,
  userId: string,
  roleId: string,
): Promise<void> {
  const denied = {
    action: "user.role_remove_denied",
    entityType: "user",
    entityId: userId,
    details: { roleId },
  };
  await auditingDenials(
    deps,
    actor,
    denied,
    () =>
      changeIdentity(deps, (trx) =>
        keepingAnAdmin(trx, async () => {
          const notAssigned = () =>
            new NotFoundError("not_found", `User "${userId}" does not have role "${roleId}"`);
          if (!(await lockUser(trx, userId))) throw notAssigned();
          const role = await findRole(trx, roleId);
          const held = await listUserRoles(trx, userId);
          if (!role || !held.some((r) => r.id === roleId)) throw notAssigned();
          assertCanGrant(actor.permissions, [
            ...role.permissions,
            ...await grantedPermissionsOf(trx, userId),
          ]);
          await deleteUserRole(trx, userId, roleId);
          await audit(deps, trx, actor, {
            action: "user.role_removed",
            entityType: "user",
            entityId: userId,
            details: { roleId: role.id, roleSlug: role.slug },
          });
        })),
  );
}
