/** Use cases of product–supplier links (one preferred supplier per product). */
import { ConflictError, NotFoundError } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { isUniqueViolation } from "../db/db_errors.ts";
import { withTransaction } from "../db/transaction.ts";
import {
  deleteProductSupplier,
  findProductSupplier,
  insertProductSupplier,
  type ProductSupplierRecord,
  unsetPreferredSupplier,
  updateProductSupplier,
} from "./product_suppliers_repo.ts";
import { lockProduct } from "./products_repo.ts";
import { requireProduct } from "./products.ts";
import { assertSupplierExists } from "./suppliers.ts";

function linkNotFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Product-supplier link "${id}" does not exist`);
}

/** The link (of a live supplier) or 404. */
export async function requireProductSupplier(
  db: Db,
  id: string,
): Promise<ProductSupplierRecord> {
  const link = await findProductSupplier(db, id);
  if (!link) throw linkNotFound(id);
  return link;
}

/**
 * Links a supplier to a product. The product row is locked (`lockProduct`) so that
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
      await requireProduct(trx, productId, lockProduct);
      await assertSupplierExists(trx, input.supplierId);
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
  return requireProductSupplier(deps.db, id);
}

export async function changeProductSupplier(
  deps: AppDeps,
  id: string,
  input: { supplierSku?: string | null; cost?: string | null; isPreferred?: boolean },
): Promise<ProductSupplierRecord> {
  const now = deps.clock.now();
  await withTransaction(deps.db, async (trx) => {
    const link = await requireProductSupplier(trx, id);
    // Same lock as linkSupplier: preferred changes of one product are serialized.
    await lockProduct(trx, link.productId);
    if (input.isPreferred) await unsetPreferredSupplier(trx, link.productId, now, id);
    await updateProductSupplier(trx, id, input, now);
  });
  return requireProductSupplier(deps.db, id);
}

export async function unlinkSupplier(deps: AppDeps, id: string): Promise<void> {
  if (!(await deleteProductSupplier(deps.db, id))) throw linkNotFound(id);
}
