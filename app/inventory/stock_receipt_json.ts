/** The wire shape of a stock receipt: its total cost, with its product and supplier nested. */
import { formatMoney, parseMoney } from "../../domain/money.ts";
import { receiptTotalCost } from "../../domain/inventory/stock_receipts.ts";
import type { StockReceiptRecord } from "./stock_receipts_repo.ts";

export function stockReceiptJson(receipt: StockReceiptRecord) {
  return {
    id: receipt.id,
    productId: receipt.productId,
    supplierId: receipt.supplierId,
    quantity: receipt.quantity,
    costPerUnit: receipt.costPerUnit,
    totalCost: formatMoney(receiptTotalCost(parseMoney(receipt.costPerUnit), receipt.quantity)),
    invoiceNumber: receipt.invoiceNumber,
    stockIncremented: receipt.stockIncremented,
    receivedAt: receipt.receivedAt,
    createdBy: receipt.createdBy,
    createdAt: receipt.createdAt,
    product: {
      id: receipt.productId,
      name: receipt.productName,
      sku: receipt.productSku,
      qtyOnHand: receipt.productQtyOnHand,
    },
    supplier: { id: receipt.supplierId, name: receipt.supplierName },
  };
}
