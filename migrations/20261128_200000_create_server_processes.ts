import { type Kysely, sql } from "kysely";

/**
 * The live server processes sharing a PostgreSQL database (app/platform/cluster.ts): each row
 * holds a process's ephemeral public key and its proof, and its heartbeat. Runtime state:
 * never backed up or restored. UNLOGGED: after a crash of PostgreSQL it starts empty, which
 * is right (every process registers again with its next heartbeat).
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE UNLOGGED TABLE server_processes (
      id uuid PRIMARY KEY,
      public_key text NOT NULL,
      proof text NOT NULL,
      started_at timestamptz NOT NULL,
      seen_at timestamptz NOT NULL
    )`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS server_processes`.execute(db);
}
