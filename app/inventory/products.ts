/** Use cases of products: create, update (with price history), soft delete. */
import { ConflictError, NotFoundError } from "../../domain/errors.ts";
import { priceChanged, resolveConsumableFlag } from "../../domain/inventory/products.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { isUniqueViolation } from "../db/db_errors.ts";
import { withTransaction } from "../db/transaction.ts";
import type { Actor } from "../actor.ts";
import {
  findProduct,
  insertPriceHistory,
  insertProduct,
  lockProduct,
  type ProductRecord,
  type ProductValues,
  softDeleteProduct,
  updateProduct,
} from "./products_repo.ts";
import { assertCategoryExists } from "./categories.ts";
import type { CreateProductInput, UpdateProductInput } from "./inventory_schemas.ts";

function duplicateSku(sku: string): ConflictError {
  return new ConflictError("duplicate", `A product with SKU "${sku}" already exists`);
}

/**
 * The live product or 404 (sub-resource routes check their product with this). Pass
 * `lockProduct` as `read` (inside a transaction) to hold its row lock until commit.
 */
export async function requireProduct<D extends Db>(
  db: D,
  id: string,
  read: (db: D, id: string) => Promise<ProductRecord | undefined> = findProduct,
): Promise<ProductRecord> {
  const product = await read(db, id);
  if (!product) throw new NotFoundError("not_found", `Product "${id}" does not exist`);
  return product;
}

export async function createProduct(
  deps: AppDeps,
  actor: Actor,
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
      if (values.categoryId) await assertCategoryExists(trx, values.categoryId, "categoryId");
      const product = await insertProduct(trx, deps.ids.uuid(), values, now);
      await insertPriceHistory(trx, {
        id: deps.ids.uuid(),
        productId: product.id,
        price: product.price,
        previousPrice: null,
        changedBy: actor.userId,
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
  actor: Actor,
  id: string,
  input: UpdateProductInput,
): Promise<ProductRecord> {
  const now = deps.clock.now();
  try {
    return await withTransaction(deps.db, async (trx) => {
      const current = await requireProduct(trx, id, lockProduct);
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
        await assertCategoryExists(trx, input.categoryId, "categoryId");
      }
      const updated = await updateProduct(trx, id, values, now);
      if (priceChanged(current.price, updated.price)) {
        await insertPriceHistory(trx, {
          id: deps.ids.uuid(),
          productId: id,
          price: updated.price,
          previousPrice: current.price,
          changedBy: actor.userId,
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
  if (!deleted) throw new NotFoundError("not_found", `Product "${id}" does not exist`);
}
