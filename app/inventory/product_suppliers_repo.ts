/** SQL of product–supplier links, read joined with their (live) supplier. */
import type { Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { deleteById, isoString } from "../db/rows.ts";
import { containsText } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";

/** A link with the supplier's contact details (`productSupplierJson` nests them). */
export interface ProductSupplierRecord {
  id: string;
  productId: string;
  supplierId: string;
  supplierSku: string | null;
  cost: string | null;
  isPreferred: boolean;
  supplierName: string;
  supplierContactName: string | null;
  supplierEmail: string | null;
  supplierPhone: string | null;
  supplierAccountNumber: string | null;
  supplierPaymentTerms: string | null;
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
    supplierName: row.supplier_name,
    supplierContactName: row.supplier_contact_name,
    supplierEmail: row.supplier_email,
    supplierPhone: row.supplier_phone,
    supplierAccountNumber: row.supplier_account_number,
    supplierPaymentTerms: row.supplier_payment_terms,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

export function listProductSuppliers(db: Db, productId: string, params: ListParams) {
  let query = linkQuery(db).where("ps.product_id", "=", productId);
  if (params.q) query = query.where(containsText("s.search_text", params.q));
  return paginate(query, params, {
    sortColumns: { supplierName: "s.name", cost: "ps.cost", createdAt: "ps.created_at" },
    nullableSorts: ["cost"],
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
  values:
    & Pick<
      ProductSupplierRecord,
      "id" | "productId" | "supplierId" | "supplierSku" | "cost" | "isPreferred"
    >
    & { now: Date },
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
