/** SQL of consignment terms: at most one row per product, keyed by `product_id`. */
import type { Selectable } from "kysely";
import type { Db } from "../db/database.ts";
import { isoString, touchedAny } from "../db/rows.ts";
import type { ConsignmentTable } from "./inventory_tables.ts";

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

/** Whether there were terms to delete. */
export async function deleteConsignment(db: Db, productId: string): Promise<boolean> {
  return touchedAny(
    await db.deleteFrom("consignments").where("product_id", "=", productId).executeTakeFirst(),
  );
}
