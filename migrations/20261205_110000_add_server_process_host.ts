import { type Kysely, sql } from "kysely";

/**
 * Where each live server process runs: its host name and operating-system pid, so a command
 * that must not run beside servers (`ops restore` into their database) can name them ("pid
 * 4242 on shop-pc") for whoever has to stop them. Nullable: rows of processes started before
 * this migration carry none (they register again within seconds anyway).
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE server_processes ADD COLUMN host text, ADD COLUMN pid integer`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE server_processes DROP COLUMN IF EXISTS pid, DROP COLUMN IF EXISTS host`
    .execute(db);
}
