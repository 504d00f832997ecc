import { type Kysely, sql } from "kysely";

/**
 * What a live server process reports of itself in `server_processes`, for `ops status`: the
 * URL it listens at, its pid and host, and whether its vault is unlocked (its key lives in
 * that process's memory only; the row holds the state, never the key). Written when the
 * process joins and with every heartbeat, and at once when its vault locks or unlocks.
 * Nullable: a process of the release before this one registers without them.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE server_processes
      ADD COLUMN url text,
      ADD COLUMN pid integer,
      ADD COLUMN host text,
      ADD COLUMN vault_unlocked boolean NOT NULL DEFAULT false`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE server_processes
      DROP COLUMN IF EXISTS url,
      DROP COLUMN IF EXISTS pid,
      DROP COLUMN IF EXISTS host,
      DROP COLUMN IF EXISTS vault_unlocked`.execute(db);
}
