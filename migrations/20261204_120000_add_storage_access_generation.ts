import { type Kysely, sql } from "kysely";

/**
 * `access_generation` on storage folders and files: a value of one shared sequence,
 * `storage_access_seq`, taken whenever what the row lets through narrows (a folder made
 * private, moved, a grant on it revoked; a file moved to another folder). A signed URL carries
 * the highest generation of its file and the file's folder chain at signing, under its HMAC;
 * on use that number must still be the chain's highest, so such a change anywhere up the chain
 * revokes the URLs signed before it (app/storage/storage_files.ts). One sequence for both
 * tables makes every new value larger than any earlier one, so a change always raises the
 * highest. Existing rows start at 0 (links signed before this migration carry no generation
 * and stop working).
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE SEQUENCE storage_access_seq AS integer`.execute(db);
  await sql`ALTER TABLE storage_folders ADD COLUMN access_generation integer NOT NULL DEFAULT 0`
    .execute(db);
  await sql`ALTER TABLE storage_files ADD COLUMN access_generation integer NOT NULL DEFAULT 0`
    .execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE storage_files DROP COLUMN IF EXISTS access_generation`.execute(db);
  await sql`ALTER TABLE storage_folders DROP COLUMN IF EXISTS access_generation`.execute(db);
  await sql`DROP SEQUENCE IF EXISTS storage_access_seq`.execute(db);
}
