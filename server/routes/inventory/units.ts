/** Units of serialized and rental products, and the lookups they use (API §7). */
import type { AppDeps } from "../../../app/deps.ts";
import { dataResponse, idParams } from "../../../app/schemas.ts";
import {
  createLookupBody,
  lookupSchema,
  unitSchema,
  updateUnitBody,
} from "../../../app/inventory/inventory_schemas.ts";
import { changeUnit, removeUnit, requireUnit } from "../../../app/inventory/units.ts";
import { listLookup, type LookupTableName } from "../../../app/inventory/lookups_repo.ts";
import { createLookupValue, deleteLookupValue } from "../../../app/inventory/lookups.ts";
import { ApiRouter } from "../../route.ts";

export function unitRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/units", "Units")
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a unit",
      access: "inventory.view",
      params: idParams,
      responses: { 200: { description: "The unit", schema: unitSchema } },
    }, async (c, { params }) => c.json(await requireUnit(deps.db, params.id)))
    .route({
      method: "patch",
      path: "/:id",
      summary: "Update a unit",
      description: "Unknown status/condition → 400 `invalid_reference`.",
      access: "inventory.edit",
      params: idParams,
      body: updateUnitBody,
      responses: { 200: { description: "The unit", schema: unitSchema } },
      errors: { 400: ["invalid_reference"], 409: ["duplicate"] },
    }, async (c, { params, body, actor }) => c.json(await changeUnit(deps, params.id, body, actor)))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a unit (soft)",
      access: "inventory.edit",
      params: idParams,
      responses: { 204: { description: "Deleted" } },
    }, async (c, { params }) => {
      await removeUnit(deps, params.id);
      return c.body(null, 204);
    });
}

function lookupRoutes(
  deps: AppDeps,
  path: string,
  table: LookupTableName,
  tag: string,
): ApiRouter {
  return new ApiRouter(deps, path, tag)
    .route({
      method: "get",
      path: "/",
      summary: `List ${tag.toLowerCase()}`,
      description: "Built-in values first, then custom values in creation order.",
      access: "inventory.view",
      responses: { 200: { description: "Every value", schema: dataResponse(lookupSchema) } },
    }, async (c) => c.json({ data: await listLookup(deps.db, table) }))
    .route({
      method: "post",
      path: "/",
      summary: `Add a custom value to ${tag.toLowerCase()}`,
      description: "`value` is lowercase snake_case and unique (409 `duplicate`).",
      access: "inventory.admin",
      body: createLookupBody,
      responses: { 201: { description: "The new value", schema: lookupSchema } },
      errors: { 409: ["duplicate"] },
    }, async (c, { body }) => c.json(await createLookupValue(deps, table, body), 201))
    .route({
      method: "delete",
      path: "/:id",
      summary: `Delete a custom value of ${tag.toLowerCase()}`,
      description: "Built-in values → 409 `built_in`; a value used by any unit (including " +
        "deleted units, whose rows are kept) → 409 `in_use`.",
      access: "inventory.admin",
      params: idParams,
      responses: { 204: { description: "Deleted" } },
      errors: { 409: ["built_in", "in_use"] },
    }, async (c, { params }) => {
      await deleteLookupValue(deps, table, params.id);
      return c.body(null, 204);
    });
}

export function unitStatusRoutes(deps: AppDeps): ApiRouter {
  return lookupRoutes(deps, "/lookups/unit-statuses", "unit_statuses", "Unit statuses");
}

export function itemConditionRoutes(deps: AppDeps): ApiRouter {
  return lookupRoutes(deps, "/lookups/item-conditions", "item_conditions", "Item conditions");
}
