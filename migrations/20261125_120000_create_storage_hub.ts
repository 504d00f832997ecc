import { type Kysely, sql } from "kysely";

/**
 * The storage hub (API §11): a folder tree, role or user grants on folders, and files in
 * folders. Sibling folder names are unique case-insensitively, root folders included (NULLS NOT
 * DISTINCT); that index also serves listing a folder's children in name order and the parent
 * foreign key. A folder holding files cannot disappear under them (RESTRICT): deleting a
 * folder deletes its files' rows first, in the same transaction, to learn which bytes to remove.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE storage_folders (
      id uuid PRIMARY KEY,
      parent_id uuid REFERENCES storage_folders (id) ON DELETE CASCADE,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
      is_public boolean NOT NULL DEFAULT false,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT storage_folders_not_own_parent CHECK (parent_id <> id)
    )`.execute(db);
  await sql`
    CREATE UNIQUE INDEX storage_folders_sibling_name_key
      ON storage_folders (parent_id, lower(name)) NULLS NOT DISTINCT`.execute(db);

  await sql`
    CREATE TABLE storage_folder_permissions (
      id uuid PRIMARY KEY,
      folder_id uuid NOT NULL REFERENCES storage_folders (id) ON DELETE CASCADE,
      role_id uuid REFERENCES roles (id) ON DELETE CASCADE,
      user_id uuid REFERENCES users (id) ON DELETE CASCADE,
      level text NOT NULL CHECK (level IN ('traverse', 'view', 'edit', 'admin')),
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT storage_folder_permissions_one_grantee CHECK ((role_id IS NULL) <> (user_id IS NULL))
    )`.execute(db);
  // One grant per folder and grantee; both lead with folder_id for the access queries.
  await sql`
    CREATE UNIQUE INDEX storage_folder_permissions_role_key
      ON storage_folder_permissions (folder_id, role_id)`.execute(db);
  await sql`
    CREATE UNIQUE INDEX storage_folder_permissions_user_key
      ON storage_folder_permissions (folder_id, user_id)`.execute(db);
  await sql`
    CREATE INDEX storage_folder_permissions_role_idx ON storage_folder_permissions (role_id)
      WHERE role_id IS NOT NULL`.execute(db);
  await sql`
    CREATE INDEX storage_folder_permissions_user_idx ON storage_folder_permissions (user_id)
      WHERE user_id IS NOT NULL`.execute(db);

  await sql`
    CREATE TABLE storage_files (
      id uuid PRIMARY KEY,
      folder_id uuid NOT NULL REFERENCES storage_folders (id) ON DELETE RESTRICT,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
      content_type text NOT NULL,
      size bigint NOT NULL CHECK (size >= 0),
      path text NOT NULL UNIQUE,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX storage_files_folder_idx ON storage_files (folder_id, lower(name))`
    .execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("storage_files").ifExists().execute();
  await db.schema.dropTable("storage_folder_permissions").ifExists().execute();
  await db.schema.dropTable("storage_folders").ifExists().execute();
}
