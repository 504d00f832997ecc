/** Products (API §7) with their price history, supplier links, units and consignment terms. */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import {
  consignmentSchema,
  createProductBody,
  createProductSupplierBody,
  createUnitBody,
  priceHistoryQuery,
  priceHistorySchema,
  productListQuery,
  productSchema,
  productSupplierListQuery,
  productSupplierSchema,
  putConsignmentBody,
  unitListQuery,
  unitSchema,
  updateProductBody,
} from "../../../app/inventory/inventory_schemas.ts";
import { listPriceHistory, listProducts } from "../../../app/inventory/products_repo.ts";
import {
  changeProduct,
  createProduct,
  removeProduct,
  requireProduct,
} from "../../../app/inventory/products.ts";
import { listProductSuppliers } from "../../../app/inventory/product_suppliers_repo.ts";
import { linkSupplier } from "../../../app/inventory/product_suppliers.ts";
import { productSupplierJson } from "../../../app/inventory/product_supplier_json.ts";
import { listUnits } from "../../../app/inventory/units_repo.ts";
import { createUnit } from "../../../app/inventory/units.ts";
import {
  putConsignment,
  removeConsignment,
  requireConsignment,
} from "../../../app/inventory/consignment.ts";
import { ApiRouter } from "../../route.ts";

export function productRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/products", "Products")
    .route({
      method: "get",
      path: "/",
      summary: "List products",
      description:
        "Sortable by name, sku, price, qtyOnHand, createdAt (default name). `q` matches " +
        "name, SKU or UPC (case-insensitive substring, trigram-indexed). Filters: `categoryId`, " +
        "`type`, `lowStock=true` (qtyOnHand <= reorderPoint; `false` the opposite), " +
        "`isActive=true|false`, `pos=true` (only sellable products: active and not consumable).",
      access: "inventory.view",
      query: productListQuery,
      responses: {
        200: { description: "A page of products", schema: listResponse(productSchema) },
      },
    }, async (c, { query }) => c.json(await listProducts(deps.db, query)))
    .route({
      method: "post",
      path: "/",
      summary: "Create a product",
      description: "Required: name, sku, price. `sku` is unique (case-insensitive) among " +
        "non-deleted products (409 `duplicate`). `qtyOnHand` starts at 0 and is not writable: it " +
        "changes through stock receipts, sales, refunds and adjustments. `type: consumable` " +
        "implies `isConsumable: true` (an explicit false → 400). The initial price is the first " +
        "price-history entry. Unknown `categoryId` → 400 `invalid_reference`.",
      access: "inventory.edit",
      body: createProductBody,
      responses: { 201: { description: "The new product", schema: productSchema } },
      errors: { 400: ["invalid_reference"], 409: ["duplicate"] },
    }, async (c, { body, actor }) => c.json(await createProduct(deps, actor, body), 201))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a product",
      access: "inventory.view",
      params: idParams,
      responses: { 200: { description: "The product", schema: productSchema } },
    }, async (c, { params }) => c.json(await requireProduct(deps.db, params.id)))
    .route(
      {
        method: "patch",
        path: "/:id",
        summary: "Update a product",
        description: "Partial update. A price change appends to the price history in the same " +
          "transaction. `qtyOnHand` is not writable (400).",
        access: "inventory.edit",
        params: idParams,
        body: updateProductBody,
        responses: { 200: { description: "The updated product", schema: productSchema } },
        errors: { 400: ["invalid_reference"], 409: ["duplicate"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await changeProduct(deps, actor, params.id, body)),
    )
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a product (soft)",
      description: "The row is kept for history; the SKU becomes free for a new product.",
      access: "inventory.admin",
      params: idParams,
      responses: { 204: { description: "Deleted" } },
    }, async (c, { params }) => {
      await removeProduct(deps, params.id);
      return c.body(null, 204);
    })
    .route({
      method: "get",
      path: "/:id/price-history",
      summary: "Price history of a product",
      description: "Every price the product has had, newest first by default (sortable by " +
        "changedAt; `createdAt` is an alias of changedAt), including the initial price. `q` " +
        "matches a substring of the price or previous price as text (`q=12.5` finds 12.50 " +
        "and 112.50).",
      access: "inventory.view",
      params: idParams,
      query: priceHistoryQuery,
      responses: {
        200: { description: "A page of price changes", schema: listResponse(priceHistorySchema) },
      },
    }, async (c, { params, query }) => {
      await requireProduct(deps.db, params.id);
      return c.json(await listPriceHistory(deps.db, params.id, query));
    })
    .route({
      method: "get",
      path: "/:id/suppliers",
      summary: "Suppliers of a product",
      description: "Links with the supplier embedded. Sortable by supplierName, cost, createdAt; " +
        "`q` searches the supplier's name, contact, email and account number.",
      access: "inventory.view",
      params: idParams,
      query: productSupplierListQuery,
      responses: {
        200: { description: "A page of links", schema: listResponse(productSupplierSchema) },
      },
    }, async (c, { params, query }) => {
      await requireProduct(deps.db, params.id);
      const page = await listProductSuppliers(deps.db, params.id, query);
      return c.json({ data: page.data.map(productSupplierJson), pagination: page.pagination });
    })
    .route(
      {
        method: "post",
        path: "/:id/suppliers",
        summary: "Link a supplier to a product",
        description:
          "One preferred supplier per product: `isPreferred: true` unsets the previous " +
          "preferred link in the same transaction. Linking the same supplier twice → 409 " +
          "`duplicate`; unknown supplier → 400 `invalid_reference`.",
        access: "inventory.edit",
        params: idParams,
        body: createProductSupplierBody,
        responses: { 201: { description: "The new link", schema: productSupplierSchema } },
        errors: { 400: ["invalid_reference"], 409: ["duplicate"] },
      },
      async (c, { params, body }) =>
        c.json(productSupplierJson(await linkSupplier(deps, params.id, body)), 201),
    )
    .route({
      method: "get",
      path: "/:id/units",
      summary: "Units of a product",
      description: "Sortable by serialNumber, status, createdAt, updatedAt; `q` searches the " +
        "serial number; filters `status`, `condition`.",
      access: "inventory.view",
      params: idParams,
      query: unitListQuery,
      responses: { 200: { description: "A page of units", schema: listResponse(unitSchema) } },
    }, async (c, { params, query }) => {
      await requireProduct(deps.db, params.id);
      return c.json(await listUnits(deps.db, params.id, query));
    })
    .route(
      {
        method: "post",
        path: "/:id/units",
        summary: "Add a unit to a serialized or rental product",
        description: "Only products of type serialized or rental have units (else 409 " +
          "`invalid_product_type`). `status` (default in_stock) and `condition` (default new) " +
          "must exist in /lookups/unit-statuses and /lookups/item-conditions (else 400 " +
          "`invalid_reference`). A serial number is unique per product (409 `duplicate`).",
        access: "inventory.edit",
        params: idParams,
        body: createUnitBody,
        responses: { 201: { description: "The new unit", schema: unitSchema } },
        errors: { 400: ["invalid_reference"], 409: ["duplicate", "invalid_product_type"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await createUnit(deps, params.id, body, actor), 201),
    )
    .route({
      method: "get",
      path: "/:id/consignment",
      summary: "Consignment terms of a product",
      access: "inventory.view",
      params: idParams,
      responses: {
        200: { description: "The terms", schema: consignmentSchema },
        404: { description: "No such product, or it has no consignment terms" },
      },
    }, async (c, { params }) => c.json(await requireConsignment(deps.db, params.id)))
    .route({
      method: "put",
      path: "/:id/consignment",
      summary: "Set the consignment terms of a product (upsert)",
      description: "Creates or replaces the terms; answers 200 either way. The consignor must be " +
        "an existing account (else 400 `invalid_reference`). commissionPercent 0..100.",
      access: "inventory.edit",
      params: idParams,
      body: putConsignmentBody,
      responses: { 200: { description: "The terms", schema: consignmentSchema } },
      errors: { 400: ["invalid_reference"] },
    }, async (c, { params, body }) => c.json(await putConsignment(deps, params.id, body)))
    .route({
      method: "delete",
      path: "/:id/consignment",
      summary: "Remove the consignment terms of a product",
      access: "inventory.edit",
      params: idParams,
      responses: { 204: { description: "Removed" } },
    }, async (c, { params }) => {
      await removeConsignment(deps, params.id);
      return c.body(null, 204);
    });
}
