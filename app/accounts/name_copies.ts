/**
 * Features that keep a copy of account or member names on their own rows, for their list's `q`
 * (rentals, enrollments: migration 20261203_100000_rental_enrollment_name_search), told by the
 * use cases that rename one, in the renaming transaction (after the row lock its UPDATE took).
 * Owned by the accounts feature and filled in by `createDeps` (`AppDeps.nameCopies`), as every
 * extension point.
 *
 * A feature making a row with a copy locks the account (`lockAccount`) or member (`lockMember`)
 * before it reads the name: a rename under way then commits first and the copy reads the new
 * name, or waits for the new row and rewrites its copy too.
 */
import type { Transaction } from "kysely";
import type { Database } from "../db/database.ts";

export interface NameCopies {
  /** `accountIds` were renamed: rewrite the copies of their names. */
  accountsRenamed(trx: Transaction<Database>, accountIds: readonly string[]): Promise<void>;
  /** `memberIds` had their first or last name changed: rewrite the copies of their names. */
  membersRenamed(trx: Transaction<Database>, memberIds: readonly string[]): Promise<void>;
}

/** Every keeper in `keepers` told, in turn. */
export function allNameCopies(keepers: readonly NameCopies[]): NameCopies {
  return {
    async accountsRenamed(trx, accountIds) {
      for (const keeper of keepers) await keeper.accountsRenamed(trx, accountIds);
    },
    async membersRenamed(trx, memberIds) {
      for (const keeper of keepers) await keeper.membersRenamed(trx, memberIds);
    },
  };
}
