/**
 * Use cases of roles (API §3): the slug is derived from the name and unique (clash → 409
 * `duplicate`); system roles keep their slug and cannot be deleted (409 `system_role`), but
 * their name, description and permissions may be edited. Creating a role, changing its
 * permissions or deleting it needs every permission it holds or gets (403 `forbidden`,
 * audited); changing its permissions or deleting it may not leave the store without an admin
 * (409 `last_admin`; see privileges.ts).
 */
import type { Permission } from "../../domain/auth/permissions.ts";
import { slugify } from "../../domain/auth/permissions.ts";
import { assertCanGrant } from "../../domain/auth/privileges.ts";
import { BadInputError, ConflictError, NotFoundError } from "../../domain/errors.ts";
import { isUniqueViolation } from "../db/db_errors.ts";
import type { Transaction } from "kysely";
import type { Database, Db } from "../db/database.ts";
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
import { auditingDenials, keepingAnAdmin } from "./privileges.ts";

type Deps = Pick<AppDeps, "db" | "actors" | "cluster" | "clock" | "ids" | "logger">;

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
  const denied = {
    action: "role.create_denied",
    entityType: "role",
    details: { name: input.name, permissions: input.permissions },
  };
  try {
    return await auditingDenials(deps, actor, denied, () =>
      changeIdentity(deps, async (trx) => {
        assertCanGrant(actor.permissions, input.permissions);
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
      }));
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
  const denied = {
    action: "role.update_denied",
    entityType: "role",
    entityId: id,
    details: changes.permissions ? { permissions: changes.permissions } : {},
  };
  const update = async (trx: Transaction<Database>) => {
    const before = await lockRole(trx, id);
    if (!before) throw roleNotFound(id);
    if (changes.permissions) {
      assertCanGrant(actor.permissions, [...before.permissions, ...changes.permissions]);
    }
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
  };
  try {
    return await auditingDenials(deps, actor, denied, () =>
      changeIdentity(deps, (trx) =>
        // Only a change of permissions can take users.admin away from someone.
        changes.permissions ? keepingAnAdmin(trx, () => update(trx)) : update(trx)));
  } catch (error) {
    duplicateSlug(error, slug ?? "");
  }
}

export async function deleteRole(deps: Deps, actor: Actor, id: string): Promise<void> {
  const denied = { action: "role.delete_denied", entityType: "role", entityId: id };
  await auditingDenials(
    deps,
    actor,
    denied,
    () =>
      changeIdentity(deps, (trx) =>
        keepingAnAdmin(trx, async () => {
          const role = await lockRole(trx, id);
          if (!role) throw roleNotFound(id);
          if (role.isSystem) {
            throw new ConflictError(
              "system_role",
              `The system role "${role.slug}" cannot be deleted`,
            );
          }
          assertCanGrant(actor.permissions, role.permissions);
          await deleteRoleRow(trx, id);
          await audit(deps, trx, actor, {
            action: "role.deleted",
            entityType: "role",
            entityId: id,
            details: { slug: role.slug, name: role.name, permissions: role.permissions },
          });
        })),
  );
}
