/**
 * The storage hub (API §11): folders, their permissions, and files in folders. One file per
 * resource; this list is what `server/app.ts` mounts, in this order.
 */
import type { AppDeps } from "../../../app/deps.ts";
import type { ApiRouter } from "../../route.ts";
import { folderFileRoutes, storageFileRoutes } from "./files.ts";
import { folderRoutes } from "./folders.ts";
import { folderPermissionRoutes } from "./permissions.ts";

/** Every storage hub router, for `server/app.ts`. */
export const STORAGE_ROUTERS: ReadonlyArray<(deps: AppDeps) => ApiRouter> = [
  folderRoutes,
  folderPermissionRoutes,
  folderFileRoutes,
  storageFileRoutes,
];
