import { type Kysely, sql } from "kysely";

/**
 * The backups written (`ops backup`, `GET /v1/backup`), for `ops status`: when, how big, where
 * (a path on the machine that wrote it), and what it held. Restores keep the archive's rows.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE backup_runs (
      id uuid PRIMARY KEY,
      finished_at timestamptz NOT NULL,
      location text NOT NULL,
      bytes bigint NOT NULL CHECK (bytes >= 0),
      tables integer NOT NULL,
      rows bigint NOT NULL,
      files integer NOT NULL,
      seconds numeric(10, 2) NOT NULL,
      schema_version text NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX backup_runs_finished_at_idx ON backup_runs (finished_at DESC)`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS backup_runs`.execute(db);
}
