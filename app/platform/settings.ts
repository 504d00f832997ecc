/** Use cases of store settings, locations, runtime config and modules. */
import { ConflictError, NotFoundError } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";
import { withTransaction } from "../db/transaction.ts";
import { isForeignKeyViolation } from "../db/db_errors.ts";
import {
  deleteLocation,
  findModule,
  findStore,
  findStoredConfig,
  type ModuleRecord,
  saveConfig,
  setModuleFlags,
  type StoreRecord,
  updateStore,
} from "./platform_repo.ts";
import { configSchema, DEFAULT_CONFIG, type RuntimeConfig } from "./platform_schemas.ts";
import type { Db } from "../db/database.ts";
import { type AuditActor, recordAudit } from "../audit/audit_repo.ts";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Merges `patch` into `base`: nested objects merge key by key, everything else replaces. */
export function mergeDeep(
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

export async function updateRuntimeConfig(
  deps: AppDeps,
  patch: Record<string, unknown>,
  actor: AuditActor,
): Promise<RuntimeConfig> {
  return await withTransaction(deps.db, async (trx) => {
    const stored = await findStoredConfig(trx, true);
    const next = mergeDeep(stored, patch);
    await saveConfig(trx, next, deps.clock.now());
    // The runtime config holds no secrets: the change itself is the audit detail.
    await recordAudit(trx, {
      actorId: actor.userId,
      actorEmail: actor.email,
      action: "config.updated",
      entityType: "config",
      entityId: null,
      details: { changes: patch },
    }, { id: deps.ids.uuid(), at: deps.clock.now() });
    return configSchema.parse(
      mergeDeep(DEFAULT_CONFIG as unknown as Record<string, unknown>, next),
    );
  });
}

export async function updateStoreSettings(
  deps: AppDeps,
  changes: Partial<Omit<StoreRecord, "updatedAt">>,
): Promise<StoreRecord> {
  await updateStore(deps.db, changes, deps.clock.now());
  return findStore(deps.db);
}

/** Enables or disables a module: core modules stay on, unlicensed ones cannot be enabled. */
export async function setModuleEnabled(
  deps: AppDeps,
  slug: string,
  enabled: boolean,
  actor: AuditActor,
): Promise<ModuleRecord> {
  const updated = await withTransaction(deps.db, async (trx) => {
    const module = await findModule(trx, slug, true);
    if (!module) throw new NotFoundError(`Module "${slug}" does not exist`);
    if (module.core && !enabled) {
      throw new ConflictError("core_module", `Module "${slug}" is core and always on`);
    }
    if (enabled && !module.licensed) {
      throw new ConflictError("not_licensed", `Module "${slug}" is not licensed`);
    }
    await setModuleFlags(trx, slug, { enabled }, deps.clock.now());
    if (module.enabled !== enabled) {
      await recordAudit(trx, {
        actorId: actor.userId,
        actorEmail: actor.email,
        action: "module.updated",
        entityType: "module",
        entityId: slug,
        details: { enabled },
      }, { id: deps.ids.uuid(), at: deps.clock.now() });
    }
    return { ...module, enabled };
  });
  deps.modules.invalidate();
  return updated;
}

/** `ops modules license SLUG --grant|--revoke`: licensing is not an API matter. */
export async function setModuleLicensed(
  deps: AppDeps,
  slug: string,
  licensed: boolean,
): Promise<ModuleRecord> {
  const updated = await withTransaction(deps.db, async (trx) => {
    const module = await findModule(trx, slug, true);
    if (!module) throw new NotFoundError(`Module "${slug}" does not exist`);
    if (module.core) {
      throw new ConflictError("core_module", `Module "${slug}" is core and always licensed`);
    }
    const enabled = licensed ? module.enabled : false;
    await setModuleFlags(trx, slug, { licensed, enabled }, deps.clock.now());
    return { ...module, licensed, enabled };
  });
  deps.modules.invalidate();
  return updated;
}

/** Deletes a location no record refers to any more; one still in use → 409 `in_use`. */
export async function removeLocation(deps: AppDeps, id: string): Promise<void> {
  let deleted: boolean;
  try {
    deleted = await deleteLocation(deps.db, id);
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw new ConflictError("in_use", `Location "${id}" is still in use; deactivate it instead`);
    }
    throw error;
  }
  if (!deleted) throw new NotFoundError(`Location "${id}" does not exist`);
}
