/** SQL of stored payment methods (of live accounts). */
import type { Selectable } from "kysely";
import type { Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { deleteById, isoString } from "../db/rows.ts";
import type { ListParams } from "../schemas.ts";
import type { PaymentMethodTable } from "./accounts_tables.ts";
import { pickColumns } from "./_columns.ts";

export interface PaymentMethodRecord {
  id: string;
  accountId: string;
  type: "card" | "ach" | "check" | "other";
  brand: string | null;
  last4: string | null;
  expMonth: number | null;
  expYear: number | null;
  processor: string | null;
  processorPaymentMethodId: string | null;
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}

const paymentMethodColumns = [
  "p.id",
  "p.account_id",
  "p.type",
  "p.brand",
  "p.last4",
  "p.exp_month",
  "p.exp_year",
  "p.processor",
  "p.processor_payment_method_id",
  "p.is_default",
  "p.created_at",
  "p.updated_at",
] as const;

function toPaymentMethod(row: Selectable<PaymentMethodTable>): PaymentMethodRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    type: row.type as PaymentMethodRecord["type"],
    brand: row.brand,
    last4: row.last4,
    expMonth: row.exp_month,
    expYear: row.exp_year,
    processor: row.processor,
    processorPaymentMethodId: row.processor_payment_method_id,
    isDefault: row.is_default,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

function paymentMethodQuery(db: Db) {
  return db.selectFrom("payment_methods as p")
    .innerJoin("accounts as a", "a.id", "p.account_id")
    .where("a.deleted_at", "is", null)
    .select(paymentMethodColumns);
}

export async function findPaymentMethod(
  db: Db,
  id: string,
): Promise<PaymentMethodRecord | undefined> {
  const row = await paymentMethodQuery(db).where("p.id", "=", id).executeTakeFirst();
  return row && toPaymentMethod(row);
}

export function listPaymentMethods(db: Db, accountId: string, params: ListParams) {
  return paginate(paymentMethodQuery(db).where("p.account_id", "=", accountId), params, {
    sortColumns: { type: "p.type", createdAt: "p.created_at" },
    tieBreaker: "p.id",
    map: toPaymentMethod,
  });
}

export interface PaymentMethodChanges {
  type?: string;
  brand?: string | null;
  last4?: string | null;
  expMonth?: number | null;
  expYear?: number | null;
  processor?: string | null;
  processorPaymentMethodId?: string | null;
  isDefault?: boolean;
}

const paymentMethodColumnMap = {
  type: "type",
  brand: "brand",
  last4: "last4",
  expMonth: "exp_month",
  expYear: "exp_year",
  processor: "processor",
  processorPaymentMethodId: "processor_payment_method_id",
  isDefault: "is_default",
};

export async function insertPaymentMethod(
  db: Db,
  values: { id: string; accountId: string; now: Date } & PaymentMethodChanges,
): Promise<void> {
  await db.insertInto("payment_methods").values({
    id: values.id,
    account_id: values.accountId,
    type: values.type!,
    brand: values.brand ?? null,
    last4: values.last4 ?? null,
    exp_month: values.expMonth ?? null,
    exp_year: values.expYear ?? null,
    processor: values.processor ?? null,
    processor_payment_method_id: values.processorPaymentMethodId ?? null,
    is_default: values.isDefault ?? false,
    created_at: values.now,
    updated_at: values.now,
  }).execute();
}

export async function updatePaymentMethodRow(
  db: Db,
  id: string,
  changes: PaymentMethodChanges,
  now: Date,
): Promise<void> {
  await db.updateTable("payment_methods").where("id", "=", id)
    .set({ ...pickColumns(changes, paymentMethodColumnMap), updated_at: now }).execute();
}

/** Clears the account's default payment method (before another one becomes the default). */
export async function clearDefaultPaymentMethod(
  db: Db,
  accountId: string,
  now: Date,
): Promise<void> {
  await db.updateTable("payment_methods").where("account_id", "=", accountId)
    .where("is_default", "=", true).set({ is_default: false, updated_at: now }).execute();
}

export async function deletePaymentMethodRow(db: Db, id: string): Promise<void> {
  await deleteById(db, "payment_methods", id);
}
