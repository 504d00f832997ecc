/**
 * The enabled flag of every module, read on each gated request. Kept in memory for a short
 * time (1 s) so the gate costs nothing per request; a change made through this process is
 * visible at once (`invalidate`), one made by another process within a second.
 */
import type { Kysely } from "kysely";
import type { Database } from "../db/database.ts";
import type { Clock } from "../ids.ts";
import { listModules } from "./modules_repo.ts";

const TTL_MS = 1000;

export interface ModuleCache {
  isEnabled(slug: string): Promise<boolean>;
  invalidate(): void;
}

export function createModuleCache(db: Kysely<Database>, clock: Clock): ModuleCache {
  let enabled: Map<string, boolean> | undefined;
  let loadedAt = 0;
  let loading: Promise<Map<string, boolean>> | undefined;

  async function load(): Promise<Map<string, boolean>> {
    const rows = await listModules(db);
    return new Map(rows.map((r) => [r.slug, r.enabled && r.licensed]));
  }

  return {
    async isEnabled(slug) {
      const now = clock.now().getTime();
      if (!enabled || now - loadedAt > TTL_MS) {
        loading ??= load().finally(() => (loading = undefined));
        enabled = await loading;
        loadedAt = now;
      }
      return enabled.get(slug) ?? false;
    },
    invalidate() {
      enabled = undefined;
    },
  };
}
