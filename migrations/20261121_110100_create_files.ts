import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE files (
      id uuid PRIMARY KEY,
      entity_type text NOT NULL CHECK (entity_type IN
        ('user', 'member', 'member_identifier', 'product', 'rental_agreement', 'repair_ticket')),
      entity_id uuid NOT NULL,
      category text,
      content_type text NOT NULL,
      size bigint NOT NULL CHECK (size >= 0),
      path text NOT NULL UNIQUE,
      uploaded_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX files_entity_idx ON files (entity_type, entity_id, created_at)`
    .execute(db);

  // An identity document's scans are files; deleting a file clears the reference.
  await sql`
    ALTER TABLE member_identifiers
      ADD CONSTRAINT member_identifiers_front_file_fkey
        FOREIGN KEY (front_file_id) REFERENCES files (id) ON DELETE SET NULL,
      ADD CONSTRAINT member_identifiers_back_file_fkey
        FOREIGN KEY (back_file_id) REFERENCES files (id) ON DELETE SET NULL`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE member_identifiers
      DROP CONSTRAINT IF EXISTS member_identifiers_front_file_fkey,
      DROP CONSTRAINT IF EXISTS member_identifiers_back_file_fkey`.execute(db);
  await db.schema.dropTable("files").ifExists().execute();
}
