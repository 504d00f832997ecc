/** Use cases of the runtime configuration (API §4): stored values merged over the defaults. */
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { configSchema, DEFAULT_CONFIG, type RuntimeConfig } from "./platform_schemas.ts";
import { findStoredConfig, lockStoredConfig, saveConfig } from "./settings_repo.ts";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Merges `patch` into `base`: nested objects merge key by key, everything else replaces. */
function mergeDeep(
  base: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    result[key] = isPlainObject(value) && isPlainObject(base[key])
      ? mergeDeep(base[key], value)
      : value;
  }
  return result;
}

/** The effective runtime config: stored values over the defaults. */
export async function getRuntimeConfig(db: Db): Promise<RuntimeConfig> {
  const stored = await findStoredConfig(db);
  const merged = mergeDeep(DEFAULT_CONFIG as unknown as Record<string, unknown>, stored);
  const parsed = configSchema.safeParse(merged);
  return parsed.success ? parsed.data : DEFAULT_CONFIG;
}

/** `PATCH /config`: merges `patch` into the stored settings; audited with the patch. */
export async function updateRuntimeConfig(
  deps: Pick<AppDeps, "db" | "clock" | "ids">,
  actor: Actor,
  patch: Record<string, unknown>,
): Promise<RuntimeConfig> {
  return await withTransaction(deps.db, async (trx) => {
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
    return configSchema.parse(
      mergeDeep(DEFAULT_CONFIG as unknown as Record<string, unknown>, next),
    );
  });
}
