/** Use cases of member identifiers (identity documents). */
import { InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import { assertIdentifierDates } from "../../domain/accounts/identifiers.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { ListParams } from "../schemas.ts";
import { findFile } from "../files/files_repo.ts";
import { deleteFilesOfRecords, removeStoredFiles } from "../files/files.ts";
import {
  deleteIdentifierRow,
  findIdentifier,
  type IdentifierChanges,
  type IdentifierRecord,
  insertIdentifier,
  listIdentifiers as listIdentifierRows,
  lockIdentifier,
  updateIdentifierRow,
} from "./identifiers_repo.ts";
import { idTypeExists } from "./id_types_repo.ts";
import { requireMember } from "./members.ts";

function identifierNotFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Identifier "${id}" does not exist`);
}

/** Whether `fileId` is a file of an identifier (entityType member_identifier) of `memberId`. */
async function isScanOfMember(db: Db, fileId: string, memberId: string): Promise<boolean> {
  const file = await findFile(db, fileId);
  if (file?.entityType !== "member_identifier") return false;
  return (await findIdentifier(db, file.entityId))?.memberId === memberId;
}

/**
 * Checks references of an identifier: the id type is a lookup value, and each scan is a file
 * of entityType member_identifier that belongs to an identifier of the same member (a
 * member's document scans cannot be linked to another member).
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
    if (fileId && !(await isScanOfMember(db, fileId, memberId))) {
      throw new InvalidReferenceError(
        field,
        `File "${fileId}" is not a member_identifier file of this member`,
      );
    }
  }
  assertIdentifierDates(merged);
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
    const current = await lockIdentifier(trx, id);
    if (!current) throw identifierNotFound(id);
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
    const current = await lockIdentifier(trx, id);
    if (!current) throw identifierNotFound(id);
    const removed = await deleteFilesOfRecords(trx, "member_identifier", [id]);
    await deleteIdentifierRow(trx, id);
    return removed;
  });
  await removeStoredFiles(deps, paths);
}
