/**
 * SQL of products: the catalogue list, reads, the row lock, writes and the price history.
 * Stock counts change through `stock_repo.ts`.
 */
import { compiledOnce } from "../db/compiled.ts";
import { type Selectable, sql, type Transaction } from "kysely";
import type { Database, Db } from "../db/database.ts";
import { listShape, newShapeMemo, paginate, paginateByShape } from "../db/pagination.ts";
import { columnsWithPrefix, isoString, selectWithPrefix, softDeleteById } from "../db/rows.ts";
import { containsText, containsTextBinding, LOWERED } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { ProductType } from "../../domain/inventory/products.ts";
import type { ProductTable, TaxCategory } from "./inventory_tables.ts";

export interface ProductRecord {
  id: string;
  name: string;
  sku: string;
  upc: string | null;
  description: string | null;
  categoryId: string | null;
  type: ProductType;
  price: string;
  cost: string | null;
  isDualUseRepair: boolean;
  isConsumable: boolean;
  qtyOnHand: number;
  reorderPoint: number;
  isActive: boolean;
  taxCategory: TaxCategory;
  createdAt: string;
  updatedAt: string;
}

const productColumns = [
  "products.id",
  "products.name",
  "products.sku",
  "products.upc",
  "products.description",
  "products.category_id",
  "products.type",
  "products.price",
  "products.cost",
  "products.is_dual_use_repair",
  "products.is_consumable",
  "products.qty_on_hand",
  "products.reorder_point",
  "products.is_active",
  "products.tax_category",
  "products.created_at",
  "products.updated_at",
] as const;

type ProductRow = Omit<Selectable<ProductTable>, "search_text" | "deleted_at">;

function toProduct(row: ProductRow): ProductRecord {
  return {
    id: row.id,
    name: row.name,
    sku: row.sku,
    upc: row.upc,
    description: row.description,
    categoryId: row.category_id,
    type: row.type,
    price: row.price,
    cost: row.cost,
    isDualUseRepair: row.is_dual_use_repair,
    isConsumable: row.is_consumable,
    qtyOnHand: row.qty_on_hand,
    reorderPoint: row.reorder_point,
    isActive: row.is_active,
    taxCategory: row.tax_category,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

/**
 * The product columns of the products row under `alias`, each as `<prefix><column>`: for a
 * statement that reads a product beside other records (the counter's scan answers the
 * product it found without a second query), read back with {@link findProductInColumns}.
 */
export function listProductColumns(alias: string, prefix: string) {
  return selectWithPrefix(alias, prefix, PRODUCT_COLUMN_NAMES);
}

/** The product in `row`'s columns selected by {@link listProductColumns}; none when null. */
export function findProductInColumns(
  row: Record<string, unknown>,
  prefix: string,
): ProductRecord | undefined {
  const columns = columnsWithPrefix(row, prefix, PRODUCT_COLUMN_NAMES);
  return columns && toProduct(columns as unknown as ProductRow);
}

const PRODUCT_COLUMN_NAMES = productColumns.map((column) => column.slice("products.".length));

export interface ProductFilters {
  categoryId?: string;
  type?: ProductType;
  lowStock?: boolean;
  isActive?: boolean;
  pos?: boolean;
}

/**
 * The product list as one query. `q` is matched in the generated, lowered `search_text` column
 * (name, sku, upc), which the partial GIN trigram index `products_search_trgm_idx` serves.
 */
export function productListQuery(db: Db, params: ListParams & ProductFilters) {
  let query = db.selectFrom("products").select(productColumns)
    .where("products.deleted_at", "is", null);
  if (params.q) query = query.where(containsText("products.search_text", params.q, LOWERED));
  if (params.categoryId) query = query.where("products.category_id", "=", params.categoryId);
  if (params.type) query = query.where("products.type", "=", params.type);
  if (params.lowStock !== undefined) {
    query = query.where(
      sql<boolean>`products.qty_on_hand ${
        params.lowStock ? sql`<=` : sql`>`
      } products.reorder_point`,
    );
  }
  if (params.isActive !== undefined) {
    query = query.where("products.is_active", "=", params.isActive);
  }
  if (params.pos) {
    query = query.where("products.is_active", "=", true)
      .where("products.is_consumable", "=", false); // type consumable ⇒ is_consumable (CHECK)
  }
  return query;
}

export const PRODUCT_SORT_COLUMNS: Record<string, string> = {
  name: "products.name",
  sku: "products.sku",
  price: "products.price",
  qtyOnHand: "products.qty_on_hand",
  createdAt: "products.created_at",
};

/** Compiled product-list SQL per shape (see `paginateByShape`; exported for its test). */
export const productListSql = newShapeMemo();

export function listProducts(db: Db, params: ListParams & ProductFilters) {
  // The parameters `productListQuery` binds, in order, and what decides its SQL text.
  const search = params.q ? containsTextBinding(params.q, LOWERED) : undefined;
  const { shape, values } = listShape([
    [`q${search?.key}`, search?.values],
    ["c", params.categoryId && [params.categoryId]],
    ["t", params.type && [params.type]],
    [`l${params.lowStock}`, params.lowStock !== undefined && []],
    ["a", params.isActive !== undefined && [params.isActive]],
    ["p", params.pos && [true, false]],
  ]);
  return paginateByShape(
    db,
    productListSql,
    shape,
    values,
    () => productListQuery(db, params),
    params,
    {
      sortColumns: PRODUCT_SORT_COLUMNS,
      tieBreaker: "products.id",
      // A search: matches from the trigram index, whatever the other filters (search_plan_test).
      planOnce: Boolean(params.q),
      map: toProduct,
    },
  );
}

function liveProduct(db: Db, id: string) {
  return db.selectFrom("products").select(productColumns)
    .where("products.id", "=", id).where("products.deleted_at", "is", null);
}

const liveProductRows = compiledOnce((db: Db, id: string) => liveProduct(db, id));

/** The live product (not soft-deleted), without a lock. */
export async function findProduct(db: Db, id: string): Promise<ProductRecord | undefined> {
  const [row] = await liveProductRows(db, id);
  return row && toProduct(row);
}

/** The live products among `ids` (one query, any order; unknown or deleted ids are absent). */
export async function findProductsByIds(db: Db, ids: readonly string[]): Promise<ProductRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("products").select(productColumns)
    .where("products.id", "in", [...ids]).where("products.deleted_at", "is", null).execute();
  return rows.map(toProduct);
}

/**
 * The live product, locked FOR NO KEY UPDATE until the transaction ends: the one lock of a
 * product row. Every use case that reads a product and then writes it or a row under it
 * (edits, stock receipts, preferred-supplier changes, units, consignment terms) takes it, as
 * do the stock changes (`stock_repo.ts`). It keeps the product from being changed or
 * soft-deleted meanwhile, and still lets other transactions insert rows that reference it
 * (their foreign key check only takes KEY SHARE). Taken from the start, never upgraded from a
 * weaker lock, so two such transactions queue instead of deadlocking.
 */
export async function lockProduct(
  trx: Transaction<Database>,
  id: string,
): Promise<ProductRecord | undefined> {
  const row = await liveProduct(trx, id).forNoKeyUpdate().executeTakeFirst();
  return row && toProduct(row);
}

/** What a product write sets (the stock count changes only through stock_repo.ts). */
export type ProductValues = Omit<ProductRecord, "id" | "qtyOnHand" | "createdAt" | "updatedAt">;

function productRow(values: ProductValues) {
  return {
    name: values.name,
    sku: values.sku,
    upc: values.upc,
    description: values.description,
    category_id: values.categoryId,
    type: values.type,
    price: values.price,
    cost: values.cost,
    is_dual_use_repair: values.isDualUseRepair,
    is_consumable: values.isConsumable,
    reorder_point: values.reorderPoint,
    is_active: values.isActive,
    tax_category: values.taxCategory,
  };
}

export async function insertProduct(
  db: Db,
  id: string,
  values: ProductValues,
  now: Date,
): Promise<ProductRecord> {
  const row = await db.insertInto("products")
    .values({ id, ...productRow(values), created_at: now, updated_at: now })
    .returning(productColumns).executeTakeFirstOrThrow();
  return toProduct(row);
}

export async function updateProduct(
  db: Db,
  id: string,
  values: ProductValues,
  now: Date,
): Promise<ProductRecord> {
  const row = await db.updateTable("products").where("id", "=", id)
    .set({ ...productRow(values), updated_at: now })
    .returning(productColumns).executeTakeFirstOrThrow();
  return toProduct(row);
}

export function softDeleteProduct(db: Db, id: string, now: Date): Promise<boolean> {
  return softDeleteById(db, "products", id, now);
}

// ---------------------------------------------------------------- price history

export async function insertPriceHistory(
  db: Db,
  values: {
    id: string;
    productId: string;
    price: string;
    previousPrice: string | null;
    changedBy: string | null;
    now: Date;
  },
): Promise<void> {
  await db.insertInto("product_price_history").values({
    id: values.id,
    product_id: values.productId,
    price: values.price,
    previous_price: values.previousPrice,
    changed_by: values.changedBy,
    changed_at: values.now,
  }).execute();
}

/** `q`: substring of the price or previous price as text ("12.5" finds 12.50 and 112.50). */
export function listPriceHistory(db: Db, productId: string, params: ListParams) {
  let query = db.selectFrom("product_price_history")
    .select(["id", "product_id", "price", "previous_price", "changed_by", "changed_at"])
    .where("product_id", "=", productId);
  if (params.q) {
    const q = params.q;
    query = query.where((eb) =>
      eb.or([containsText(sql`price::text`, q), containsText(sql`previous_price::text`, q)])
    );
  }
  return paginate(query, params, {
    sortColumns: { changedAt: "changed_at", createdAt: "changed_at" },
    tieBreaker: "id",
    map: (row) => ({
      id: row.id,
      productId: row.product_id,
      price: row.price,
      previousPrice: row.previous_price,
      changedBy: row.changed_by,
      changedAt: isoString(row.changed_at),
    }),
  });
}
