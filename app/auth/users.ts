/**
 * Use cases of staff users (API §3): create (also behind registration and `ops user
 * create`), read, update, enable/disable. Every write goes through `changeIdentity` (cached
 * actors are dropped, other processes notified) and records audit entries in the same
 * transaction. Role grants are in user_roles.ts. Creating a user with roles needs every
 * permission of those roles, disabling one or changing their employee number every permission
 * the user holds (403 `forbidden`, audited); disabling may not leave the store without an
 * admin (409 `last_admin`; see privileges.ts).
 */
import type { Transaction } from "kysely";
import { ConflictError, InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import { isUniqueViolation } from "../db/db_errors.ts";
import type { Database, Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import { changeIdentity } from "./actor_cache.ts";
import { assertCanGrant } from "../../domain/auth/privileges.ts";
import { auditingDenials, grantedPermissionsOf, keepingAnAdmin } from "./privileges.ts";
import { findExistingRoleIds, findPermissionsOfRoles, findRoleIdBySlug } from "./roles_repo.ts";
import { insertUserRole } from "./user_roles_repo.ts";
import {
  findLowestFreeEmployeeNumber,
  findUser,
  findUserIdByEmail,
  hasAnyUser,
  insertUser,
  lockUser,
  lockUserCreation,
  setUserActive,
  updateUserProfile,
} from "./users_repo.ts";
import type { ResetLink, User } from "./auth_schemas.ts";
import { hashSecret } from "./passwords.ts";
import { issueResetLink } from "./reset_tokens.ts";
import type { Actor } from "../actor.ts";
import { audit, type AuditActor } from "../audit/audit.ts";

export type IdentityDeps = Pick<
  AppDeps,
  "db" | "actors" | "cluster" | "clock" | "ids" | "config" | "logger"
>;

export interface NewUser {
  email: string;
  firstName: string;
  lastName: string;
  password?: string;
  employeeNumber?: string;
  roleIds?: string[];
}

function translateUniqueViolation(error: unknown): never {
  if (isUniqueViolation(error, "users_email_lower_key")) {
    throw new ConflictError("duplicate", "A user with this email already exists");
  }
  if (isUniqueViolation(error, "users_employee_number_key")) {
    throw new ConflictError("duplicate", "This employee number is already taken");
  }
  throw error;
}

export function userNotFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `User "${id}" does not exist`);
}

/** The user, or 404 `not_found`: the one get-or-404 of users. */
export async function requireUser(db: Db, id: string): Promise<User> {
  const user = await findUser(db, id);
  if (!user) throw userNotFound(id);
  return user;
}

/**
 * Inserts a user under the user-creation lock: the email must be free, the employee number
 * is the given one or the lowest free one from 0001; `firstUserBecomesAdmin` gives the very
 * first user the Admin role; `grantedBy` must hold every permission of the requested roles
 * (403 `forbidden`). Runs in `trx` (joins the caller's transaction).
 */
export async function insertUserLocked(
  trx: Transaction<Database>,
  deps: IdentityDeps,
  actor: AuditActor,
  input: NewUser & { passwordHash: string | null; roleSlugs?: string[] },
  options: { firstUserBecomesAdmin?: boolean; action?: string; grantedBy?: Actor } = {},
): Promise<User> {
  await lockUserCreation(trx);
  const now = deps.clock.now();
  if (await findUserIdByEmail(trx, input.email)) {
    throw new ConflictError("duplicate", `A user with email "${input.email}" already exists`);
  }
  const roleIds = [...new Set(input.roleIds ?? [])];
  const known = await findExistingRoleIds(trx, roleIds);
  const unknown = roleIds.findIndex((id) => !known.has(id));
  if (unknown >= 0) {
    throw new InvalidReferenceError(
      `roleIds.${unknown}`,
      `Role "${roleIds[unknown]}" does not exist`,
    );
  }
  for (const slug of input.roleSlugs ?? []) {
    const id = await findRoleIdBySlug(trx, slug);
    if (!id) throw new InvalidReferenceError("role", `Role "${slug}" does not exist`);
    if (!roleIds.includes(id)) roleIds.push(id);
  }
  if (options.grantedBy) {
    assertCanGrant(options.grantedBy.permissions, await findPermissionsOfRoles(trx, roleIds));
  }
  if (options.firstUserBecomesAdmin && !(await hasAnyUser(trx))) {
    const adminId = await findRoleIdBySlug(trx, "admin");
    if (adminId && !roleIds.includes(adminId)) roleIds.push(adminId);
  }
  const employeeNumber = input.employeeNumber ?? await findLowestFreeEmployeeNumber(trx);
  if (!employeeNumber) {
    throw new ConflictError("employee_numbers_exhausted", "Every employee number is taken");
  }
  const id = deps.ids.uuid();
  await insertUser(trx, {
    id,
    email: input.email,
    passwordHash: input.passwordHash,
    firstName: input.firstName,
    lastName: input.lastName,
    employeeNumber,
    now,
  });
  for (const roleId of roleIds) await insertUserRole(trx, id, roleId, now);
  await audit(deps, trx, actor, {
    action: options.action ?? "user.created",
    entityType: "user",
    entityId: id,
    details: { email: input.email, employeeNumber, roleIds },
  });
  return (await findUser(trx, id))!;
}

/** `POST /users` and `ops user create`: without a password, a 1-hour reset link is returned. */
export async function createStaffUser(
  deps: IdentityDeps,
  actor: Actor,
  input: NewUser & { roleSlugs?: string[] },
): Promise<{ user: User; resetLink?: ResetLink }> {
  const passwordHash = input.password
    ? await hashSecret(input.password, deps.config.bcryptCost)
    : null;
  const denied = {
    action: "user.create_denied",
    entityType: "user",
    details: { email: input.email, roleIds: input.roleIds ?? [], roleSlugs: input.roleSlugs ?? [] },
  };
  try {
    return await auditingDenials(deps, actor, denied, () =>
      changeIdentity(deps, async (trx) => {
        const user = await insertUserLocked(trx, deps, actor, { ...input, passwordHash }, {
          grantedBy: actor,
        });
        if (passwordHash) return { user };
        const resetLink = await issueResetLink(trx, deps, user.id, "admin");
        return { user, resetLink };
      }));
  } catch (error) {
    translateUniqueViolation(error);
  }
}

/**
 * `PATCH /users/:id` and `PATCH /auth/me` (the latter without employeeNumber). Giving another
 * user a different employee number needs every permission they hold (API §3; 403 `forbidden`,
 * audited as `user.update_denied`): the number is half of their PIN code (their wrong-PIN
 * count stays with them, pin_check.ts).
 */
export async function updateUser(
  deps: IdentityDeps,
  actor: Actor,
  id: string,
  changes: { firstName?: string; lastName?: string; employeeNumber?: string },
): Promise<User> {
  const denied = {
    action: "user.update_denied",
    entityType: "user",
    entityId: id,
    details: { fields: ["employeeNumber"], employeeNumber: changes.employeeNumber ?? null },
  };
  try {
    return await auditingDenials(deps, actor, denied, () =>
      changeIdentity(deps, async (trx) => {
        if (changes.employeeNumber !== undefined) {
          await assertMayRenumber(trx, actor, id, changes.employeeNumber);
        }
        if (!(await updateUserProfile(trx, id, changes, deps.clock.now()))) {
          throw userNotFound(id);
        }
        const fields = Object.keys(changes).filter((k) =>
          changes[k as keyof typeof changes] !== undefined
        );
        if (fields.length > 0) {
          await audit(deps, trx, actor, {
            action: "user.updated",
            entityType: "user",
            entityId: id,
            details: {
              fields,
              ...(changes.employeeNumber ? { employeeNumber: changes.employeeNumber } : {}),
            },
          });
        }
        return (await findUser(trx, id))!;
      }));
  } catch (error) {
    translateUniqueViolation(error);
  }
}

/**
 * Under the user's row lock: 404 for no such user; a different number needs every permission
 * the user holds (`assertCanGrant`; one's own are held).
 */
async function assertMayRenumber(
  trx: Transaction<Database>,
  actor: Actor,
  id: string,
  employeeNumber: string,
): Promise<void> {
  if (!(await lockUser(trx, id))) throw userNotFound(id);
  const current = (await findUser(trx, id))!;
  if (current.employeeNumber === employeeNumber) return;
  assertCanGrant(actor.permissions, await grantedPermissionsOf(trx, id));
}

/**
 * Disabling revokes every token of the user; re-enabling does not revive them. Disabling
 * needs every permission the user holds and may not leave the store without an admin.
 */
export async function setUserStatus(
  deps: IdentityDeps,
  actor: Actor,
  id: string,
  isActive: boolean,
): Promise<User> {
  const change = async (trx: Transaction<Database>) => {
    const current = await lockUser(trx, id);
    if (!current) throw userNotFound(id);
    if (!isActive) assertCanGrant(actor.permissions, await grantedPermissionsOf(trx, id));
    if (current.isActive !== isActive) {
      await setUserActive(trx, id, isActive, deps.clock.now());
      await audit(deps, trx, actor, {
        action: isActive ? "user.enabled" : "user.disabled",
        entityType: "user",
        entityId: id,
        details: { email: current.email },
      });
    }
    return (await findUser(trx, id))!;
  };
  if (isActive) return await changeIdentity(deps, change);
  const denied = { action: "user.disable_denied", entityType: "user", entityId: id };
  return await auditingDenials(
    deps,
    actor,
    denied,
    () => changeIdentity(deps, (trx) => keepingAnAdmin(trx, () => change(trx))),
  );
}
