/**
 * Use cases of the feature modules (API §4): enabling (API and audited) and licensing (`ops`
 * only). Core modules stay on and licensed; an unlicensed module cannot be enabled. Every
 * change drops this process's module cache.
 */
import { ConflictError, NotFoundError } from "../../domain/errors.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { lockModule, type ModuleRecord, setModuleFlags } from "./modules_repo.ts";

type Deps = Pick<AppDeps, "db" | "clock" | "ids" | "modules">;

function moduleNotFound(slug: string): NotFoundError {
  return new NotFoundError("not_found", `Module "${slug}" does not exist`);
}

/** `PATCH /modules/:slug`: audited when the flag changes. */
export async function setModuleEnabled(
  deps: Deps,
  actor: Actor,
  slug: string,
  enabled: boolean,
): Promise<ModuleRecord> {
  const updated = await withTransaction(deps.db, async (trx) => {
    const module = await lockModule(trx, slug);
    if (!module) throw moduleNotFound(slug);
    if (module.core && !enabled) {
      throw new ConflictError("core_module", `Module "${slug}" is core and always on`);
    }
    if (enabled && !module.licensed) {
      throw new ConflictError("not_licensed", `Module "${slug}" is not licensed`);
    }
    await setModuleFlags(trx, slug, { enabled }, deps.clock.now());
    if (module.enabled !== enabled) {
      await audit(deps, trx, actor, {
        action: "module.updated",
        entityType: "module",
        entityId: slug,
        details: { enabled },
      });
    }
    return { ...module, enabled };
  });
  deps.modules.invalidate();
  return updated;
}

/** `ops modules license SLUG --grant|--revoke`: revoking also disables the module. */
export async function setModuleLicensed(
  deps: Deps,
  slug: string,
  licensed: boolean,
): Promise<ModuleRecord> {
  const updated = await withTransaction(deps.db, async (trx) => {
    const module = await lockModule(trx, slug);
    if (!module) throw moduleNotFound(slug);
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
