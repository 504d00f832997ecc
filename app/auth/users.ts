/**
 * Use cases of staff users (API §3): create (also behind registration and `ops user
 * create`), read, update, enable/disable, and role assignment. Every write goes through
 * `changeIdentity` (cached actors are dropped, other processes notified) and records audit
 * entries in the same transaction.
 */
import { ConflictError, InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import { type AuditActor, recordAudit } from "../audit/audit_repo.ts";
import { isUniqueViolation } from "../db/db_errors.ts";
import type { Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import type { ListParams } from "../schemas.ts";
import { changeIdentity } from "./actor_cache.ts";
import {
  anyUserExists,
  deleteUserRole,
  existingRoleIds,
  findCredentialsById,
  findRoleIdBySlug,
  findRoleSummary,
  findUser,
  findUserIdByEmail,
  insertUser,
  insertUserRole,
  listUserRoles,
  listUsers,
  lockUserCreation,
  lowestFreeEmployeeNumber,
  setUserActive,
  updateUserProfile,
  userExists,
} from "./auth_repo.ts";
import type { ResetLink, RoleSummary, User } from "./auth_schemas.ts";
import { hashSecret } from "./passwords.ts";
import { issueResetLink } from "./password_reset.ts";

export type IdentityDeps = Pick<AppDeps, "db" | "actors" | "clock" | "ids" | "config" | "logger">;

export interface NewUser {
  email: string;
  firstName: string;
  lastName: string;
  password?: string;
  employeeNumber?: string;
  roleIds?: string[];
}

function auditFields(actor: AuditActor) {
  return { actorId: actor.userId, actorEmail: actor.email };
}

function stamp(deps: Pick<AppDeps, "clock" | "ids">) {
  return { id: deps.ids.uuid(), at: deps.clock.now() };
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

/**
 * Inserts a user under the user-creation lock: the email must be free, the employee number
 * is the given one or the lowest free one from 0001; `firstUserBecomesAdmin` gives the very
 * first user the Admin role. Runs in `trx` (joins the caller's transaction).
 */
export async function insertUserLocked(
  trx: Db,
  deps: IdentityDeps,
  actor: AuditActor,
  input: NewUser & { passwordHash: string | null; roleSlugs?: string[] },
  options: { firstUserBecomesAdmin?: boolean; action?: string } = {},
): Promise<User> {
  await lockUserCreation(trx);
  const now = deps.clock.now();
  if (await findUserIdByEmail(trx, input.email)) {
    throw new ConflictError("duplicate", `A user with email "${input.email}" already exists`);
  }
  const roleIds = [...new Set(input.roleIds ?? [])];
  const known = await existingRoleIds(trx, roleIds);
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
  if (options.firstUserBecomesAdmin && !(await anyUserExists(trx))) {
    const adminId = await findRoleIdBySlug(trx, "admin");
    if (adminId && !roleIds.includes(adminId)) roleIds.push(adminId);
  }
  const employeeNumber = input.employeeNumber ?? await lowestFreeEmployeeNumber(trx);
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
  await recordAudit(trx, {
    ...auditFields(actor),
    action: options.action ?? "user.created",
    entityType: "user",
    entityId: id,
    details: { email: input.email, employeeNumber, roleIds },
  }, stamp(deps));
  return (await findUser(trx, id))!;
}

/** `POST /users` and `ops user create`: without a password, a 1-hour reset link is returned. */
export async function createStaffUser(
  deps: IdentityDeps,
  actor: AuditActor,
  input: NewUser & { roleSlugs?: string[] },
): Promise<{ user: User; resetLink?: ResetLink }> {
  const passwordHash = input.password
    ? await hashSecret(input.password, deps.config.bcryptCost)
    : null;
  try {
    return await changeIdentity(deps, async (trx) => {
      const user = await insertUserLocked(trx, deps, actor, { ...input, passwordHash });
      if (passwordHash) return { user };
      const resetLink = await issueResetLink(trx, deps, user.id, "admin");
      return { user, resetLink };
    });
  } catch (error) {
    translateUniqueViolation(error);
  }
}

export async function getUser(deps: Pick<AppDeps, "db">, id: string): Promise<User> {
  const user = await findUser(deps.db, id);
  if (!user) throw new NotFoundError(`User "${id}" does not exist`);
  return user;
}

export function searchUsers(
  deps: Pick<AppDeps, "db">,
  params: ListParams & { isActive?: boolean },
) {
  return listUsers(deps.db, params);
}

/** `PATCH /users/:id` and `PATCH /auth/me` (the latter without employeeNumber). */
export async function updateUser(
  deps: IdentityDeps,
  actor: AuditActor,
  id: string,
  changes: { firstName?: string; lastName?: string; employeeNumber?: string },
): Promise<User> {
  try {
    return await changeIdentity(deps, async (trx) => {
      if (!(await updateUserProfile(trx, id, changes, deps.clock.now()))) {
        throw new NotFoundError(`User "${id}" does not exist`);
      }
      const fields = Object.keys(changes).filter((k) =>
        changes[k as keyof typeof changes] !== undefined
      );
      if (fields.length > 0) {
        await recordAudit(trx, {
          ...auditFields(actor),
          action: "user.updated",
          entityType: "user",
          entityId: id,
          details: {
            fields,
            ...(changes.employeeNumber ? { employeeNumber: changes.employeeNumber } : {}),
          },
        }, stamp(deps));
      }
      return (await findUser(trx, id))!;
    });
  } catch (error) {
    translateUniqueViolation(error);
  }
}

/** Disabling revokes every token of the user; re-enabling does not revive them. */
export async function setUserStatus(
  deps: IdentityDeps,
  actor: AuditActor,
  id: string,
  isActive: boolean,
): Promise<User> {
  return await changeIdentity(deps, async (trx) => {
    const current = await findCredentialsById(trx, id, true);
    if (!current) throw new NotFoundError(`User "${id}" does not exist`);
    if (current.isActive !== isActive) {
      await setUserActive(trx, id, isActive, deps.clock.now());
      await recordAudit(trx, {
        ...auditFields(actor),
        action: isActive ? "user.enabled" : "user.disabled",
        entityType: "user",
        entityId: id,
        details: { email: current.email },
      }, stamp(deps));
    }
    return (await findUser(trx, id))!;
  });
}

export async function rolesOfUser(deps: Pick<AppDeps, "db">, userId: string) {
  if (!(await userExists(deps.db, userId))) {
    throw new NotFoundError(`User "${userId}" does not exist`);
  }
  return await listUserRoles(deps.db, userId);
}

/** Assigning a role the user already has → 409 `duplicate`. */
export async function assignRole(
  deps: IdentityDeps,
  actor: AuditActor,
  userId: string,
  roleId: string,
): Promise<RoleSummary> {
  return await changeIdentity(deps, async (trx) => {
    if (!(await userExists(trx, userId, true))) {
      throw new NotFoundError(`User "${userId}" does not exist`);
    }
    const role = await findRoleSummary(trx, roleId);
    if (!role) throw new InvalidReferenceError("roleId", `Role "${roleId}" does not exist`);
    if (!(await insertUserRole(trx, userId, roleId, deps.clock.now()))) {
      throw new ConflictError("duplicate", `The user already has the role "${role.slug}"`);
    }
    await recordAudit(trx, {
      ...auditFields(actor),
      action: "user.role_assigned",
      entityType: "user",
      entityId: userId,
      details: { roleId: role.id, roleSlug: role.slug },
    }, stamp(deps));
    return role;
  });
}

export async function removeRole(
  deps: IdentityDeps,
  actor: AuditActor,
  userId: string,
  roleId: string,
): Promise<void> {
  await changeIdentity(deps, async (trx) => {
    const role = await findRoleSummary(trx, roleId);
    if (!role || !(await deleteUserRole(trx, userId, roleId))) {
      throw new NotFoundError(`User "${userId}" does not have role "${roleId}"`);
    }
    await recordAudit(trx, {
      ...auditFields(actor),
      action: "user.role_removed",
      entityType: "user",
      entityId: userId,
      details: { roleId: role.id, roleSlug: role.slug },
    }, stamp(deps));
  });
}
