/**
 * The SQL of the runtime configuration: one row (id 1) holding the stored settings as JSON
 * (defaults are filled in by settings.ts).
 *
 * Lock: the row is locked `FOR UPDATE` (`lockStoredConfig`) by every change, which merges
 * into what is stored.
 */
import type { Transaction } from "kysely";
import type { Database, Db } from "../db/database.ts";
import { jsonb } from "../db/jsonb.ts";

/** postgres.js double-encodes a string bound to a jsonb column: older rows hold a JSON string. */
function parseSettings(settings: unknown): Record<string, unknown> {
  if (typeof settings === "string") return JSON.parse(settings) as Record<string, unknown>;
  return (settings as Record<string, unknown> | undefined) ?? {};
}

export async function findStoredConfig(db: Db): Promise<Record<string, unknown>> {
  const row = await db.selectFrom("app_config").select("settings").where("id", "=", 1)
    .executeTakeFirst();
  return parseSettings(row?.settings);
}

/** Locks the config row `FOR UPDATE` until the transaction ends; the stored settings. */
export async function lockStoredConfig(
  trx: Transaction<Database>,
): Promise<Record<string, unknown>> {
  const row = await trx.selectFrom("app_config").select("settings").where("id", "=", 1)
    .forUpdate().executeTakeFirst();
  return parseSettings(row?.settings);
}

export async function saveConfig(
  db: Db,
  settings: Record<string, unknown>,
  now: Date,
): Promise<void> {
  await db.updateTable("app_config").where("id", "=", 1)
    // `::text::jsonb`: bound as text, so postgres.js does not JSON-encode the string again.
    .set({ settings: jsonb(settings) as never, updated_at: now }).execute();
}

/** Seed: the config row with no stored settings, unless it exists. */
export async function insertConfigIfMissing(db: Db): Promise<void> {
  await db.insertInto("app_config")
    .values({ id: 1, settings: jsonb({}) as never })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
}
