/** Idempotent seeds of the platform: the store row, the config row and the modules. */
import { MODULES } from "../../domain/platform/modules.ts";
import type { Db } from "../db/database.ts";
import { insertModulesIfMissing } from "./modules_repo.ts";
import { insertConfigIfMissing } from "./settings_repo.ts";
import { insertStoreIfMissing } from "./store_repo.ts";

export async function seedPlatform(db: Db): Promise<void> {
  await insertStoreIfMissing(db, { name: "My Shop", timezone: "America/New_York" });
  await insertConfigIfMissing(db);
  await insertModulesIfMissing(db, MODULES);
}
