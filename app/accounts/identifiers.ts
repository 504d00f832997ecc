/** Use cases of member identifiers (identity documents). */
import { InvalidReferenceError, NotFoundError, ValidationError } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { ListParams } from "../schemas.ts";
import { deleteFilesOf } from "../files/files_repo.ts";
import { removeStoredFiles } from "../files/files.ts";
import {
  deleteIdentifierRow,
  findIdentifier,
  findMemberAccountId,
  type IdentifierChanges,
  type IdentifierRecord,
  idTypeExists,
  insertIdentifier,
  isIdentifierFileOfMember,
  listIdentifiers as listIdentifierRows,
  updateIdentifierRow,
} from "./accounts_repo.ts";

async function requireMember(db: Db, memberId: string): Promise<void> {
  if (!(await findMemberAccountId(db, memberId))) {
    throw new NotFoundError(`Member "${memberId}" does not exist`);
  }
}

/**
 * Checks references of an identifier: the id type is a lookup value, and each scan is a file
 * of entityType member_identifier that belongs to an identifier of the same member.
 */
async function checkReferences(
  db: Db,
  memberId: string,
  values: IdentifierChanges,
  merged: { issuedDate: string | null; expiresDate: string | null },
): Promise<void> {
  if (values.idType !== undefined && !(await idTypeExists(db, values.idType))) {
    throw new InvalidReferenceError(
      "idType",
      `Unknown id type "${values.idType}" (see GET /lookups/id-types)`,
    );
  }
  for (const field of ["frontFileId", "backFileId"] as const) {
    const fileId = values[field];
    if (fileId && !(await isIdentifierFileOfMember(db, fileId, memberId))) {
      throw new InvalidReferenceError(
        field,
        `File "${fileId}" is not a member_identifier file of this member`,
      );
    }
  }
  if (merged.issuedDate && merged.expiresDate && merged.expiresDate < merged.issuedDate) {
    throw new ValidationError([
      { path: "expiresDate", message: "The expiry date is before the issue date" },
    ]);
  }
}

export async function listIdentifiers(deps: AppDeps, memberId: string, params: ListParams) {
  await requireMember(deps.db, memberId);
  return listIdentifierRows(deps.db, memberId, params);
}

export async function createIdentifier(
  deps: AppDeps,
  memberId: string,
  input: IdentifierChanges & { idType: string; idNumber: string },
): Promise<IdentifierRecord> {
  const id = deps.ids.uuid();
  await withTransaction(deps.db, async (trx) => {
    await requireMember(trx, memberId);
    await checkReferences(trx, memberId, input, {
      issuedDate: input.issuedDate ?? null,
      expiresDate: input.expiresDate ?? null,
    });
    await insertIdentifier(trx, { ...input, id, memberId, now: deps.clock.now() });
  });
  return (await findIdentifier(deps.db, id))!;
}

export async function updateIdentifier(
  deps: AppDeps,
  id: string,
  changes: IdentifierChanges,
): Promise<IdentifierRecord> {
  await withTransaction(deps.db, async (trx) => {
    const current = await findIdentifier(trx, id, { lock: true });
    if (!current) throw new NotFoundError(`Identifier "${id}" does not exist`);
    await checkReferences(trx, current.memberId, changes, {
      issuedDate: changes.issuedDate === undefined ? current.issuedDate : changes.issuedDate,
      expiresDate: changes.expiresDate === undefined ? current.expiresDate : changes.expiresDate,
    });
    await updateIdentifierRow(trx, id, changes, deps.clock.now());
  });
  return (await findIdentifier(deps.db, id))!;
}

/** Deletes the identifier together with its scans (file rows and stored bytes). */
export async function deleteIdentifier(deps: AppDeps, id: string): Promise<void> {
  const paths = await withTransaction(deps.db, async (trx) => {
    const current = await findIdentifier(trx, id, { lock: true });
    if (!current) throw new NotFoundError(`Identifier "${id}" does not exist`);
    const removed = await deleteFilesOf(trx, "member_identifier", [id]);
    await deleteIdentifierRow(trx, id);
    return removed;
  });
  await removeStoredFiles(deps, paths);
}
