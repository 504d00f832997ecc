/** Use case of stock receipts: record the delivery and increment the stock atomically. */
import { InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import { receiptIncrementsStock } from "../../domain/inventory/products.ts";
import type { AppDeps } from "../deps.ts";
import { withTransaction } from "../db/transaction.ts";
import type { Actor } from "../auth/actor.ts";
import {
  findProduct,
  findStockReceipt,
  findSupplier,
  insertStockReceipt,
  type StockReceiptRecord,
} from "./inventory_repo.ts";
import { adjustStock } from "./stock.ts";

/**
 * One transaction: the receipt row and, for non-serialized products, `qty_on_hand =
 * qty_on_hand + quantity` (never read-modify-write), so parallel receipts never lose an
 * increment. Serialized products receive units instead (`POST /products/:id/units`).
 */
export async function receiveStock(
  deps: AppDeps,
  actor: Actor | undefined,
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
  const receipt = await withTransaction(deps.db, async (trx) => {
    // FOR NO KEY UPDATE from the start: a share lock upgraded by the increment would
    // deadlock parallel receipts of the same product.
    const product = await findProduct(trx, input.productId, "update");
    if (!product) {
      throw new InvalidReferenceError("productId", `Product "${input.productId}" does not exist`);
    }
    if (!(await findSupplier(trx, input.supplierId, "share"))) {
      throw new InvalidReferenceError(
        "supplierId",
        `Supplier "${input.supplierId}" does not exist`,
      );
    }
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
      createdBy: actor?.userId ?? null,
      now,
    });
    if (increments) await adjustStock(trx, input.productId, input.quantity, now);
    return await findStockReceipt(trx, id);
  });
  if (!receipt) throw new NotFoundError(`Stock receipt "${id}" does not exist`);
  return receipt;
}
