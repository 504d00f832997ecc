/** Categories (API §7): a tree by `parentId`. */
import type { AppDeps } from "../../../app/deps.ts";
import { dataResponse, idParams, listResponse } from "../../../app/schemas.ts";
import {
  categoryListQuery,
  categorySchema,
  createCategoryBody,
  updateCategoryBody,
} from "../../../app/inventory/inventory_schemas.ts";
import { listAllCategories, listCategories } from "../../../app/inventory/categories_repo.ts";
import {
  changeCategory,
  createCategory,
  removeCategory,
  requireCategory,
} from "../../../app/inventory/categories.ts";
import { ApiRouter } from "../../route.ts";

export function categoryRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/categories", "Categories")
    .route({
      method: "get",
      path: "/",
      summary: "List categories",
      description: "Sortable by name, sortOrder (default), createdAt; `q` searches the name; " +
        "`parentId` lists the direct children of a category.",
      access: "inventory.view",
      query: categoryListQuery,
      responses: {
        200: { description: "A page of categories", schema: listResponse(categorySchema) },
      },
    }, async (c, { query }) => c.json(await listCategories(deps.db, query)))
    .route({
      method: "get",
      path: "/all",
      summary: "Every category (unpaginated, for dropdowns)",
      description: "Ordered by sortOrder, then name. Build the tree from `parentId`.",
      access: "inventory.view",
      responses: {
        200: { description: "All categories", schema: dataResponse(categorySchema) },
      },
    }, async (c) => c.json({ data: await listAllCategories(deps.db) }))
    .route({
      method: "post",
      path: "/",
      summary: "Create a category",
      description: "Unknown `parentId` → 400 `invalid_reference`.",
      access: "inventory.edit",
      body: createCategoryBody,
      responses: { 201: { description: "The new category", schema: categorySchema } },
      errors: { 400: ["invalid_reference"] },
    }, async (c, { body }) => c.json(await createCategory(deps, body), 201))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a category",
      access: "inventory.view",
      params: idParams,
      responses: { 200: { description: "The category", schema: categorySchema } },
    }, async (c, { params }) => c.json(await requireCategory(deps.db, params.id)))
    .route({
      method: "patch",
      path: "/:id",
      summary: "Update or move a category",
      description: "A `parentId` that is the category itself or one of its descendants → 400 " +
        "`validation_failed` (path parentId); `null` makes it a root.",
      access: "inventory.edit",
      params: idParams,
      body: updateCategoryBody,
      responses: { 200: { description: "The updated category", schema: categorySchema } },
      errors: { 400: ["invalid_reference"] },
    }, async (c, { params, body }) => c.json(await changeCategory(deps, params.id, body)))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a category (soft)",
      description: "Refused with 409 `in_use` while it has subcategories or products. Needs " +
        "inventory.admin (creating and editing need inventory.edit).",
      access: "inventory.admin",
      params: idParams,
      responses: { 204: { description: "Deleted" } },
      errors: { 409: ["in_use"] },
    }, async (c, { params }) => {
      await removeCategory(deps, params.id);
      return c.body(null, 204);
    });
}
