/**
 * The SQL of the feature modules: their licence and enabled flags.
 *
 * Lock: a module row is locked `FOR UPDATE` (`lockModule`) by every flag change, which reads
 * the flags first.
 */
import type { Transaction } from "kysely";
import type { ModuleDefinition } from "../../domain/platform/modules.ts";
import type { Database, Db } from "../db/database.ts";
import type { ModuleTable } from "./platform_tables.ts";

const MODULE_COLUMNS = ["slug", "name", "description", "licensed", "enabled", "core"] as const;

export type ModuleRecord = Pick<ModuleTable, (typeof MODULE_COLUMNS)[number]>;

function selectModules(db: Db) {
  return db.selectFrom("modules").select(MODULE_COLUMNS);
}

export function listModules(db: Db): Promise<ModuleRecord[]> {
  return selectModules(db).orderBy("sort_order").execute();
}

/** Locks the module row `FOR UPDATE` until the transaction ends; undefined when missing. */
export function lockModule(
  trx: Transaction<Database>,
  slug: string,
): Promise<ModuleRecord | undefined> {
  return selectModules(trx).where("slug", "=", slug).forUpdate().executeTakeFirst();
}

export async function setModuleFlags(
  db: Db,
  slug: string,
  flags: { enabled?: boolean; licensed?: boolean },
  now: Date,
): Promise<void> {
  await db.updateTable("modules").where("slug", "=", slug).set({ ...flags, updated_at: now })
    .execute();
}

/** Seed: each module (licensed and enabled, in the given order) unless its slug exists. */
export async function insertModulesIfMissing(
  db: Db,
  modules: readonly ModuleDefinition[],
): Promise<void> {
  await db.insertInto("modules")
    .values(modules.map((m, index) => ({
      slug: m.slug,
      name: m.name,
      description: m.description,
      core: m.core,
      licensed: true,
      enabled: true,
      sort_order: index,
    })))
    .onConflict((oc) => oc.column("slug").doNothing())
    .execute();
}
