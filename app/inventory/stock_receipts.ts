/** Use cases of stock receipts: record the delivery and increment the stock atomically. */
import { InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import { receiptIncrementsStock } from "../../domain/inventory/products.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { Actor } from "../actor.ts";
import { lockProduct } from "./products_repo.ts";
import {
  findStockReceipt,
  insertStockReceipt,
  type StockReceiptRecord,
} from "./stock_receipts_repo.ts";
import { adjustStock } from "./stock.ts";
import { assertSupplierExists } from "./suppliers.ts";

/** The receipt or 404. */
export async function requireStockReceipt(db: Db, id: string): Promise<StockReceiptRecord> {
  const receipt = await findStockReceipt(db, id);
  if (!receipt) throw new NotFoundError("not_found", `Stock receipt "${id}" does not exist`);
  return receipt;
}

/**
 * One transaction: the receipt row and, for non-serialized products, `qty_on_hand =
 * qty_on_hand + quantity` (never read-modify-write), so parallel receipts never lose an
 * increment. Serialized products receive units instead (`POST /products/:id/units`).
 */
export async function receiveStock(
  deps: AppDeps,
  actor: Actor,
  input: {
    productId: string;
    supplierId: string;
    quantity: number;
    costPerUnit: string;
    invoiceNumber?: string | null;
    receivedAt?: string;
  },
): Promise<StockReceiptRecord> {
  const now = deps.clock.now();
  const id = deps.ids.uuid();
  return await withTransaction(deps.db, async (trx) => {
    // The product's one lock from the start: a weaker lock upgraded by the increment would
    // deadlock parallel receipts of the same product.
    const product = await lockProduct(trx, input.productId);
    if (!product) {
      throw new InvalidReferenceError("productId", `Product "${input.productId}" does not exist`);
    }
    await assertSupplierExists(trx, input.supplierId);
    const increments = receiptIncrementsStock(product.type);
    await insertStockReceipt(trx, {
      id,
      productId: input.productId,
      supplierId: input.supplierId,
      quantity: input.quantity,
      costPerUnit: input.costPerUnit,
      invoiceNumber: input.invoiceNumber ?? null,
      stockIncremented: increments,
      receivedAt: input.receivedAt ? new Date(input.receivedAt) : now,
      createdBy: actor.userId,
      now,
    });
    if (increments) await adjustStock(trx, input.productId, input.quantity, now);
    return await requireStockReceipt(trx, id);
  });
}
