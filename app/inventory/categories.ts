/** Use cases of categories: a tree (parentId) without cycles, soft delete. */
import { ConflictError, InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import { assertNoCycle } from "../../domain/inventory/category_tree.ts";
import type { AppDeps } from "../deps.ts";
import { withTransaction } from "../db/transaction.ts";
import {
  type CategoryRecord,
  countCategoryDependents,
  findCategory,
  findCategoryAncestors,
  insertCategory,
  lockCategoryTree,
  softDeleteCategory,
  updateCategory,
} from "./inventory_repo.ts";

export async function createCategory(
  deps: AppDeps,
  input: { name: string; parentId?: string | null; sortOrder: number },
): Promise<CategoryRecord> {
  return await withTransaction(deps.db, async (trx) => {
    const parentId = input.parentId ?? null;
    if (parentId && !(await findCategory(trx, parentId, "share"))) {
      throw new InvalidReferenceError("parentId", `Category "${parentId}" does not exist`);
    }
    return insertCategory(trx, {
      id: deps.ids.uuid(),
      name: input.name,
      parentId,
      sortOrder: input.sortOrder,
      now: deps.clock.now(),
    });
  });
}

/**
 * Moving a category (new `parentId`) takes the tree lock, then reads the new parent's
 * ancestors: two concurrent moves cannot both pass the cycle check.
 */
export async function changeCategory(
  deps: AppDeps,
  id: string,
  input: { name?: string; parentId?: string | null; sortOrder?: number },
): Promise<CategoryRecord> {
  return await withTransaction(deps.db, async (trx) => {
    const moving = input.parentId !== undefined && input.parentId !== null;
    if (moving) await lockCategoryTree(trx);
    const current = await findCategory(trx, id, "update");
    if (!current) throw new NotFoundError(`Category "${id}" does not exist`);
    if (moving && input.parentId !== current.parentId) {
      const parentId = input.parentId!;
      if (parentId !== id && !(await findCategory(trx, parentId, "share"))) {
        throw new InvalidReferenceError("parentId", `Category "${parentId}" does not exist`);
      }
      assertNoCycle(
        id,
        parentId,
        parentId === id ? [] : await findCategoryAncestors(trx, parentId),
      );
    }
    return updateCategory(trx, id, input, deps.clock.now());
  });
}

/** Refused (409 in_use) while live subcategories or products are in the category. */
export async function removeCategory(deps: AppDeps, id: string): Promise<void> {
  await withTransaction(deps.db, async (trx) => {
    const current = await findCategory(trx, id, "update");
    if (!current) throw new NotFoundError(`Category "${id}" does not exist`);
    const dependents = await countCategoryDependents(trx, id);
    if (dependents.children > 0 || dependents.products > 0) {
      throw new ConflictError(
        "in_use",
        `Category "${current.name}" still has ${dependents.children} subcategories and ` +
          `${dependents.products} products`,
      );
    }
    await softDeleteCategory(trx, id, deps.clock.now());
  });
}
