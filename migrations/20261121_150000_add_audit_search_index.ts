import { type Kysely, sql } from "kysely";

/**
 * `GET /audit-log?q=` searches action, actor email and entity type case-insensitively: a
 * trigram GIN index on exactly the searched expression (app/audit/audit_repo.ts) serves the
 * ILIKE, since the log grows without bound.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE INDEX audit_log_search_trgm_idx ON audit_log USING gin
      ((action || ' ' || coalesce(actor_email, '') || ' ' || coalesce(entity_type, ''))
        gin_trgm_ops)`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS audit_log_search_trgm_idx`.execute(db);
}
