/** SQL of payment-processor links (of live accounts). */
import type { Selectable } from "kysely";
import type { Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { deleteById, isoString } from "../db/rows.ts";
import type { ListParams } from "../schemas.ts";
import type { ProcessorLinkTable } from "./accounts_tables.ts";
import { pickColumns } from "./_columns.ts";

export interface ProcessorLinkRecord {
  id: string;
  accountId: string;
  processor: string;
  externalCustomerId: string;
  createdAt: string;
  updatedAt: string;
}

function toProcessorLink(row: Selectable<ProcessorLinkTable>): ProcessorLinkRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    processor: row.processor,
    externalCustomerId: row.external_customer_id,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

function processorLinkQuery(db: Db) {
  return db.selectFrom("processor_links as l")
    .innerJoin("accounts as a", "a.id", "l.account_id")
    .where("a.deleted_at", "is", null)
    .select([
      "l.id",
      "l.account_id",
      "l.processor",
      "l.external_customer_id",
      "l.created_at",
      "l.updated_at",
    ]);
}

export async function findProcessorLink(
  db: Db,
  id: string,
): Promise<ProcessorLinkRecord | undefined> {
  const row = await processorLinkQuery(db).where("l.id", "=", id).executeTakeFirst();
  return row && toProcessorLink(row);
}

export function listProcessorLinks(db: Db, accountId: string, params: ListParams) {
  return paginate(processorLinkQuery(db).where("l.account_id", "=", accountId), params, {
    sortColumns: { processor: "l.processor", createdAt: "l.created_at" },
    tieBreaker: "l.id",
    map: toProcessorLink,
  });
}

export async function insertProcessorLink(
  db: Db,
  values: {
    id: string;
    accountId: string;
    processor: string;
    externalCustomerId: string;
    now: Date;
  },
): Promise<void> {
  await db.insertInto("processor_links").values({
    id: values.id,
    account_id: values.accountId,
    processor: values.processor,
    external_customer_id: values.externalCustomerId,
    created_at: values.now,
    updated_at: values.now,
  }).execute();
}

export interface ProcessorLinkChanges {
  processor?: string;
  externalCustomerId?: string;
}

export async function updateProcessorLinkRow(
  db: Db,
  id: string,
  changes: ProcessorLinkChanges,
  now: Date,
): Promise<void> {
  await db.updateTable("processor_links").where("id", "=", id)
    .set({
      ...pickColumns(changes, {
        processor: "processor",
        externalCustomerId: "external_customer_id",
      }),
      updated_at: now,
    }).execute();
}

export async function deleteProcessorLinkRow(db: Db, id: string): Promise<void> {
  await deleteById(db, "processor_links", id);
}
