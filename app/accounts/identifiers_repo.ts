/** SQL of member identifiers (identity documents) of members of live accounts. */
import type { Selectable, Transaction } from "kysely";
import type { Database, Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { deleteById, isoString } from "../db/rows.ts";
import type { ListParams } from "../schemas.ts";
import type { MemberIdentifierTable } from "./accounts_tables.ts";
import { pickColumns } from "./_columns.ts";

export interface IdentifierRecord {
  id: string;
  memberId: string;
  idType: string;
  idNumber: string;
  issuingState: string | null;
  issuedDate: string | null;
  expiresDate: string | null;
  frontFileId: string | null;
  backFileId: string | null;
  createdAt: string;
  updatedAt: string;
}

const identifierColumns = [
  "i.id",
  "i.member_id",
  "i.id_type",
  "i.id_number",
  "i.issuing_state",
  "i.issued_date",
  "i.expires_date",
  "i.front_file_id",
  "i.back_file_id",
  "i.created_at",
  "i.updated_at",
] as const;

function toIdentifier(row: Selectable<MemberIdentifierTable>): IdentifierRecord {
  return {
    id: row.id,
    memberId: row.member_id,
    idType: row.id_type,
    idNumber: row.id_number,
    issuingState: row.issuing_state,
    issuedDate: row.issued_date,
    expiresDate: row.expires_date,
    frontFileId: row.front_file_id,
    backFileId: row.back_file_id,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

/** Identifiers of members of live accounts. */
function identifierQuery(db: Db) {
  return db.selectFrom("member_identifiers as i")
    .innerJoin("members as m", "m.id", "i.member_id")
    .innerJoin("accounts as a", "a.id", "m.account_id")
    .where("a.deleted_at", "is", null)
    .select(identifierColumns);
}

export async function findIdentifier(db: Db, id: string): Promise<IdentifierRecord | undefined> {
  const row = await identifierQuery(db).where("i.id", "=", id).executeTakeFirst();
  return row && toIdentifier(row);
}

/**
 * The identifier, locked FOR UPDATE until the transaction ends (undefined when there is none):
 * the one lock of identifier rows, held by the use cases that check an identifier and then
 * update or delete it.
 */
export async function lockIdentifier(
  trx: Transaction<Database>,
  id: string,
): Promise<IdentifierRecord | undefined> {
  const row = await identifierQuery(trx).where("i.id", "=", id).forUpdate("i")
    .executeTakeFirst();
  return row && toIdentifier(row);
}

export function listIdentifiers(db: Db, memberId: string, params: ListParams) {
  return paginate(identifierQuery(db).where("i.member_id", "=", memberId), params, {
    sortColumns: { idType: "i.id_type", createdAt: "i.created_at" },
    tieBreaker: "i.id",
    map: toIdentifier,
  });
}

export async function listIdentifierIdsOfMember(db: Db, memberId: string): Promise<string[]> {
  const rows = await db.selectFrom("member_identifiers").select("id")
    .where("member_id", "=", memberId).execute();
  return rows.map((r) => r.id);
}

export interface IdentifierChanges {
  idType?: string;
  idNumber?: string;
  issuingState?: string | null;
  issuedDate?: string | null;
  expiresDate?: string | null;
  frontFileId?: string | null;
  backFileId?: string | null;
}

const identifierColumnMap = {
  idType: "id_type",
  idNumber: "id_number",
  issuingState: "issuing_state",
  issuedDate: "issued_date",
  expiresDate: "expires_date",
  frontFileId: "front_file_id",
  backFileId: "back_file_id",
};

export async function insertIdentifier(
  db: Db,
  values: { id: string; memberId: string; now: Date } & IdentifierChanges,
): Promise<void> {
  await db.insertInto("member_identifiers").values({
    id: values.id,
    member_id: values.memberId,
    id_type: values.idType!,
    id_number: values.idNumber!,
    issuing_state: values.issuingState ?? null,
    issued_date: values.issuedDate ?? null,
    expires_date: values.expiresDate ?? null,
    front_file_id: values.frontFileId ?? null,
    back_file_id: values.backFileId ?? null,
    created_at: values.now,
    updated_at: values.now,
  }).execute();
}

export async function updateIdentifierRow(
  db: Db,
  id: string,
  changes: IdentifierChanges,
  now: Date,
): Promise<void> {
  await db.updateTable("member_identifiers").where("id", "=", id)
    .set({ ...pickColumns(changes, identifierColumnMap), updated_at: now }).execute();
}

export async function deleteIdentifierRow(db: Db, id: string): Promise<void> {
  await deleteById(db, "member_identifiers", id);
}
