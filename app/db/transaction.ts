import type { Kysely, Transaction } from "kysely";
import type { Database, Db } from "./database.ts";

/**
 * Runs `work` in a transaction; when `db` already is a transaction, joins it instead of
 * nesting, so use cases compose (one use case may call another inside its transaction).
 */
export function withTransaction<T>(
  db: Db,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<Database>);
  return (db as Kysely<Database>).transaction().execute(work);
}
