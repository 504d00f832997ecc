/** Idempotent seeds of the platform: the store row, the config row and the modules. */
import { MODULES } from "../../domain/platform/modules.ts";
import { SEED_STORE } from "../../domain/platform/store_setup.ts";
import type { Db } from "../db/database.ts";
import { insertModulesIfMissing } from "./modules_repo.ts";
import { insertConfigIfMissing } from "./settings_repo.ts";
import { insertStoreIfMissing } from "./store_repo.ts";

export async function seedPlatform(db: Db): Promise<void> {
  // Placeholders until `ops setup` names the store (domain/platform/store_setup.ts).
  await insertStoreIfMissing(db, { ...SEED_STORE });
  await insertConfigIfMissing(db);
  await insertModulesIfMissing(db, MODULES);
}
