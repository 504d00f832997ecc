/** All SQL of inventory: products, categories, suppliers, links, lookups, units, receipts. */
import { type Selectable, sql } from "kysely";
import type { Db } from "../db/database.ts";
import { nullableJsonb } from "../db/jsonb.ts";
import { paginate, paginateByShape, type ShapeMemo } from "../db/pagination.ts";
import { deleteById, hasRow, isoString, softDeleteById, touchedAny } from "../db/rows.ts";
import { likePattern, type ListParams } from "../schemas.ts";
import type { AddressJson } from "../platform/platform_tables.ts";
import type {
  CategoryTable,
  ConsignmentTable,
  LookupTable,
  ProductTable,
  ProductType,
  SupplierTable,
  TaxCategory,
  UnitTable,
} from "./inventory_tables.ts";
import { fromCents, toCents } from "../../domain/inventory/products.ts";

// ================================================================ products

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

export interface ProductFilters {
  categoryId?: string;
  type?: ProductType;
  lowStock?: boolean;
  isActive?: boolean;
  pos?: boolean;
}

/**
 * The product list as one query. `q` is an ILIKE over the generated `search_text` column
 * (name, sku, upc), which the partial GIN trigram index `products_search_trgm_idx` serves.
 */
export function productListQuery(db: Db, params: ListParams & ProductFilters) {
  let query = db.selectFrom("products").select(productColumns)
    .where("products.deleted_at", "is", null);
  if (params.q) query = query.where("products.search_text", "ilike", likePattern(params.q));
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

/** Compiled product-list SQL per shape (see `paginateByShape`). */
const productListSql: ShapeMemo = new Map();

export function listProducts(db: Db, params: ListParams & ProductFilters) {
  // The parameters `productListQuery` binds, in order, and what decides its SQL text.
  const values: unknown[] = [];
  if (params.q) values.push(likePattern(params.q));
  if (params.categoryId) values.push(params.categoryId);
  if (params.type) values.push(params.type);
  if (params.isActive !== undefined) values.push(params.isActive);
  if (params.pos) values.push(true, false);
  const shape = [
    params.q ? "q" : "",
    params.categoryId ? "c" : "",
    params.type ? "t" : "",
    params.lowStock === undefined ? "" : `l${params.lowStock}`,
    params.isActive === undefined ? "" : "a",
    params.pos ? "p" : "",
  ].join(",");
  return paginateByShape(
    db,
    productListSql,
    shape,
    values,
    () => productListQuery(db, params),
    params,
    { sortColumns: PRODUCT_SORT_COLUMNS, tieBreaker: "products.id", map: toProduct },
  );
}

export async function findProduct(
  db: Db,
  id: string,
  lock?: "update" | "share",
): Promise<ProductRecord | undefined> {
  let query = db.selectFrom("products").select(productColumns)
    .where("products.id", "=", id).where("products.deleted_at", "is", null);
  if (lock === "update") query = query.forNoKeyUpdate();
  if (lock === "share") query = query.forShare();
  const row = await query.executeTakeFirst();
  return row && toProduct(row);
}

export interface ProductValues {
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
  reorderPoint: number;
  isActive: boolean;
  taxCategory: TaxCategory;
}

export async function insertProduct(
  db: Db,
  id: string,
  values: ProductValues,
  now: Date,
): Promise<ProductRecord> {
  const row = await db.insertInto("products").values({
    id,
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
    created_at: now,
    updated_at: now,
  }).returning(productColumns).executeTakeFirstOrThrow();
  return toProduct(row);
}

export async function updateProduct(
  db: Db,
  id: string,
  values: ProductValues,
  now: Date,
): Promise<ProductRecord> {
  const row = await db.updateTable("products").where("id", "=", id).set({
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
    updated_at: now,
  }).returning(productColumns).executeTakeFirstOrThrow();
  return toProduct(row);
}

export function softDeleteProduct(db: Db, id: string, now: Date): Promise<boolean> {
  return softDeleteById(db, "products", id, now);
}

/** Atomic stock change (`qty_on_hand = qty_on_hand + delta`); the new count, or undefined. */
export async function incrementStock(
  db: Db,
  productId: string,
  delta: number,
  now: Date,
): Promise<number | undefined> {
  const row = await db.updateTable("products")
    .set({ qty_on_hand: sql`qty_on_hand + ${delta}`, updated_at: now })
    .where("id", "=", productId)
    .returning("qty_on_hand")
    .executeTakeFirst();
  return row?.qty_on_hand;
}

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
    const pattern = likePattern(params.q);
    query = query.where((eb) =>
      eb.or([
        eb(sql`price::text`, "ilike", pattern),
        eb(sql`previous_price::text`, "ilike", pattern),
      ])
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

// ================================================================ categories

export interface CategoryRecord {
  id: string;
  name: string;
  parentId: string | null;
  sortOrder: number;
  createdAt: string;
  updatedAt: string;
}

const categoryColumns = [
  "id",
  "name",
  "parent_id",
  "sort_order",
  "created_at",
  "updated_at",
] as const;

function toCategory(row: Omit<Selectable<CategoryTable>, "deleted_at">): CategoryRecord {
  return {
    id: row.id,
    name: row.name,
    parentId: row.parent_id,
    sortOrder: row.sort_order,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

export function listCategories(db: Db, params: ListParams & { parentId?: string }) {
  let query = db.selectFrom("categories").select(categoryColumns).where("deleted_at", "is", null);
  if (params.q) query = query.where("name", "ilike", likePattern(params.q));
  if (params.parentId) query = query.where("parent_id", "=", params.parentId);
  return paginate(query, params, {
    sortColumns: { name: "name", sortOrder: "sort_order", createdAt: "created_at" },
    tieBreaker: "id",
    map: toCategory,
  });
}

export async function listAllCategories(db: Db): Promise<CategoryRecord[]> {
  const rows = await db.selectFrom("categories").select(categoryColumns)
    .where("deleted_at", "is", null)
    .orderBy("sort_order").orderBy("name").orderBy("id").execute();
  return rows.map(toCategory);
}

export async function findCategory(
  db: Db,
  id: string,
  lock?: "update" | "share",
): Promise<CategoryRecord | undefined> {
  let query = db.selectFrom("categories").select(categoryColumns)
    .where("id", "=", id).where("deleted_at", "is", null);
  if (lock === "update") query = query.forUpdate();
  if (lock === "share") query = query.forShare();
  const row = await query.executeTakeFirst();
  return row && toCategory(row);
}

/** Serializes changes to the category tree (held until the transaction ends). */
export async function lockCategoryTree(db: Db): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('inventory.category_tree'))`.execute(db);
}

/** Ancestors of `id` (parent first, root last), by a recursive CTE; stops on a loop. */
export async function findCategoryAncestors(db: Db, id: string): Promise<string[]> {
  const result = await sql<{ id: string }>`
    WITH RECURSIVE chain(id, parent_id, depth) AS (
      SELECT c.id, c.parent_id, 0 FROM categories c WHERE c.id = ${id}
      UNION ALL
      SELECT p.id, p.parent_id, chain.depth + 1
      FROM categories p JOIN chain ON p.id = chain.parent_id
      WHERE chain.depth < 1000
    )
    SELECT id FROM chain WHERE depth > 0 ORDER BY depth`.execute(db);
  return result.rows.map((row) => row.id);
}

export async function insertCategory(
  db: Db,
  values: { id: string; name: string; parentId: string | null; sortOrder: number; now: Date },
): Promise<CategoryRecord> {
  const row = await db.insertInto("categories").values({
    id: values.id,
    name: values.name,
    parent_id: values.parentId,
    sort_order: values.sortOrder,
    created_at: values.now,
    updated_at: values.now,
  }).returning(categoryColumns).executeTakeFirstOrThrow();
  return toCategory(row);
}

export async function updateCategory(
  db: Db,
  id: string,
  changes: { name?: string; parentId?: string | null; sortOrder?: number },
  now: Date,
): Promise<CategoryRecord> {
  const row = await db.updateTable("categories").where("id", "=", id).set({
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.parentId !== undefined ? { parent_id: changes.parentId } : {}),
    ...(changes.sortOrder !== undefined ? { sort_order: changes.sortOrder } : {}),
    updated_at: now,
  }).returning(categoryColumns).executeTakeFirstOrThrow();
  return toCategory(row);
}

/** What still points at a category: live child categories and live products. */
export async function countCategoryDependents(
  db: Db,
  id: string,
): Promise<{ children: number; products: number }> {
  const row = await db.selectNoFrom([
    sql<number>`(SELECT count(*) FROM categories WHERE parent_id = ${id} AND deleted_at IS NULL)`
      .as("children"),
    sql<number>`(SELECT count(*) FROM products WHERE category_id = ${id} AND deleted_at IS NULL)`
      .as("products"),
  ]).executeTakeFirstOrThrow();
  return { children: Number(row.children), products: Number(row.products) };
}

export async function softDeleteCategory(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable("categories").set({ deleted_at: now, updated_at: now })
    .where("id", "=", id).execute();
}

// ================================================================ suppliers

export interface SupplierRecord {
  id: string;
  name: string;
  contactName: string | null;
  email: string | null;
  phone: string | null;
  address: AddressJson | null;
  accountNumber: string | null;
  paymentTerms: string | null;
  createdAt: string;
  updatedAt: string;
}

const supplierColumns = [
  "id",
  "name",
  "contact_name",
  "email",
  "phone",
  "address",
  "account_number",
  "payment_terms",
  "created_at",
  "updated_at",
] as const;

function toSupplier(
  row: Omit<Selectable<SupplierTable>, "deleted_at" | "search_text">,
): SupplierRecord {
  return {
    id: row.id,
    name: row.name,
    contactName: row.contact_name,
    email: row.email,
    phone: row.phone,
    address: row.address,
    accountNumber: row.account_number,
    paymentTerms: row.payment_terms,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

export function listSuppliers(db: Db, params: ListParams) {
  let query = db.selectFrom("suppliers").select(supplierColumns).where("deleted_at", "is", null);
  if (params.q) query = query.where("search_text", "ilike", likePattern(params.q));
  return paginate(query, params, {
    sortColumns: { name: "name", createdAt: "created_at" },
    tieBreaker: "id",
    map: toSupplier,
  });
}

export async function listAllSuppliers(db: Db): Promise<SupplierRecord[]> {
  const rows = await db.selectFrom("suppliers").select(supplierColumns)
    .where("deleted_at", "is", null).orderBy("name").orderBy("id").execute();
  return rows.map(toSupplier);
}

export async function findSupplier(
  db: Db,
  id: string,
  lock?: "update" | "share",
): Promise<SupplierRecord | undefined> {
  let query = db.selectFrom("suppliers").select(supplierColumns)
    .where("id", "=", id).where("deleted_at", "is", null);
  if (lock === "update") query = query.forUpdate();
  if (lock === "share") query = query.forShare();
  const row = await query.executeTakeFirst();
  return row && toSupplier(row);
}

export interface SupplierValues {
  name?: string;
  contactName?: string | null;
  email?: string | null;
  phone?: string | null;
  address?: AddressJson | null;
  accountNumber?: string | null;
  paymentTerms?: string | null;
}

function supplierChanges(values: SupplierValues) {
  return {
    ...(values.name !== undefined ? { name: values.name } : {}),
    ...(values.contactName !== undefined ? { contact_name: values.contactName } : {}),
    ...(values.email !== undefined ? { email: values.email } : {}),
    ...(values.phone !== undefined ? { phone: values.phone } : {}),
    ...(values.address !== undefined ? { address: nullableJsonb(values.address) } : {}),
    ...(values.accountNumber !== undefined ? { account_number: values.accountNumber } : {}),
    ...(values.paymentTerms !== undefined ? { payment_terms: values.paymentTerms } : {}),
  };
}

export async function insertSupplier(
  db: Db,
  id: string,
  values: SupplierValues & { name: string },
  now: Date,
): Promise<SupplierRecord> {
  const row = await db.insertInto("suppliers").values({
    id,
    name: values.name,
    ...supplierChanges(values),
    created_at: now,
    updated_at: now,
  }).returning(supplierColumns).executeTakeFirstOrThrow();
  return toSupplier(row);
}

export async function updateSupplier(
  db: Db,
  id: string,
  values: SupplierValues,
  now: Date,
): Promise<SupplierRecord | undefined> {
  const row = await db.updateTable("suppliers").set({ ...supplierChanges(values), updated_at: now })
    .where("id", "=", id).where("deleted_at", "is", null)
    .returning(supplierColumns).executeTakeFirst();
  return row && toSupplier(row);
}

export function softDeleteSupplier(db: Db, id: string, now: Date): Promise<boolean> {
  return softDeleteById(db, "suppliers", id, now);
}

// ================================================================ product–supplier links

export interface ProductSupplierRecord {
  id: string;
  productId: string;
  supplierId: string;
  supplierSku: string | null;
  cost: string | null;
  isPreferred: boolean;
  supplier: {
    id: string;
    name: string;
    contactName: string | null;
    email: string | null;
    phone: string | null;
    accountNumber: string | null;
    paymentTerms: string | null;
  };
  createdAt: string;
  updatedAt: string;
}

/** Links joined with their supplier: one query for any number of links (no N+1). */
function linkQuery(db: Db) {
  return db.selectFrom("product_suppliers as ps")
    .innerJoin("suppliers as s", "s.id", "ps.supplier_id")
    .select([
      "ps.id",
      "ps.product_id",
      "ps.supplier_id",
      "ps.supplier_sku",
      "ps.cost",
      "ps.is_preferred",
      "ps.created_at",
      "ps.updated_at",
      "s.name as supplier_name",
      "s.contact_name as supplier_contact_name",
      "s.email as supplier_email",
      "s.phone as supplier_phone",
      "s.account_number as supplier_account_number",
      "s.payment_terms as supplier_payment_terms",
    ])
    .where("s.deleted_at", "is", null);
}

type LinkRow = Awaited<ReturnType<ReturnType<typeof linkQuery>["executeTakeFirstOrThrow"]>>;

function toLink(row: LinkRow): ProductSupplierRecord {
  return {
    id: row.id,
    productId: row.product_id,
    supplierId: row.supplier_id,
    supplierSku: row.supplier_sku,
    cost: row.cost,
    isPreferred: row.is_preferred,
    supplier: {
      id: row.supplier_id,
      name: row.supplier_name,
      contactName: row.supplier_contact_name,
      email: row.supplier_email,
      phone: row.supplier_phone,
      accountNumber: row.supplier_account_number,
      paymentTerms: row.supplier_payment_terms,
    },
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

export function listProductSuppliers(db: Db, productId: string, params: ListParams) {
  let query = linkQuery(db).where("ps.product_id", "=", productId);
  if (params.q) query = query.where("s.search_text", "ilike", likePattern(params.q));
  return paginate(query, params, {
    sortColumns: { supplierName: "s.name", cost: "ps.cost", createdAt: "ps.created_at" },
    tieBreaker: "ps.id",
    map: toLink,
  });
}

export async function findProductSupplier(
  db: Db,
  id: string,
): Promise<ProductSupplierRecord | undefined> {
  const row = await linkQuery(db).where("ps.id", "=", id).executeTakeFirst();
  return row && toLink(row);
}

/** Clears the preferred flag of `productId`'s links (except `exceptId`). */
export async function unsetPreferredSupplier(
  db: Db,
  productId: string,
  now: Date,
  exceptId?: string,
): Promise<void> {
  let query = db.updateTable("product_suppliers").set({ is_preferred: false, updated_at: now })
    .where("product_id", "=", productId).where("is_preferred", "=", true);
  if (exceptId) query = query.where("id", "<>", exceptId);
  await query.execute();
}

export async function insertProductSupplier(
  db: Db,
  values: {
    id: string;
    productId: string;
    supplierId: string;
    supplierSku: string | null;
    cost: string | null;
    isPreferred: boolean;
    now: Date;
  },
): Promise<void> {
  await db.insertInto("product_suppliers").values({
    id: values.id,
    product_id: values.productId,
    supplier_id: values.supplierId,
    supplier_sku: values.supplierSku,
    cost: values.cost,
    is_preferred: values.isPreferred,
    created_at: values.now,
    updated_at: values.now,
  }).execute();
}

export async function updateProductSupplier(
  db: Db,
  id: string,
  changes: { supplierSku?: string | null; cost?: string | null; isPreferred?: boolean },
  now: Date,
): Promise<void> {
  await db.updateTable("product_suppliers").set({
    ...(changes.supplierSku !== undefined ? { supplier_sku: changes.supplierSku } : {}),
    ...(changes.cost !== undefined ? { cost: changes.cost } : {}),
    ...(changes.isPreferred !== undefined ? { is_preferred: changes.isPreferred } : {}),
    updated_at: now,
  }).where("id", "=", id).execute();
}

export function deleteProductSupplier(db: Db, id: string): Promise<boolean> {
  return deleteById(db, "product_suppliers", id);
}

export async function deleteLinksOfSupplier(db: Db, supplierId: string): Promise<void> {
  await db.deleteFrom("product_suppliers").where("supplier_id", "=", supplierId).execute();
}

// ================================================================ lookups

export type LookupTableName = "unit_statuses" | "item_conditions";

export interface LookupRecord {
  id: string;
  value: string;
  label: string;
  isBuiltIn: boolean;
}

function toLookup(row: Pick<Selectable<LookupTable>, "id" | "value" | "label" | "is_built_in">) {
  return { id: row.id, value: row.value, label: row.label, isBuiltIn: row.is_built_in };
}

export async function listLookup(db: Db, table: LookupTableName): Promise<LookupRecord[]> {
  const rows = await db.selectFrom(table).select(["id", "value", "label", "is_built_in"])
    .orderBy("is_built_in", "desc").orderBy("created_at").orderBy("value").execute();
  return rows.map(toLookup);
}

export async function findLookup(
  db: Db,
  table: LookupTableName,
  id: string,
): Promise<LookupRecord | undefined> {
  const row = await db.selectFrom(table).select(["id", "value", "label", "is_built_in"])
    .where("id", "=", id).executeTakeFirst();
  return row && toLookup(row);
}

/** Whether `value` exists, holding a key-share lock so it cannot vanish before commit. */
export async function lookupValueExists(
  db: Db,
  table: LookupTableName,
  value: string,
): Promise<boolean> {
  return await hasRow(
    db.selectFrom(table).select("id").where("value", "=", value).forKeyShare(),
  );
}

export async function insertLookup(
  db: Db,
  table: LookupTableName,
  values: { id: string; value: string; label: string; isBuiltIn: boolean; now: Date },
): Promise<LookupRecord> {
  const row = await db.insertInto(table).values({
    id: values.id,
    value: values.value,
    label: values.label,
    is_built_in: values.isBuiltIn,
    created_at: values.now,
  }).returning(["id", "value", "label", "is_built_in"]).executeTakeFirstOrThrow();
  return toLookup(row);
}

/** Seeds values idempotently (existing values are left alone). */
export async function seedLookupValues(
  db: Db,
  table: LookupTableName,
  rows: ReadonlyArray<{ id: string; value: string; label: string; createdAt: Date }>,
): Promise<void> {
  await db.insertInto(table).values(rows.map((row) => ({
    id: row.id,
    value: row.value,
    label: row.label,
    is_built_in: true,
    created_at: row.createdAt,
  }))).onConflict((oc) => oc.column("value").doNothing()).execute();
}

/** Deletes a lookup row; a unit still referencing it makes this fail (FK, ON DELETE RESTRICT). */
export async function deleteLookup(db: Db, table: LookupTableName, id: string): Promise<void> {
  await db.deleteFrom(table).where("id", "=", id).execute();
}

// ================================================================ units

export interface UnitRecord {
  id: string;
  productId: string;
  serialNumber: string | null;
  status: string;
  condition: string;
  notes: string | null;
  createdAt: string;
  updatedAt: string;
}

const unitColumns = [
  "id",
  "product_id",
  "serial_number",
  "status",
  "condition",
  "notes",
  "created_at",
  "updated_at",
] as const;

function toUnit(row: Omit<Selectable<UnitTable>, "deleted_at">): UnitRecord {
  return {
    id: row.id,
    productId: row.product_id,
    serialNumber: row.serial_number,
    status: row.status,
    condition: row.condition,
    notes: row.notes,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

export function listUnits(
  db: Db,
  productId: string,
  params: ListParams & { status?: string; condition?: string },
) {
  let query = db.selectFrom("units").select(unitColumns)
    .where("product_id", "=", productId).where("deleted_at", "is", null);
  if (params.q) query = query.where("serial_number", "ilike", likePattern(params.q));
  if (params.status) query = query.where("status", "=", params.status);
  if (params.condition) query = query.where("condition", "=", params.condition);
  return paginate(query, params, {
    sortColumns: {
      serialNumber: "serial_number",
      status: "status",
      createdAt: "created_at",
      updatedAt: "updated_at",
    },
    tieBreaker: "id",
    map: toUnit,
  });
}

export async function findUnit(
  db: Db,
  id: string,
  lock = false,
): Promise<UnitRecord | undefined> {
  let query = db.selectFrom("units").select(unitColumns)
    .where("id", "=", id).where("deleted_at", "is", null);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row && toUnit(row);
}

export async function insertUnit(
  db: Db,
  values: {
    id: string;
    productId: string;
    serialNumber: string | null;
    status: string;
    condition: string;
    notes: string | null;
    now: Date;
  },
): Promise<UnitRecord> {
  const row = await db.insertInto("units").values({
    id: values.id,
    product_id: values.productId,
    serial_number: values.serialNumber,
    status: values.status,
    condition: values.condition,
    notes: values.notes,
    created_at: values.now,
    updated_at: values.now,
  }).returning(unitColumns).executeTakeFirstOrThrow();
  return toUnit(row);
}

export async function updateUnit(
  db: Db,
  id: string,
  changes: {
    serialNumber?: string | null;
    status?: string;
    condition?: string;
    notes?: string | null;
  },
  now: Date,
): Promise<UnitRecord | undefined> {
  const row = await db.updateTable("units").set({
    ...(changes.serialNumber !== undefined ? { serial_number: changes.serialNumber } : {}),
    ...(changes.status !== undefined ? { status: changes.status } : {}),
    ...(changes.condition !== undefined ? { condition: changes.condition } : {}),
    ...(changes.notes !== undefined ? { notes: changes.notes } : {}),
    updated_at: now,
  }).where("id", "=", id).where("deleted_at", "is", null)
    .returning(unitColumns).executeTakeFirst();
  return row && toUnit(row);
}

export function softDeleteUnit(db: Db, id: string, now: Date): Promise<boolean> {
  return softDeleteById(db, "units", id, now);
}

// ================================================================ stock receipts

export interface StockReceiptRecord {
  id: string;
  productId: string;
  supplierId: string;
  quantity: number;
  costPerUnit: string;
  totalCost: string;
  invoiceNumber: string | null;
  stockIncremented: boolean;
  receivedAt: string;
  createdBy: string | null;
  createdAt: string;
  product: { id: string; name: string; sku: string; qtyOnHand: number };
  supplier: { id: string; name: string };
}

function receiptQuery(db: Db) {
  return db.selectFrom("stock_receipts as r")
    .innerJoin("products as p", "p.id", "r.product_id")
    .innerJoin("suppliers as s", "s.id", "r.supplier_id")
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
    ]);
}

type ReceiptRow = Awaited<ReturnType<ReturnType<typeof receiptQuery>["executeTakeFirstOrThrow"]>>;

function toReceipt(row: ReceiptRow): StockReceiptRecord {
  return {
    id: row.id,
    productId: row.product_id,
    supplierId: row.supplier_id,
    quantity: row.quantity,
    costPerUnit: row.cost_per_unit,
    totalCost: fromCents(toCents(row.cost_per_unit) * row.quantity),
    invoiceNumber: row.invoice_number,
    stockIncremented: row.stock_incremented,
    receivedAt: isoString(row.received_at),
    createdBy: row.created_by,
    createdAt: isoString(row.created_at),
    product: {
      id: row.product_id,
      name: row.product_name,
      sku: row.product_sku,
      qtyOnHand: row.product_qty_on_hand,
    },
    supplier: { id: row.supplier_id, name: row.supplier_name },
  };
}

export function listStockReceipts(
  db: Db,
  params: ListParams & { productId?: string; supplierId?: string },
) {
  let query = receiptQuery(db);
  if (params.q) {
    query = query.where("r.invoice_number", "ilike", likePattern(params.q));
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
  values: {
    id: string;
    productId: string;
    supplierId: string;
    quantity: number;
    costPerUnit: string;
    invoiceNumber: string | null;
    stockIncremented: boolean;
    receivedAt: Date;
    createdBy: string | null;
    now: Date;
  },
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

// ================================================================ consignment

export interface ConsignmentRecord {
  productId: string;
  consignorAccountId: string;
  commissionPercent: string;
  minimumPrice: string;
  agreementDate: string;
  createdAt: string;
  updatedAt: string;
}

const consignmentColumns = [
  "product_id",
  "consignor_account_id",
  "commission_percent",
  "minimum_price",
  "agreement_date",
  "created_at",
  "updated_at",
] as const;

function toConsignment(row: Selectable<ConsignmentTable>): ConsignmentRecord {
  return {
    productId: row.product_id,
    consignorAccountId: row.consignor_account_id,
    commissionPercent: row.commission_percent,
    minimumPrice: row.minimum_price,
    agreementDate: row.agreement_date,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

export async function findConsignment(
  db: Db,
  productId: string,
): Promise<ConsignmentRecord | undefined> {
  const row = await db.selectFrom("consignments").select(consignmentColumns)
    .where("product_id", "=", productId).executeTakeFirst();
  return row && toConsignment(row);
}

export async function upsertConsignment(
  db: Db,
  values: {
    productId: string;
    consignorAccountId: string;
    commissionPercent: string;
    minimumPrice: string;
    agreementDate: string;
    now: Date;
  },
): Promise<ConsignmentRecord> {
  const row = await db.insertInto("consignments").values({
    product_id: values.productId,
    consignor_account_id: values.consignorAccountId,
    commission_percent: values.commissionPercent,
    minimum_price: values.minimumPrice,
    agreement_date: values.agreementDate,
    created_at: values.now,
    updated_at: values.now,
  }).onConflict((oc) =>
    oc.column("product_id").doUpdateSet({
      consignor_account_id: values.consignorAccountId,
      commission_percent: values.commissionPercent,
      minimum_price: values.minimumPrice,
      agreement_date: values.agreementDate,
      updated_at: values.now,
    })
  ).returning(consignmentColumns).executeTakeFirstOrThrow();
  return toConsignment(row);
}

export async function deleteConsignment(db: Db, productId: string): Promise<boolean> {
  return touchedAny(
    await db.deleteFrom("consignments").where("product_id", "=", productId).executeTakeFirst(),
  );
}
