/**
 * Use cases of roles (API §3): the slug is derived from the name and unique (clash → 409
 * `duplicate`); system roles keep their slug and cannot be deleted (409 `system_role`), but
 * their name, description and permissions may be edited.
 */
import type { Permission } from "../../domain/auth/permissions.ts";
import { slugify } from "../../domain/auth/permissions.ts";
import { BadInputError, ConflictError, NotFoundError } from "../../domain/errors.ts";
import { isUniqueViolation } from "../db/db_errors.ts";
import type { Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import { changeIdentity } from "./actor_cache.ts";
import {
  deleteRoleRow,
  findRole,
  insertRole,
  lockRole,
  replaceRolePermissions,
  updateRoleRow,
} from "./roles_repo.ts";
import type { Role } from "./auth_schemas.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";

type Deps = Pick<AppDeps, "db" | "actors" | "clock" | "ids">;

function slugFor(name: string): string {
  const slug = slugify(name);
  if (!slug) {
    throw new BadInputError("validation_failed", "The role name needs letters or digits", [
      { path: "name", message: "The role name needs letters or digits" },
    ]);
  }
  return slug;
}

function duplicateSlug(error: unknown, slug: string): never {
  if (isUniqueViolation(error, "roles_slug_key")) {
    throw new ConflictError("duplicate", `A role with slug "${slug}" already exists`);
  }
  throw error;
}

function roleNotFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Role "${id}" does not exist`);
}

/** The role, or 404 `not_found`: the one get-or-404 of roles. */
export async function requireRole(db: Db, id: string): Promise<Role> {
  const role = await findRole(db, id);
  if (!role) throw roleNotFound(id);
  return role;
}

export async function createRole(
  deps: Deps,
  actor: Actor,
  input: { name: string; description?: string | null; permissions: Permission[] },
): Promise<Role> {
  const slug = slugFor(input.name);
  try {
    return await changeIdentity(deps, async (trx) => {
      const id = deps.ids.uuid();
      const now = deps.clock.now();
      await insertRole(trx, {
        id,
        slug,
        name: input.name,
        description: input.description ?? null,
        now,
      });
      await replaceRolePermissions(trx, id, input.permissions);
      const role = (await findRole(trx, id))!;
      await audit(deps, trx, actor, {
        action: "role.created",
        entityType: "role",
        entityId: id,
        details: { slug, name: role.name, permissions: role.permissions },
      });
      return role;
    });
  } catch (error) {
    duplicateSlug(error, slug);
  }
}

export async function updateRole(
  deps: Deps,
  actor: Actor,
  id: string,
  changes: { name?: string; description?: string | null; permissions?: Permission[] },
): Promise<Role> {
  let slug: string | undefined;
  try {
    return await changeIdentity(deps, async (trx) => {
      const before = await lockRole(trx, id);
      if (!before) throw roleNotFound(id);
      slug = changes.name !== undefined && !before.isSystem ? slugFor(changes.name) : undefined;
      const now = deps.clock.now();
      await updateRoleRow(trx, id, {
        slug,
        name: changes.name,
        description: changes.description,
      }, now);
      if (changes.permissions) await replaceRolePermissions(trx, id, changes.permissions);
      const after = (await findRole(trx, id))!;
      const added = after.permissions.filter((p) => !before.permissions.includes(p));
      const removed = before.permissions.filter((p) => !after.permissions.includes(p));
      await audit(deps, trx, actor, {
        action: "role.updated",
        entityType: "role",
        entityId: id,
        details: {
          slug: after.slug,
          ...(after.name !== before.name ? { name: { from: before.name, to: after.name } } : {}),
          ...(added.length > 0 ? { permissionsAdded: added } : {}),
          ...(removed.length > 0 ? { permissionsRemoved: removed } : {}),
        },
      });
      return after;
    });
  } catch (error) {
    duplicateSlug(error, slug ?? "");
  }
}

export async function deleteRole(deps: Deps, actor: Actor, id: string): Promise<void> {
  await changeIdentity(deps, async (trx) => {
    const role = await lockRole(trx, id);
    if (!role) throw roleNotFound(id);
    if (role.isSystem) {
      throw new ConflictError("system_role", `The system role "${role.slug}" cannot be deleted`);
    }
    await deleteRoleRow(trx, id);
    await audit(deps, trx, actor, {
      action: "role.deleted",
      entityType: "role",
      entityId: id,
      details: { slug: role.slug, name: role.name, permissions: role.permissions },
    });
  });
}
