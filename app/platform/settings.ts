/**
 * Changing the runtime configuration (API §4); reading it: runtime_config.ts (the effective
 * config, from its row or the per-process cache this change drops everywhere).
 */
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import type { Transaction } from "kysely";
import type { Database } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { configSchema, DEFAULT_CONFIG, type RuntimeConfig } from "./platform_schemas.ts";
import { tellOthersAfterCommit } from "./cluster.ts";
import { CONFIG_CACHE_TTL_MS, CONFIG_CHANGED, mergeDeep } from "./runtime_config.ts";
import { lockStoredConfig, saveConfig } from "./settings_repo.ts";

/** `PATCH /config`: merges `patch` into the stored settings; audited with the patch. */
export async function updateRuntimeConfig(
  deps: Pick<AppDeps, "db" | "clock" | "ids" | "runtimeConfig" | "cluster">,
  actor: Actor,
  patch: Record<string, unknown>,
): Promise<RuntimeConfig> {
  let config: RuntimeConfig;
  try {
    config = await withTransaction(deps.db, (trx) => saveMerged(deps, trx, actor, patch));
  } finally {
    // As changeIdentity does for actors: this process's cache now, every other one's before
    // this answers (acknowledged).
    deps.runtimeConfig.invalidate();
  }
  await tellOthersAfterCommit(deps.cluster, CONFIG_CHANGED, CONFIG_CACHE_TTL_MS);
  return config;
}

/** The patch merged into the stored settings under their lock, audited; the effective config. */
async function saveMerged(
  deps: Pick<AppDeps, "clock" | "ids">,
  trx: Transaction<Database>,
  actor: Actor,
  patch: Record<string, unknown>,
): Promise<RuntimeConfig> {
  const stored = await lockStoredConfig(trx);
  const next = mergeDeep(stored, patch);
  await saveConfig(trx, next, deps.clock.now());
  // The runtime config holds no secrets: the change itself is the audit detail.
  await audit(deps, trx, actor, {
    action: "config.updated",
    entityType: "config",
    entityId: null,
    details: { changes: patch },
  });
  return configSchema.parse(mergeDeep(DEFAULT_CONFIG as unknown as Record<string, unknown>, next));
}
