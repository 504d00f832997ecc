/** Suppliers and product–supplier links (API §7). */
import type { AppDeps } from "../../../app/deps.ts";
import { dataResponse, idParams, listResponse } from "../../../app/schemas.ts";
import {
  createSupplierBody,
  productSupplierSchema,
  supplierListQuery,
  supplierSchema,
  updateProductSupplierBody,
  updateSupplierBody,
} from "../../../app/inventory/inventory_schemas.ts";
import { listAllSuppliers, listSuppliers } from "../../../app/inventory/suppliers_repo.ts";
import {
  changeSupplier,
  createSupplier,
  removeSupplier,
  requireSupplier,
} from "../../../app/inventory/suppliers.ts";
import {
  changeProductSupplier,
  requireProductSupplier,
  unlinkSupplier,
} from "../../../app/inventory/product_suppliers.ts";
import { productSupplierJson } from "../../../app/inventory/product_supplier_json.ts";
import { ApiRouter } from "../../route.ts";

export function supplierRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/suppliers", "Suppliers")
    .route({
      method: "get",
      path: "/",
      summary: "List suppliers",
      description: "Sortable by name (default), createdAt; `q` searches name, contact name, " +
        "email and account number.",
      access: "inventory.view",
      query: supplierListQuery,
      responses: {
        200: { description: "A page of suppliers", schema: listResponse(supplierSchema) },
      },
    }, async (c, { query }) => c.json(await listSuppliers(deps.db, query)))
    .route({
      method: "get",
      path: "/all",
      summary: "Every supplier (unpaginated, for dropdowns)",
      access: "inventory.view",
      responses: { 200: { description: "All suppliers", schema: dataResponse(supplierSchema) } },
    }, async (c) => c.json({ data: await listAllSuppliers(deps.db) }))
    .route({
      method: "post",
      path: "/",
      summary: "Create a supplier",
      access: "inventory.edit",
      body: createSupplierBody,
      responses: { 201: { description: "The new supplier", schema: supplierSchema } },
    }, async (c, { body }) => c.json(await createSupplier(deps, body), 201))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a supplier",
      access: "inventory.view",
      params: idParams,
      responses: { 200: { description: "The supplier", schema: supplierSchema } },
    }, async (c, { params }) => c.json(await requireSupplier(deps.db, params.id)))
    .route({
      method: "patch",
      path: "/:id",
      summary: "Update a supplier",
      access: "inventory.edit",
      params: idParams,
      body: updateSupplierBody,
      responses: { 200: { description: "The updated supplier", schema: supplierSchema } },
    }, async (c, { params, body }) => c.json(await changeSupplier(deps, params.id, body)))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a supplier (soft)",
      description: "Past stock receipts keep the supplier; its product links are removed. " +
        "Needs inventory.admin (creating and editing need inventory.edit).",
      access: "inventory.admin",
      params: idParams,
      responses: { 204: { description: "Deleted" } },
    }, async (c, { params }) => {
      await removeSupplier(deps, params.id);
      return c.body(null, 204);
    });
}

export function productSupplierRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/product-suppliers", "Products")
    .route(
      {
        method: "get",
        path: "/:id",
        summary: "Get a product-supplier link",
        access: "inventory.view",
        params: idParams,
        responses: { 200: { description: "The link", schema: productSupplierSchema } },
      },
      async (c, { params }) =>
        c.json(productSupplierJson(await requireProductSupplier(deps.db, params.id))),
    )
    .route(
      {
        method: "patch",
        path: "/:id",
        summary: "Update a product-supplier link",
        description: "`isPreferred: true` unsets the product's previous preferred link.",
        access: "inventory.edit",
        params: idParams,
        body: updateProductSupplierBody,
        responses: { 200: { description: "The link", schema: productSupplierSchema } },
      },
      async (c, { params, body }) =>
        c.json(productSupplierJson(await changeProductSupplier(deps, params.id, body))),
    )
    .route({
      method: "delete",
      path: "/:id",
      summary: "Remove a product-supplier link",
      access: "inventory.edit",
      params: idParams,
      responses: { 204: { description: "Removed" } },
    }, async (c, { params }) => {
      await unlinkSupplier(deps, params.id);
      return c.body(null, 204);
    });
}
