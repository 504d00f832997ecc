/** SQL of stock receipts, read joined with their product and supplier. */
import type { NotNull } from "kysely";
import type { Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { isoString } from "../db/rows.ts";
import { containsText } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";

/** A receipt with its product's and supplier's names (`stockReceiptJson` nests them). */
export interface StockReceiptRecord {
  id: string;
  productId: string;
  supplierId: string;
  quantity: number;
  costPerUnit: string;
  invoiceNumber: string | null;
  stockIncremented: boolean;
  receivedAt: string;
  createdBy: string | null;
  createdAt: string;
  productName: string;
  productSku: string;
  productQtyOnHand: number;
  supplierName: string;
}

/**
 * A receipt with its product's and supplier's names. LEFT JOINs, though both keys are NOT NULL
 * foreign keys (every receipt has both rows): PostgreSQL removes an outer join whose columns
 * are not used, so the list's capped count reads the receipts' index alone instead of probing a
 * product and a supplier per counted receipt.
 */
function receiptQuery(db: Db) {
  return db.selectFrom("stock_receipts as r")
    .leftJoin("products as p", "p.id", "r.product_id")
    .leftJoin("suppliers as s", "s.id", "r.supplier_id")
    .select([
      "r.id",
      "r.product_id",
      "r.supplier_id",
      "r.quantity",
      "r.cost_per_unit",
      "r.invoice_number",
      "r.stock_incremented",
      "r.received_at",
      "r.created_by",
      "r.created_at",
      "p.name as product_name",
      "p.sku as product_sku",
      "p.qty_on_hand as product_qty_on_hand",
      "s.name as supplier_name",
    ])
    .$narrowType<
      {
        product_name: NotNull;
        product_sku: NotNull;
        product_qty_on_hand: NotNull;
        supplier_name: NotNull;
      }
    >();
}

type ReceiptRow = Awaited<ReturnType<ReturnType<typeof receiptQuery>["executeTakeFirstOrThrow"]>>;

function toReceipt(row: ReceiptRow): StockReceiptRecord {
  return {
    id: row.id,
    productId: row.product_id,
    supplierId: row.supplier_id,
    quantity: row.quantity,
    costPerUnit: row.cost_per_unit,
    invoiceNumber: row.invoice_number,
    stockIncremented: row.stock_incremented,
    receivedAt: isoString(row.received_at),
    createdBy: row.created_by,
    createdAt: isoString(row.created_at),
    productName: row.product_name,
    productSku: row.product_sku,
    productQtyOnHand: row.product_qty_on_hand,
    supplierName: row.supplier_name,
  };
}

export function listStockReceipts(
  db: Db,
  params: ListParams & { productId?: string; supplierId?: string },
) {
  let query = receiptQuery(db);
  if (params.q) {
    query = query.where(containsText("r.invoice_number", params.q));
  }
  if (params.productId) query = query.where("r.product_id", "=", params.productId);
  if (params.supplierId) query = query.where("r.supplier_id", "=", params.supplierId);
  return paginate(query, params, {
    sortColumns: { receivedAt: "r.received_at", createdAt: "r.created_at" },
    tieBreaker: "r.id",
    map: toReceipt,
  });
}

export async function findStockReceipt(
  db: Db,
  id: string,
): Promise<StockReceiptRecord | undefined> {
  const row = await receiptQuery(db).where("r.id", "=", id).executeTakeFirst();
  return row && toReceipt(row);
}

export async function insertStockReceipt(
  db: Db,
  values:
    & Omit<
      StockReceiptRecord,
      | "receivedAt"
      | "createdAt"
      | "productName"
      | "productSku"
      | "productQtyOnHand"
      | "supplierName"
    >
    & { receivedAt: Date; now: Date },
): Promise<void> {
  await db.insertInto("stock_receipts").values({
    id: values.id,
    product_id: values.productId,
    supplier_id: values.supplierId,
    quantity: values.quantity,
    cost_per_unit: values.costPerUnit,
    invoice_number: values.invoiceNumber,
    stock_incremented: values.stockIncremented,
    received_at: values.receivedAt,
    created_by: values.createdBy,
    created_at: values.now,
  }).execute();
}
