/**
 * Use cases of vault categories (API §12): listed and read with the caller's effective level
 * (none → 404), written by vault.admin. Each change is audited (`vault.category_*`).
 */
import { ConflictError, ForbiddenError, NotFoundError } from "../../domain/errors.ts";
import { hasLevel, type VaultLevel } from "../../domain/vault/access.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import type { Db } from "../db/database.ts";
import { isForeignKeyViolation, isRestrictViolation, isUniqueViolation } from "../db/db_errors.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import type { ListParams } from "../schemas.ts";
import {
  type CategoryValues,
  type CategoryWithLevel,
  deleteCategory,
  findVisibleCategory,
  insertCategory,
  listVisibleCategories,
  updateCategory,
} from "./categories_repo.ts";
import { type VaultViewer, viewerOf } from "./viewer.ts";

export function categoryNotFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Vault category "${id}" does not exist`);
}

/**
 * The category as the viewer sees it: 404 when they have no level on it (whether or not it
 * exists), 403 when their level is below `needed`.
 */
export async function requireCategory(
  db: Db,
  viewer: VaultViewer,
  id: string,
  needed: VaultLevel = "view",
): Promise<CategoryWithLevel> {
  const category = await findVisibleCategory(db, viewer, id);
  if (!category) throw categoryNotFound(id);
  if (!hasLevel(category.level, needed)) {
    throw new ForbiddenError(
      "forbidden",
      `This needs ${needed} level on vault category "${category.name}" (you have ${category.level})`,
    );
  }
  return category;
}

export function listCategories(deps: Pick<AppDeps, "db">, actor: Actor, params: ListParams) {
  return listVisibleCategories(deps.db, viewerOf(actor), params);
}

export function getCategory(deps: Pick<AppDeps, "db">, actor: Actor, id: string) {
  return requireCategory(deps.db, viewerOf(actor), id);
}

function duplicateName(name: string): ConflictError {
  return new ConflictError("duplicate", `A vault category named "${name}" already exists`);
}

export async function createCategory(
  deps: AppDeps,
  actor: Actor,
  input: { name: string; description?: string | null },
): Promise<CategoryWithLevel> {
  const id = deps.ids.uuid();
  return await withTransaction(deps.db, async (trx) => {
    try {
      await insertCategory(trx, {
        id,
        name: input.name,
        description: input.description ?? null,
        now: deps.clock.now(),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName(input.name);
      throw error;
    }
    await audit(deps, trx, actor, {
      action: "vault.category_created",
      entityType: "vault_category",
      entityId: id,
      details: { name: input.name },
    });
    return await requireCategory(trx, viewerOf(actor), id);
  });
}

export async function changeCategory(
  deps: AppDeps,
  actor: Actor,
  id: string,
  changes: Partial<CategoryValues>,
): Promise<CategoryWithLevel> {
  const viewer = viewerOf(actor);
  return await withTransaction(deps.db, async (trx) => {
    await requireCategory(trx, viewer, id, "admin");
    try {
      if (!(await updateCategory(trx, id, changes, deps.clock.now()))) throw categoryNotFound(id);
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName(changes.name ?? "");
      throw error;
    }
    await audit(deps, trx, actor, {
      action: "vault.category_updated",
      entityType: "vault_category",
      entityId: id,
      details: { changed: Object.keys(changes) },
    });
    return await requireCategory(trx, viewer, id);
  });
}

/** Refused with 409 `in_use` while the category holds entries; its grants go with it. */
export async function removeCategory(deps: AppDeps, actor: Actor, id: string): Promise<void> {
  await withTransaction(deps.db, async (trx) => {
    const category = await requireCategory(trx, viewerOf(actor), id, "admin");
    try {
      if (!(await deleteCategory(trx, id))) throw categoryNotFound(id);
    } catch (error) {
      if (isRestrictViolation(error) || isForeignKeyViolation(error)) {
        throw new ConflictError(
          "in_use",
          `Vault category "${category.name}" still holds entries: move or delete them first`,
        );
      }
      throw error;
    }
    await audit(deps, trx, actor, {
      action: "vault.category_deleted",
      entityType: "vault_category",
      entityId: id,
      details: { name: category.name },
    });
  });
}
