/** Health, store settings, locations, runtime config and modules (API §4, §15). */
import { z } from "zod";
import type { AppDeps } from "../../app/deps.ts";
import {
  dataResponse,
  idParams,
  listQuery,
  listResponse,
  queryBoolean,
} from "../../app/schemas.ts";
import {
  configSchema,
  createLocationBody,
  healthSchema,
  locationSchema,
  moduleSchema,
  storeSchema,
  updateConfigBody,
  updateLocationBody,
  updateModuleBody,
  updateStoreBody,
} from "../../app/platform/platform_schemas.ts";
import { checkDatabase } from "../../app/platform/health.ts";
import {
  createLocation,
  deleteLocation,
  requireLocation,
  updateLocation,
} from "../../app/platform/locations.ts";
import { listLocations } from "../../app/platform/locations_repo.ts";
import { setModuleEnabled } from "../../app/platform/modules.ts";
import { listModules } from "../../app/platform/modules_repo.ts";
import { getRuntimeConfig } from "../../app/platform/runtime_config.ts";
import { updateRuntimeConfig } from "../../app/platform/settings.ts";
import { updateStoreSettings } from "../../app/platform/store.ts";
import { findStore } from "../../app/platform/store_repo.ts";
import { ApiRouter } from "../route.ts";

export function healthRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/health", "Health").route({
    method: "get",
    path: "/",
    summary: "Health check",
    access: "public",
    responses: {
      200: { description: "The service and its database are up", schema: healthSchema },
      503: { description: "The database cannot be reached", schema: healthSchema },
    },
  }, async (c) => {
    if (!(await checkDatabase(deps.db))) {
      c.header("Retry-After", "5");
      return c.json({ status: "unavailable", database: "unreachable" }, 503);
    }
    return c.json({
      status: "ok",
      database: "ok",
      version: deps.version,
      uptimeSeconds: Math.floor((deps.clock.now().getTime() - deps.startedAt.getTime()) / 1000),
    });
  });
}

export function storeRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/store", "Store")
    .route({
      method: "get",
      path: "/",
      summary: "Store settings",
      access: "authenticated",
      responses: { 200: { description: "The store", schema: storeSchema } },
    }, async (c) => c.json(await findStore(deps.db)))
    .route({
      method: "patch",
      path: "/",
      summary: "Update store settings",
      access: "settings.edit",
      body: updateStoreBody,
      responses: { 200: { description: "The updated store", schema: storeSchema } },
    }, async (c, { body }) => c.json(await updateStoreSettings(deps, body)));
}

const locationListQuery = listQuery({
  sort: ["name", "createdAt"],
  defaultSort: "name",
  filters: { isActive: queryBoolean.optional() },
});

export function locationRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/locations", "Locations")
    .route({
      method: "get",
      path: "/",
      summary: "List locations",
      description: "Sortable by name, createdAt; `q` searches the name.",
      access: "settings.view",
      query: locationListQuery,
      responses: {
        200: { description: "A page of locations", schema: listResponse(locationSchema) },
      },
    }, async (c, { query }) => c.json(await listLocations(deps.db, query)))
    .route({
      method: "post",
      path: "/",
      summary: "Create a location",
      access: "settings.edit",
      body: createLocationBody,
      responses: { 201: { description: "The new location", schema: locationSchema } },
    }, async (c, { body, actor }) => c.json(await createLocation(deps, actor, body), 201))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a location",
      access: "settings.view",
      params: idParams,
      responses: { 200: { description: "The location", schema: locationSchema } },
    }, async (c, { params }) => c.json(await requireLocation(deps.db, params.id)))
    .route(
      {
        method: "patch",
        path: "/:id",
        summary: "Update a location",
        access: "settings.edit",
        params: idParams,
        body: updateLocationBody,
        responses: { 200: { description: "The updated location", schema: locationSchema } },
      },
      async (c, { params, body, actor }) =>
        c.json(await updateLocation(deps, actor, params.id, body)),
    )
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a location",
      description:
        "A location still referenced by registers, drawers or sales cannot be deleted (409 `in_use`); " +
        "deactivate it with `isActive: false` instead.",
      access: "settings.edit",
      params: idParams,
      responses: { 204: { description: "Deleted" } },
      errors: { 409: ["in_use"] },
    }, async (c, { params, actor }) => {
      await deleteLocation(deps, actor, params.id);
      return c.body(null, 204);
    });
}

export function configRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/config", "Config")
    .route({
      method: "get",
      path: "/",
      summary: "Runtime configuration",
      access: "settings.view",
      responses: {
        200: { description: "The configuration with defaults filled in", schema: configSchema },
      },
    }, async (c) => c.json(await getRuntimeConfig(deps.db)))
    .route({
      method: "patch",
      path: "/",
      summary: "Change the runtime configuration",
      description:
        'Partial update: nested objects are merged, so `{ "upload": { "maxBytes": 1000 } }` ' +
        "keeps `upload.maxFilesPerEntity`. `currency` is checked for shape only (three " +
        "uppercase letters, e.g. USD): it is not matched against the ISO 4217 list. Each " +
        "server process caches the configuration; this answers once every process has " +
        "dropped its copy, so the change applies to the next request on any of them.",
      access: "settings.admin",
      fullLogin: true,
      body: updateConfigBody,
      responses: { 200: { description: "The new configuration", schema: configSchema } },
    }, async (c, { body, actor }) => {
      return c.json(await updateRuntimeConfig(deps, actor, body));
    });
}

export function moduleRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/modules", "Modules")
    .route({
      method: "get",
      path: "/",
      summary: "List modules",
      access: "settings.view",
      responses: { 200: { description: "Every module", schema: dataResponse(moduleSchema) } },
    }, async (c) => c.json({ data: await listModules(deps.db) }))
    .route(
      {
        method: "patch",
        path: "/:slug",
        summary: "Enable or disable a module",
        description:
          "Enabling an unlicensed module → 409 `not_licensed`; disabling a core module → 409 `core_module`.",
        access: "settings.admin",
        fullLogin: true,
        params: z.object({ slug: z.string().regex(/^[a-z]+$/) }),
        body: updateModuleBody,
        responses: { 200: { description: "The module", schema: moduleSchema } },
        errors: { 409: ["core_module", "not_licensed"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await setModuleEnabled(deps, actor, params.slug, body.enabled)),
    );
}
