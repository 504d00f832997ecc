/**
 * The secrets vault (API §12): lifecycle, categories with their grants, entries. One file per
 * resource; this list is what `server/app.ts` mounts, in this order.
 */
import type { AppDeps } from "../../../app/deps.ts";
import type { ApiRouter } from "../../route.ts";
import { vaultCategoryRoutes } from "./categories.ts";
import { vaultEntryRoutes } from "./entries.ts";
import { vaultRoutes } from "./lifecycle.ts";

/** Every vault router, for `server/app.ts`. */
export const VAULT_ROUTERS: ReadonlyArray<(deps: AppDeps) => ApiRouter> = [
  vaultRoutes,
  vaultCategoryRoutes,
  vaultEntryRoutes,
];
