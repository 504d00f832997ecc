/** Use cases of products: create, update (with price history), soft delete. */
import { ConflictError, InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import { priceChanged, resolveConsumableFlag } from "../../domain/inventory/products.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { isUniqueViolation } from "../db/db_errors.ts";
import { withTransaction } from "../db/transaction.ts";
import type { Actor } from "../auth/actor.ts";
import {
  findCategory,
  findProduct,
  insertPriceHistory,
  insertProduct,
  type ProductRecord,
  type ProductValues,
  softDeleteProduct,
  updateProduct,
} from "./inventory_repo.ts";
import type { CreateProductInput, UpdateProductInput } from "./inventory_schemas.ts";

/** The category must exist; a share lock keeps it from being deleted before we commit. */
async function assertCategoryUsable(trx: Db, categoryId: string | null): Promise<void> {
  if (categoryId && !(await findCategory(trx, categoryId, "share"))) {
    throw new InvalidReferenceError("categoryId", `Category "${categoryId}" does not exist`);
  }
}

function duplicateSku(sku: string): ConflictError {
  return new ConflictError("duplicate", `A product with SKU "${sku}" already exists`);
}

export async function getProduct(db: Db, id: string): Promise<ProductRecord> {
  const product = await findProduct(db, id);
  if (!product) throw new NotFoundError(`Product "${id}" does not exist`);
  return product;
}

export async function createProduct(
  deps: AppDeps,
  actor: Actor | undefined,
  input: CreateProductInput,
): Promise<ProductRecord> {
  const values: ProductValues = {
    name: input.name,
    sku: input.sku,
    upc: input.upc ?? null,
    description: input.description ?? null,
    categoryId: input.categoryId ?? null,
    type: input.type,
    price: input.price,
    cost: input.cost ?? null,
    isDualUseRepair: input.isDualUseRepair,
    isConsumable: resolveConsumableFlag(input.type, input.isConsumable),
    reorderPoint: input.reorderPoint,
    isActive: input.isActive,
    taxCategory: input.taxCategory,
  };
  const now = deps.clock.now();
  try {
    return await withTransaction(deps.db, async (trx) => {
      await assertCategoryUsable(trx, values.categoryId);
      const product = await insertProduct(trx, deps.ids.uuid(), values, now);
      await insertPriceHistory(trx, {
        id: deps.ids.uuid(),
        productId: product.id,
        price: product.price,
        previousPrice: null,
        changedBy: actor?.userId ?? null,
        now,
      });
      return product;
    });
  } catch (error) {
    if (isUniqueViolation(error, "products_sku_key")) throw duplicateSku(input.sku);
    throw error;
  }
}

export async function changeProduct(
  deps: AppDeps,
  actor: Actor | undefined,
  id: string,
  input: UpdateProductInput,
): Promise<ProductRecord> {
  const now = deps.clock.now();
  try {
    return await withTransaction(deps.db, async (trx) => {
      const current = await findProduct(trx, id, "update");
      if (!current) throw new NotFoundError(`Product "${id}" does not exist`);
      const type = input.type ?? current.type;
      const values: ProductValues = {
        name: input.name ?? current.name,
        sku: input.sku ?? current.sku,
        upc: input.upc !== undefined ? input.upc : current.upc,
        description: input.description !== undefined ? input.description : current.description,
        categoryId: input.categoryId !== undefined ? input.categoryId : current.categoryId,
        type,
        price: input.price ?? current.price,
        cost: input.cost !== undefined ? input.cost : current.cost,
        isDualUseRepair: input.isDualUseRepair ?? current.isDualUseRepair,
        isConsumable: resolveConsumableFlag(type, input.isConsumable, current.isConsumable),
        reorderPoint: input.reorderPoint ?? current.reorderPoint,
        isActive: input.isActive ?? current.isActive,
        taxCategory: input.taxCategory ?? current.taxCategory,
      };
      if (input.categoryId && input.categoryId !== current.categoryId) {
        await assertCategoryUsable(trx, input.categoryId);
      }
      const updated = await updateProduct(trx, id, values, now);
      if (priceChanged(current.price, updated.price)) {
        await insertPriceHistory(trx, {
          id: deps.ids.uuid(),
          productId: id,
          price: updated.price,
          previousPrice: current.price,
          changedBy: actor?.userId ?? null,
          now,
        });
      }
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error, "products_sku_key")) throw duplicateSku(input.sku ?? "");
    throw error;
  }
}

/** Soft delete: the row stays (sales and receipts keep pointing at it); the SKU is freed. */
export async function removeProduct(deps: AppDeps, id: string): Promise<void> {
  const deleted = await softDeleteProduct(deps.db, id, deps.clock.now());
  if (!deleted) throw new NotFoundError(`Product "${id}" does not exist`);
}
