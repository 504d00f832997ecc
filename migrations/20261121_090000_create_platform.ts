import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`CREATE EXTENSION IF NOT EXISTS btree_gist`.execute(db);

  await db.schema.createTable("store")
    .addColumn("id", "smallint", (c) => c.primaryKey().defaultTo(1).check(sql`id = 1`))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("timezone", "text", (c) => c.notNull())
    .addColumn("address", "jsonb")
    .addColumn("phone", "text")
    .addColumn("email", "text")
    .addColumn("logo_file_id", "uuid")
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema.createTable("locations")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("address", "jsonb")
    .addColumn("phone", "text")
    .addColumn("is_active", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema.createTable("app_config")
    .addColumn("id", "smallint", (c) => c.primaryKey().defaultTo(1).check(sql`id = 1`))
    .addColumn("settings", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema.createTable("modules")
    .addColumn("slug", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("licensed", "boolean", (c) => c.notNull())
    .addColumn("enabled", "boolean", (c) => c.notNull())
    .addColumn("core", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema.createTable("idempotency_keys")
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("request_hash", "text", (c) => c.notNull())
    .addColumn("status_code", "integer")
    .addColumn("response_body", "text")
    .addColumn("response_content_type", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("idempotency_keys_pkey", ["scope", "key"])
    .execute();
  await db.schema.createIndex("idempotency_keys_created_at_idx").on("idempotency_keys")
    .column("created_at").execute();

  await db.schema.createTable("users")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("password_hash", "text")
    .addColumn("first_name", "text", (c) => c.notNull())
    .addColumn("last_name", "text", (c) => c.notNull())
    .addColumn(
      "employee_number",
      "text",
      (c) => c.notNull().unique().check(sql`employee_number ~ '^[0-9]{4}$'`),
    )
    .addColumn("is_active", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("pin_hash", "text")
    .addColumn("token_version", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("pos_token_version", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email))`.execute(db);

  await db.schema.createTable("roles")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("is_system", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema.createTable("role_permissions")
    .addColumn("role_id", "uuid", (c) => c.notNull().references("roles.id").onDelete("cascade"))
    .addColumn("permission", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("role_permissions_pkey", ["role_id", "permission"])
    .execute();

  await db.schema.createTable("user_roles")
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("role_id", "uuid", (c) => c.notNull().references("roles.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("user_roles_pkey", ["user_id", "role_id"])
    .execute();
  await db.schema.createIndex("user_roles_role_id_idx").on("user_roles").column("role_id")
    .execute();
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (
    const table of [
      "user_roles",
      "role_permissions",
      "roles",
      "users",
      "idempotency_keys",
      "modules",
      "app_config",
      "locations",
      "store",
    ]
  ) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
