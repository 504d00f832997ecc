/** Use cases of suppliers (soft delete; their product links go with them). */
import type { Transaction } from "kysely";
import { InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";
import type { Database, Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import {
  findSupplier,
  insertSupplier,
  lockSupplier,
  softDeleteSupplier,
  type SupplierRecord,
  type SupplierValues,
  updateSupplier,
} from "./suppliers_repo.ts";
import { deleteLinksOfSupplier } from "./product_suppliers_repo.ts";

function supplierNotFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Supplier "${id}" does not exist`);
}

/** The live supplier or 404. */
export async function requireSupplier(db: Db, id: string): Promise<SupplierRecord> {
  const supplier = await findSupplier(db, id);
  if (!supplier) throw supplierNotFound(id);
  return supplier;
}

/**
 * The supplier a receipt or product link names must exist, else 400 invalid_reference; its
 * lock keeps it from being deleted before we commit.
 */
export async function assertSupplierExists(
  trx: Transaction<Database>,
  supplierId: string,
): Promise<void> {
  if (!(await lockSupplier(trx, supplierId))) {
    throw new InvalidReferenceError("supplierId", `Supplier "${supplierId}" does not exist`);
  }
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
  if (!supplier) throw supplierNotFound(id);
  return supplier;
}

/**
 * Soft delete: receipts keep pointing at the supplier; its product links are removed in
 * the same transaction (a deleted supplier is nobody's supplier any more).
 */
export async function removeSupplier(deps: AppDeps, id: string): Promise<void> {
  await withTransaction(deps.db, async (trx) => {
    if (!(await softDeleteSupplier(trx, id, deps.clock.now()))) throw supplierNotFound(id);
    await deleteLinksOfSupplier(trx, id);
  });
}
