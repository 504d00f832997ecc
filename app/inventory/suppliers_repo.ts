/** SQL of suppliers (soft-deleted; `search_text` covers name, contact, email, account). */
import { type Selectable, type Transaction } from "kysely";
import type { Database, Db } from "../db/database.ts";
import type { AddressJson } from "../db/column_types.ts";
import { nullableJsonb } from "../db/jsonb.ts";
import { paginate } from "../db/pagination.ts";
import { isoString, softDeleteById } from "../db/rows.ts";
import { containsText } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { SupplierTable } from "./inventory_tables.ts";

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
  if (params.q) query = query.where(containsText("search_text", params.q));
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

function liveSupplier(db: Db, id: string) {
  return db.selectFrom("suppliers").select(supplierColumns)
    .where("id", "=", id).where("deleted_at", "is", null);
}

/** The live supplier (not soft-deleted), without a lock. */
export async function findSupplier(db: Db, id: string): Promise<SupplierRecord | undefined> {
  const row = await liveSupplier(db, id).executeTakeFirst();
  return row && toSupplier(row);
}

/**
 * The live supplier, locked FOR SHARE until the transaction ends: the one lock of a supplier
 * row. A stock receipt or product link that points at the supplier holds it, so the supplier
 * cannot be soft-deleted (an UPDATE, which waits) before that row commits, while receipts
 * from one supplier still run in parallel. The supplier's own changes are single statements.
 */
export async function lockSupplier(
  trx: Transaction<Database>,
  id: string,
): Promise<SupplierRecord | undefined> {
  const row = await liveSupplier(trx, id).forShare().executeTakeFirst();
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
