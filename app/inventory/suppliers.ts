/** Use cases of suppliers and product–supplier links (one preferred supplier per product). */
import { ConflictError, InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";
import { isUniqueViolation } from "../db/db_errors.ts";
import { withTransaction } from "../db/transaction.ts";
import {
  deleteLinksOfSupplier,
  deleteProductSupplier,
  findProduct,
  findProductSupplier,
  findSupplier,
  insertProductSupplier,
  insertSupplier,
  type ProductSupplierRecord,
  softDeleteSupplier,
  type SupplierRecord,
  type SupplierValues,
  unsetPreferredSupplier,
  updateProductSupplier,
  updateSupplier,
} from "./inventory_repo.ts";

export async function getSupplier(deps: AppDeps, id: string): Promise<SupplierRecord> {
  const supplier = await findSupplier(deps.db, id);
  if (!supplier) throw new NotFoundError(`Supplier "${id}" does not exist`);
  return supplier;
}

export function createSupplier(
  deps: AppDeps,
  input: SupplierValues & { name: string },
): Promise<SupplierRecord> {
  return insertSupplier(deps.db, deps.ids.uuid(), input, deps.clock.now());
}

export async function changeSupplier(
  deps: AppDeps,
  id: string,
  input: SupplierValues,
): Promise<SupplierRecord> {
  const supplier = await updateSupplier(deps.db, id, input, deps.clock.now());
  if (!supplier) throw new NotFoundError(`Supplier "${id}" does not exist`);
  return supplier;
}

/**
 * Soft delete: receipts keep pointing at the supplier; its product links are removed in
 * the same transaction (a deleted supplier is nobody's supplier any more).
 */
export async function removeSupplier(deps: AppDeps, id: string): Promise<void> {
  await withTransaction(deps.db, async (trx) => {
    if (!(await softDeleteSupplier(trx, id, deps.clock.now()))) {
      throw new NotFoundError(`Supplier "${id}" does not exist`);
    }
    await deleteLinksOfSupplier(trx, id);
  });
}

// ---------------------------------------------------------------- links

export async function getProductSupplier(
  deps: AppDeps,
  id: string,
): Promise<ProductSupplierRecord> {
  const link = await findProductSupplier(deps.db, id);
  if (!link) throw new NotFoundError(`Product-supplier link "${id}" does not exist`);
  return link;
}

/**
 * Links a supplier to a product. The product row is locked (FOR NO KEY UPDATE) so that
 * concurrent "preferred" changes of one product run one after the other: each unsets the
 * previous preferred link, then sets its own; the partial unique index
 * `product_suppliers_one_preferred` backs the rule.
 */
export async function linkSupplier(
  deps: AppDeps,
  productId: string,
  input: {
    supplierId: string;
    supplierSku?: string | null;
    cost?: string | null;
    isPreferred: boolean;
  },
): Promise<ProductSupplierRecord> {
  const now = deps.clock.now();
  const id = deps.ids.uuid();
  try {
    await withTransaction(deps.db, async (trx) => {
      const product = await findProduct(trx, productId, input.isPreferred ? "update" : "share");
      if (!product) throw new NotFoundError(`Product "${productId}" does not exist`);
      if (!(await findSupplier(trx, input.supplierId, "share"))) {
        throw new InvalidReferenceError(
          "supplierId",
          `Supplier "${input.supplierId}" does not exist`,
        );
      }
      if (input.isPreferred) await unsetPreferredSupplier(trx, productId, now);
      await insertProductSupplier(trx, {
        id,
        productId,
        supplierId: input.supplierId,
        supplierSku: input.supplierSku ?? null,
        cost: input.cost ?? null,
        isPreferred: input.isPreferred,
        now,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error, "product_suppliers_pair_key")) {
      throw new ConflictError("duplicate", "This supplier is already linked to the product");
    }
    throw error;
  }
  return getProductSupplier(deps, id);
}

export async function changeProductSupplier(
  deps: AppDeps,
  id: string,
  input: { supplierSku?: string | null; cost?: string | null; isPreferred?: boolean },
): Promise<ProductSupplierRecord> {
  const now = deps.clock.now();
  await withTransaction(deps.db, async (trx) => {
    const link = await findProductSupplier(trx, id);
    if (!link) throw new NotFoundError(`Product-supplier link "${id}" does not exist`);
    // Same lock as linkSupplier: preferred changes of one product are serialized.
    await findProduct(trx, link.productId, "update");
    if (input.isPreferred) await unsetPreferredSupplier(trx, link.productId, now, id);
    await updateProductSupplier(trx, id, input, now);
  });
  return getProductSupplier(deps, id);
}

export async function unlinkSupplier(deps: AppDeps, id: string): Promise<void> {
  if (!(await deleteProductSupplier(deps.db, id))) {
    throw new NotFoundError(`Product-supplier link "${id}" does not exist`);
  }
}
