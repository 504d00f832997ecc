/** The SQL of the health check. */
import { sql } from "kysely";
import type { Db } from "../db/database.ts";

/** Runs `SELECT 1`: resolves when the database answers. */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`SELECT 1`.execute(db);
}
