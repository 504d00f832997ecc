/** Use cases of categories: a tree (parentId) without cycles, soft delete. */
import type { Transaction } from "kysely";
import { ConflictError, InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import { assertNoCycle } from "../../domain/inventory/category_tree.ts";
import type { AppDeps } from "../deps.ts";
import type { Database, Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import {
  type CategoryRecord,
  countCategoryDependents,
  findCategory,
  findCategoryAncestors,
  insertCategory,
  lockCategory,
  lockCategoryTree,
  softDeleteCategory,
  updateCategory,
} from "./categories_repo.ts";

/**
 * The live category or 404. Pass `lockCategory` as `read` (inside a transaction) to hold its
 * row lock until commit.
 */
export async function requireCategory<D extends Db>(
  db: D,
  id: string,
  read: (db: D, id: string) => Promise<CategoryRecord | undefined> = findCategory,
): Promise<CategoryRecord> {
  const category = await read(db, id);
  if (!category) throw new NotFoundError("not_found", `Category "${id}" does not exist`);
  return category;
}

/**
 * A category that a new or changed row points at (`path`: the field naming it) must exist,
 * else 400 invalid_reference; its lock keeps it from being deleted before we commit.
 */
export async function assertCategoryExists(
  trx: Transaction<Database>,
  categoryId: string,
  path: "categoryId" | "parentId",
): Promise<void> {
  if (!(await lockCategory(trx, categoryId))) {
    throw new InvalidReferenceError(path, `Category "${categoryId}" does not exist`);
  }
}

export async function createCategory(
  deps: AppDeps,
  input: { name: string; parentId?: string | null; sortOrder: number },
): Promise<CategoryRecord> {
  return await withTransaction(deps.db, async (trx) => {
    const parentId = input.parentId ?? null;
    if (parentId) await assertCategoryExists(trx, parentId, "parentId");
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
    const current = await requireCategory(trx, id, lockCategory);
    if (moving && input.parentId !== current.parentId) {
      const parentId = input.parentId!;
      if (parentId !== id) await assertCategoryExists(trx, parentId, "parentId");
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
    const current = await requireCategory(trx, id, lockCategory);
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
