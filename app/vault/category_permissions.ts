/**
 * Use cases of the grants on a vault category (API §12): a level (view, edit, admin) for a
 * role or a user. Reading and changing a category's grants needs admin level on it (vault.admin
 * everywhere, or vault.edit with an admin grant). Each change is audited.
 */
import { ConflictError, InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import type { VaultLevel } from "../../domain/vault/access.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import { findRole } from "../auth/roles_repo.ts";
import { hasUser } from "../auth/users_repo.ts";
import { isUniqueViolation } from "../db/db_errors.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { requireCategory } from "./categories.ts";
import { deleteGrant, insertGrant, listGrants } from "./category_permissions_repo.ts";
import type { VaultGrant } from "./vault_schemas.ts";
import { viewerOf } from "./viewer.ts";

export async function listCategoryGrants(
  deps: Pick<AppDeps, "db">,
  actor: Actor,
  categoryId: string,
): Promise<VaultGrant[]> {
  await requireCategory(deps.db, viewerOf(actor), categoryId, "admin");
  return await listGrants(deps.db, categoryId);
}

export async function grantCategoryLevel(
  deps: AppDeps,
  actor: Actor,
  categoryId: string,
  input: { roleId?: string; userId?: string; level: VaultLevel },
): Promise<VaultGrant> {
  const id = deps.ids.uuid();
  return await withTransaction(deps.db, async (trx) => {
    const category = await requireCategory(trx, viewerOf(actor), categoryId, "admin");
    if (input.roleId !== undefined && !(await findRole(trx, input.roleId))) {
      throw new InvalidReferenceError("roleId", `Role "${input.roleId}" does not exist`);
    }
    if (input.userId !== undefined && !(await hasUser(trx, input.userId))) {
      throw new InvalidReferenceError("userId", `User "${input.userId}" does not exist`);
    }
    let grant: VaultGrant;
    try {
      grant = await insertGrant(trx, {
        id,
        categoryId,
        roleId: input.roleId ?? null,
        userId: input.userId ?? null,
        level: input.level,
        now: deps.clock.now(),
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ConflictError(
          "duplicate",
          `This ${input.roleId ? "role" : "user"} already has a level on vault category ` +
            `"${category.name}": remove that grant to change it`,
        );
      }
      throw error;
    }
    await audit(deps, trx, actor, {
      action: "vault.permission_granted",
      entityType: "vault_category",
      entityId: categoryId,
      details: { grantId: id, roleId: grant.roleId, userId: grant.userId, level: grant.level },
    });
    return grant;
  });
}

export async function revokeCategoryGrant(
  deps: AppDeps,
  actor: Actor,
  categoryId: string,
  grantId: string,
): Promise<void> {
  await withTransaction(deps.db, async (trx) => {
    await requireCategory(trx, viewerOf(actor), categoryId, "admin");
    const grant = await deleteGrant(trx, categoryId, grantId);
    if (!grant) {
      throw new NotFoundError("not_found", `Grant "${grantId}" does not exist on this category`);
    }
    await audit(deps, trx, actor, {
      action: "vault.permission_revoked",
      entityType: "vault_category",
      entityId: categoryId,
      details: { grantId, roleId: grant.roleId, userId: grant.userId, level: grant.level },
    });
  });
}
