/** SQL of tax exemptions (of live accounts). */
import { type Selectable, sql, type Transaction } from "kysely";
import type { TaxExemptionStatus } from "../../domain/accounts/tax_exemption_status.ts";
import type { Database, Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { deleteById, isoString, isoStringOrNull } from "../db/rows.ts";
import type { ListParams } from "../schemas.ts";
import type { TaxExemptionTable } from "./accounts_tables.ts";
import { pickColumns } from "./_columns.ts";

export interface TaxExemptionRecord {
  id: string;
  accountId: string;
  certificateNumber: string;
  issuingState: string | null;
  reason: string | null;
  expiresDate: string | null;
  status: TaxExemptionStatus;
  approvedAt: string | null;
  approvedBy: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
  revokeReason: string | null;
  createdAt: string;
  updatedAt: string;
}

const taxExemptionColumns = [
  "t.id",
  "t.account_id",
  "t.certificate_number",
  "t.issuing_state",
  "t.reason",
  "t.expires_date",
  "t.status",
  "t.approved_at",
  "t.approved_by",
  "t.revoked_at",
  "t.revoked_by",
  "t.revoke_reason",
  "t.created_at",
  "t.updated_at",
] as const;

function toTaxExemption(row: Selectable<TaxExemptionTable>): TaxExemptionRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    certificateNumber: row.certificate_number,
    issuingState: row.issuing_state,
    reason: row.reason,
    expiresDate: row.expires_date,
    status: row.status as TaxExemptionStatus,
    approvedAt: isoStringOrNull(row.approved_at),
    approvedBy: row.approved_by,
    revokedAt: isoStringOrNull(row.revoked_at),
    revokedBy: row.revoked_by,
    revokeReason: row.revoke_reason,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

function taxExemptionQuery(db: Db) {
  return db.selectFrom("tax_exemptions as t")
    .innerJoin("accounts as a", "a.id", "t.account_id")
    .where("a.deleted_at", "is", null)
    .select(taxExemptionColumns);
}

export async function findTaxExemption(
  db: Db,
  id: string,
): Promise<TaxExemptionRecord | undefined> {
  const row = await taxExemptionQuery(db).where("t.id", "=", id).executeTakeFirst();
  return row && toTaxExemption(row);
}

/**
 * The exemption, locked FOR UPDATE until the transaction ends (undefined when there is none):
 * the one lock of exemption rows, held by every status move and edit, so two approvals (or an
 * approval and a revocation) of one exemption queue and the second sees the first's result.
 */
export async function lockTaxExemption(
  trx: Transaction<Database>,
  id: string,
): Promise<TaxExemptionRecord | undefined> {
  const row = await taxExemptionQuery(trx).where("t.id", "=", id).forUpdate("t")
    .executeTakeFirst();
  return row && toTaxExemption(row);
}

export function listTaxExemptions(
  db: Db,
  accountId: string,
  params: ListParams & { status?: string },
) {
  let query = taxExemptionQuery(db).where("t.account_id", "=", accountId);
  if (params.status) query = query.where("t.status", "=", params.status);
  return paginate(query, params, {
    sortColumns: {
      certificateNumber: "t.certificate_number",
      status: "t.status",
      createdAt: "t.created_at",
    },
    tieBreaker: "t.id",
    map: toTaxExemption,
  });
}

/**
 * Certificate, status and expiry of every exemption of the account (what decides whether one
 * is active), the most recently approved first.
 */
export async function listTaxExemptionTerms(
  db: Db,
  accountId: string,
): Promise<
  Array<{ certificateNumber: string; status: TaxExemptionStatus; expiresDate: string | null }>
> {
  const rows = await db.selectFrom("tax_exemptions")
    .select(["certificate_number", "status", "expires_date"])
    .where("account_id", "=", accountId)
    .orderBy(sql`approved_at DESC NULLS LAST`).orderBy("id").execute();
  return rows.map((r) => ({
    certificateNumber: r.certificate_number,
    status: r.status as TaxExemptionStatus,
    expiresDate: r.expires_date,
  }));
}

export interface TaxExemptionChanges {
  certificateNumber?: string;
  issuingState?: string | null;
  reason?: string | null;
  expiresDate?: string | null;
  status?: TaxExemptionStatus;
  approvedAt?: Date | null;
  approvedBy?: string | null;
  revokedAt?: Date;
  revokedBy?: string;
  revokeReason?: string;
}

const taxExemptionColumnMap = {
  certificateNumber: "certificate_number",
  issuingState: "issuing_state",
  reason: "reason",
  expiresDate: "expires_date",
  status: "status",
  approvedAt: "approved_at",
  approvedBy: "approved_by",
  revokedAt: "revoked_at",
  revokedBy: "revoked_by",
  revokeReason: "revoke_reason",
};

export async function insertTaxExemption(
  db: Db,
  values:
    & Pick<
      TaxExemptionRecord,
      "id" | "accountId" | "certificateNumber" | "issuingState" | "reason" | "expiresDate"
    >
    & { now: Date },
): Promise<void> {
  await db.insertInto("tax_exemptions").values({
    id: values.id,
    account_id: values.accountId,
    certificate_number: values.certificateNumber,
    issuing_state: values.issuingState,
    reason: values.reason,
    expires_date: values.expiresDate,
    status: "pending",
    created_at: values.now,
    updated_at: values.now,
  }).execute();
}

export async function updateTaxExemptionRow(
  db: Db,
  id: string,
  changes: TaxExemptionChanges,
  now: Date,
): Promise<void> {
  await db.updateTable("tax_exemptions").where("id", "=", id)
    .set({ ...pickColumns(changes, taxExemptionColumnMap), updated_at: now }).execute();
}

export async function deleteTaxExemptionRow(db: Db, id: string): Promise<void> {
  await deleteById(db, "tax_exemptions", id);
}
