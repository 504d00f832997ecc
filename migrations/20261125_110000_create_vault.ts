import { type Kysely, sql } from "kysely";

// The secrets vault (API §12). Nothing here can be decrypted without the master password:
// `vault_config` holds the KDF settings and the data key wrapped by the key derived from the
// master password; entries hold their secret and notes sealed with the data key (text
// `v1.<iv>.<ciphertext>`). Names, usernames and URLs stay readable for search.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // One row (id = 1) once the vault is initialized. `data_key_id` names the data key (it
  // stays when the master password changes): a process holding another key writes nothing.
  await sql`
    CREATE TABLE vault_config (
      id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
      data_key_id uuid NOT NULL,
      kdf jsonb NOT NULL,
      wrapped_key text NOT NULL,
      initialized_at timestamptz NOT NULL,
      initialized_by uuid REFERENCES users (id),
      password_changed_at timestamptz NOT NULL
    )`.execute(db);

  // Wrong master passwords per user (unlock and change-master-password share the counter).
  await sql`
    CREATE TABLE vault_unlock_failures (
      user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      failures integer NOT NULL DEFAULT 0,
      window_started_at timestamptz NOT NULL
    )`.execute(db);

  await sql`
    CREATE TABLE vault_categories (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      description text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX vault_categories_name_key ON vault_categories (lower(name))`
    .execute(db);
  await sql`CREATE INDEX vault_categories_name_trgm ON vault_categories
    USING gin (lower(name) gin_trgm_ops)`.execute(db);

  // A level granted on a category to a role or to a user (exactly one of them), once each.
  await sql`
    CREATE TABLE vault_category_permissions (
      id uuid PRIMARY KEY,
      category_id uuid NOT NULL REFERENCES vault_categories (id) ON DELETE CASCADE,
      role_id uuid REFERENCES roles (id) ON DELETE CASCADE,
      user_id uuid REFERENCES users (id) ON DELETE CASCADE,
      level text NOT NULL CHECK (level IN ('view', 'edit', 'admin')),
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT vault_category_permissions_one_subject CHECK ((role_id IS NULL) <> (user_id IS NULL))
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX vault_category_permissions_role_key
    ON vault_category_permissions (category_id, role_id) WHERE role_id IS NOT NULL`.execute(db);
  await sql`CREATE UNIQUE INDEX vault_category_permissions_user_key
    ON vault_category_permissions (category_id, user_id) WHERE user_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX vault_category_permissions_role_idx ON vault_category_permissions (role_id)`
    .execute(db);
  await sql`CREATE INDEX vault_category_permissions_user_idx ON vault_category_permissions (user_id)`
    .execute(db);

  // Entries: a category with entries cannot be deleted (RESTRICT → 409 in_use).
  await sql`
    CREATE TABLE vault_entries (
      id uuid PRIMARY KEY,
      category_id uuid NOT NULL REFERENCES vault_categories (id) ON DELETE RESTRICT,
      name text NOT NULL,
      username text,
      url text,
      secret_sealed text NOT NULL,
      notes_sealed text,
      created_by uuid REFERENCES users (id),
      updated_by uuid REFERENCES users (id),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      search text GENERATED ALWAYS AS (
        lower(name || ' ' || coalesce(username, '') || ' ' || coalesce(url, ''))
      ) STORED
    )`.execute(db);
  await sql`CREATE INDEX vault_entries_search_trgm ON vault_entries USING gin (search gin_trgm_ops)`
    .execute(db);
  await sql`CREATE INDEX vault_entries_category_idx ON vault_entries (category_id, name, id)`
    .execute(db);
  await sql`CREATE INDEX vault_entries_name_idx ON vault_entries (name, id)`.execute(db);
  await sql`CREATE INDEX vault_entries_created_at_idx ON vault_entries (created_at, id)`
    .execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (
    const table of [
      "vault_entries",
      "vault_category_permissions",
      "vault_categories",
      "vault_unlock_failures",
      "vault_config",
    ]
  ) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
