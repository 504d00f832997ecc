import { type Kysely, sql } from "kysely";

/**
 * The drawer and daily reports count voids (API §8): a pending transaction voided at a register
 * counts in the session of that register open at the time (domain/pos/void_summary.ts). This
 * partial index finds a register's such voids by time; completed-then-voided ones are found
 * through their session (`transactions_session_idx`).
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE INDEX transactions_pending_void_idx ON transactions (register_id, voided_at)
      WHERE status = 'voided' AND drawer_session_id IS NULL AND register_id IS NOT NULL`
    .execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS transactions_pending_void_idx`.execute(db);
}
