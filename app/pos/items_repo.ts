/** SQL of transaction items (the lines of a sale, repair payment or refund). */
import { type Selectable, sql } from "kysely";
import type { Db } from "../db/database.ts";
import { isoString } from "../db/rows.ts";
import type { TransactionItemTable } from "./pos_tables.ts";

export interface ItemRecord {
  id: string;
  transactionId: string;
  kind: "sale" | "labor" | "part";
  productId: string | null;
  unitId: string | null;
  originalItemId: string | null;
  rentalChargeId: string | null;
  description: string;
  quantity: number;
  unitPrice: string;
  taxCategory: "goods" | "service";
  isConsumable: boolean;
  gross: string;
  discount: string;
  net: string;
  tax: string;
  refundedQuantity: number;
  refundedNet: string;
  refundedTax: string;
  createdAt: string;
}

/** An item with the type of its product (null without one), for its stock effect. */
export type StockItemRecord = ItemRecord & { productType: string | null };

export type ItemRow = Selectable<TransactionItemTable>;

export function toItem(row: ItemRow): ItemRecord {
  return {
    id: row.id,
    transactionId: row.transaction_id,
    kind: row.kind,
    productId: row.product_id,
    unitId: row.unit_id,
    originalItemId: row.original_item_id,
    rentalChargeId: row.rental_charge_id ?? null,
    description: row.description,
    quantity: row.quantity,
    unitPrice: row.unit_price,
    taxCategory: row.tax_category,
    isConsumable: row.is_consumable,
    gross: row.gross,
    discount: row.discount,
    net: row.net,
    tax: row.tax,
    refundedQuantity: row.refunded_quantity,
    refundedNet: row.refunded_net,
    refundedTax: row.refunded_tax,
    createdAt: isoString(row.created_at),
  };
}

export interface NewItem {
  id: string;
  transactionId: string;
  kind: "sale" | "labor" | "part";
  productId: string | null;
  unitId: string | null;
  originalItemId?: string | null;
  rentalChargeId?: string | null;
  description: string;
  quantity: number;
  unitPrice: string;
  taxCategory: "goods" | "service";
  isConsumable: boolean;
  gross?: string;
  discount?: string;
  net?: string;
  tax?: string;
  createdAt: Date;
}

export async function insertItems(db: Db, items: readonly NewItem[]): Promise<ItemRecord[]> {
  if (items.length === 0) return [];
  const rows = await db.insertInto("transaction_items").values(items.map((i) => ({
    id: i.id,
    transaction_id: i.transactionId,
    kind: i.kind,
    product_id: i.productId,
    unit_id: i.unitId,
    original_item_id: i.originalItemId ?? null,
    rental_charge_id: i.rentalChargeId ?? null,
    description: i.description,
    quantity: i.quantity,
    unit_price: i.unitPrice,
    tax_category: i.taxCategory,
    is_consumable: i.isConsumable,
    ...(i.gross !== undefined ? { gross: i.gross } : {}),
    ...(i.discount !== undefined ? { discount: i.discount } : {}),
    ...(i.net !== undefined ? { net: i.net } : {}),
    ...(i.tax !== undefined ? { tax: i.tax } : {}),
    created_at: i.createdAt,
  }))).returningAll().execute();
  return rows.map(toItem);
}

/** Items in the order they were added. */
export async function findItems(db: Db, transactionId: string): Promise<ItemRecord[]> {
  const rows = await db.selectFrom("transaction_items").selectAll()
    .where("transaction_id", "=", transactionId).orderBy("created_at").orderBy("id").execute();
  return rows.map(toItem);
}

/** {@link findItems} with the type of each item's product, for stock effects. */
export async function findItemsWithProductType(
  db: Db,
  transactionId: string,
): Promise<StockItemRecord[]> {
  const rows = await db.selectFrom("transaction_items as ti")
    .leftJoin("products as p", "p.id", "ti.product_id")
    .selectAll("ti")
    .select("p.type as product_type")
    .where("ti.transaction_id", "=", transactionId)
    .orderBy("ti.created_at").orderBy("ti.id").execute();
  return rows.map(({ product_type, ...row }) => ({
    ...toItem(row as ItemRow),
    productType: product_type ?? null,
  }));
}

export async function updateItemRow(
  db: Db,
  id: string,
  changes: {
    kind?: "sale" | "labor" | "part";
    description?: string;
    quantity?: number;
    unitPrice?: string;
    taxCategory?: "goods" | "service";
  },
): Promise<void> {
  await db.updateTable("transaction_items").set({
    ...(changes.kind !== undefined ? { kind: changes.kind } : {}),
    ...(changes.description !== undefined ? { description: changes.description } : {}),
    ...(changes.quantity !== undefined ? { quantity: changes.quantity } : {}),
    ...(changes.unitPrice !== undefined ? { unit_price: changes.unitPrice } : {}),
    ...(changes.taxCategory !== undefined ? { tax_category: changes.taxCategory } : {}),
  }).where("id", "=", id).execute();
}

export async function deleteItemRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom("transaction_items").where("id", "=", id).execute();
}

/** Writes every line's computed amounts in one statement. */
export async function saveItemAmounts(
  db: Db,
  items: ReadonlyArray<{ id: string; gross: string; discount: string; net: string; tax: string }>,
): Promise<void> {
  if (items.length === 0) return;
  const values = sql.join(
    items.map((i) =>
      sql`(${i.id}::uuid, ${i.gross}::numeric, ${i.discount}::numeric, ${i.net}::numeric, ${i.tax}::numeric)`
    ),
  );
  await sql`UPDATE transaction_items AS ti
    SET gross = v.gross, discount = v.discount, net = v.net, tax = v.tax
    FROM (VALUES ${values}) AS v(id, gross, discount, net, tax)
    WHERE ti.id = v.id`.execute(db);
}

/** Adds a refund to the original lines' running refunded figures (the CHECK caps quantity). */
export async function addRefundedAmounts(
  db: Db,
  items: ReadonlyArray<{ id: string; quantity: number; net: string; tax: string }>,
): Promise<void> {
  if (items.length === 0) return;
  const values = sql.join(
    items.map((i) =>
      sql`(${i.id}::uuid, ${i.quantity}::integer, ${i.net}::numeric, ${i.tax}::numeric)`
    ),
  );
  await sql`UPDATE transaction_items AS ti
    SET refunded_quantity = ti.refunded_quantity + v.quantity,
        refunded_net = ti.refunded_net + v.net,
        refunded_tax = ti.refunded_tax + v.tax
    FROM (VALUES ${values}) AS v(id, quantity, net, tax)
    WHERE ti.id = v.id`.execute(db);
}
