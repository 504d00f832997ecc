import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Password reset tokens: only a SHA-256 hash of the token is stored; single use.
  await db.schema.createTable("password_reset_tokens")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("purpose", "text", (c) => c.notNull().check(sql`purpose IN ('email', 'admin')`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("used_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("password_reset_tokens_user_id_idx").on("password_reset_tokens")
    .column("user_id").execute();

  // Fixed-window counters (per client IP, per email): one atomic upsert-increment per hit.
  await db.schema.createTable("rate_limit_counters")
    .addColumn("bucket", "text", (c) => c.notNull())
    .addColumn("window_start", "timestamptz", (c) => c.notNull())
    .addColumn("hits", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("rate_limit_counters_pkey", ["bucket", "window_start"])
    .execute();
  await db.schema.createIndex("rate_limit_counters_window_start_idx").on("rate_limit_counters")
    .column("window_start").execute();

  // Wrong PINs per employee number (whether or not such a user exists).
  await db.schema.createTable("pin_login_failures")
    .addColumn("employee_number", "text", (c) => c.primaryKey())
    .addColumn("failures", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("first_failure_at", "timestamptz", (c) => c.notNull())
    .addColumn("locked_until", "timestamptz")
    .execute();

  // `q` on the users list searches email and names (case-insensitive, substring).
  await sql`CREATE INDEX users_search_trgm_idx ON users
    USING gin ((email || ' ' || first_name || ' ' || last_name) gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX roles_search_trgm_idx ON roles
    USING gin ((name || ' ' || slug) gin_trgm_ops)`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS roles_search_trgm_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS users_search_trgm_idx`.execute(db);
  for (const table of ["pin_login_failures", "rate_limit_counters", "password_reset_tokens"]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
