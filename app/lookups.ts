/**
 * The delete use case every lookup table shares (unit statuses, item conditions, id types):
 * unknown id → 404, built-in → 409 `built_in`, still referenced → 409 `in_use`.
 */
import { ConflictError, NotFoundError } from "../domain/errors.ts";
import { assertDeletableLookup } from "../domain/lookups.ts";
import type { Db } from "./db/database.ts";
import { isForeignKeyViolation, isRestrictViolation } from "./db/db_errors.ts";
import { withTransaction } from "./db/transaction.ts";

export interface LookupRowAccess {
  /** "unit status", "id type": used in messages. */
  label: string;
  /** What refers to the values ("units", "member identifiers"): used in the in_use message. */
  usedBy: string;
  find(db: Db, id: string): Promise<{ value: string; isBuiltIn: boolean } | undefined>;
  remove(db: Db, id: string): Promise<void>;
}

/**
 * The referencing rows' foreign key (ON DELETE RESTRICT or NO ACTION) refuses the delete of a
 * value in use. Writers of referencing rows hold a key-share lock on the value (or rely on the
 * foreign key check, which takes one), so a concurrent reference either makes the delete fail
 * (409 in_use) or fails itself — never a dangling value.
 */
export async function deleteLookupRow(db: Db, access: LookupRowAccess, id: string): Promise<void> {
  try {
    await withTransaction(db, async (trx) => {
      const row = await access.find(trx, id);
      if (!row) throw new NotFoundError("not_found", `No ${access.label} "${id}"`);
      assertDeletableLookup(row);
      await access.remove(trx, id);
    });
  } catch (error) {
    if (isRestrictViolation(error) || isForeignKeyViolation(error)) {
      throw new ConflictError("in_use", `This ${access.label} is still used by ${access.usedBy}`);
    }
    throw error;
  }
}
