/** Idempotent seeds of the platform: the store row, the config row and the modules. */
import { MODULES } from "../../domain/platform/modules.ts";
import type { Db } from "../db/database.ts";
import { jsonb } from "../db/jsonb.ts";

export async function seedPlatform(db: Db): Promise<void> {
  await db.insertInto("store")
    .values({ id: 1, name: "My Shop", timezone: "America/New_York" })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  await db.insertInto("app_config")
    .values({ id: 1, settings: jsonb({}) as never })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  await db.insertInto("modules")
    .values(MODULES.map((m, index) => ({
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
