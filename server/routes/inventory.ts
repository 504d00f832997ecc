/** Inventory (API §7): products, categories, suppliers, links, lookups, units, receipts. */
import type { AppDeps } from "../../app/deps.ts";
import { dataResponse, idParams, listResponse } from "../../app/schemas.ts";
import {
  categoryListQuery,
  categorySchema,
  consignmentSchema,
  createCategoryBody,
  createLookupBody,
  createProductBody,
  createProductSupplierBody,
  createStockReceiptBody,
  createSupplierBody,
  createUnitBody,
  lookupSchema,
  priceHistoryQuery,
  priceHistorySchema,
  productListQuery,
  productSchema,
  productSupplierListQuery,
  productSupplierSchema,
  putConsignmentBody,
  stockReceiptListQuery,
  stockReceiptSchema,
  supplierListQuery,
  supplierSchema,
  unitListQuery,
  unitSchema,
  updateCategoryBody,
  updateProductBody,
  updateProductSupplierBody,
  updateSupplierBody,
  updateUnitBody,
} from "../../app/inventory/inventory_schemas.ts";
import {
  findCategory,
  findStockReceipt,
  listAllCategories,
  listAllSuppliers,
  listCategories,
  listLookup,
  listPriceHistory,
  listProducts,
  listProductSuppliers,
  listStockReceipts,
  listSuppliers,
  listUnits,
  type LookupTableName,
} from "../../app/inventory/inventory_repo.ts";
import {
  changeProduct,
  createProduct,
  getProduct,
  removeProduct,
} from "../../app/inventory/products.ts";
import { changeCategory, createCategory, removeCategory } from "../../app/inventory/categories.ts";
import {
  changeProductSupplier,
  changeSupplier,
  createSupplier,
  getProductSupplier,
  getSupplier,
  linkSupplier,
  removeSupplier,
  unlinkSupplier,
} from "../../app/inventory/suppliers.ts";
import { changeUnit, createUnit, getUnit, removeUnit } from "../../app/inventory/units.ts";
import { createLookupValue, deleteLookupValue } from "../../app/inventory/lookups.ts";
import { receiveStock } from "../../app/inventory/stock_receipts.ts";
import {
  getConsignment,
  putConsignment,
  removeConsignment,
} from "../../app/inventory/consignment.ts";
import { NotFoundError } from "../../domain/errors.ts";
import { ApiRouter } from "../route.ts";

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
    }, async (c, { body, actor }) => c.json(await createProduct(deps, actor, body), 201))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a product",
      access: "inventory.view",
      params: idParams,
      responses: { 200: { description: "The product", schema: productSchema } },
    }, async (c, { params }) => c.json(await getProduct(deps.db, params.id)))
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
      await getProduct(deps.db, params.id);
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
      await getProduct(deps.db, params.id);
      return c.json(await listProductSuppliers(deps.db, params.id, query));
    })
    .route({
      method: "post",
      path: "/:id/suppliers",
      summary: "Link a supplier to a product",
      description: "One preferred supplier per product: `isPreferred: true` unsets the previous " +
        "preferred link in the same transaction. Linking the same supplier twice → 409 " +
        "`duplicate`; unknown supplier → 400 `invalid_reference`.",
      access: "inventory.edit",
      params: idParams,
      body: createProductSupplierBody,
      responses: { 201: { description: "The new link", schema: productSupplierSchema } },
    }, async (c, { params, body }) => c.json(await linkSupplier(deps, params.id, body), 201))
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
      await getProduct(deps.db, params.id);
      return c.json(await listUnits(deps.db, params.id, query));
    })
    .route({
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
    }, async (c, { params, body }) => c.json(await createUnit(deps, params.id, body), 201))
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
    }, async (c, { params }) => c.json(await getConsignment(deps, params.id)))
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
    }, async (c, { body }) => c.json(await createCategory(deps, body), 201))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a category",
      access: "inventory.view",
      params: idParams,
      responses: { 200: { description: "The category", schema: categorySchema } },
    }, async (c, { params }) => {
      const category = await findCategory(deps.db, params.id);
      if (!category) throw new NotFoundError(`Category "${params.id}" does not exist`);
      return c.json(category);
    })
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
    }, async (c, { params }) => {
      await removeCategory(deps, params.id);
      return c.body(null, 204);
    });
}

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
    }, async (c, { params }) => c.json(await getSupplier(deps, params.id)))
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
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a product-supplier link",
      access: "inventory.view",
      params: idParams,
      responses: { 200: { description: "The link", schema: productSupplierSchema } },
    }, async (c, { params }) => c.json(await getProductSupplier(deps, params.id)))
    .route({
      method: "patch",
      path: "/:id",
      summary: "Update a product-supplier link",
      description: "`isPreferred: true` unsets the product's previous preferred link.",
      access: "inventory.edit",
      params: idParams,
      body: updateProductSupplierBody,
      responses: { 200: { description: "The link", schema: productSupplierSchema } },
    }, async (c, { params, body }) => c.json(await changeProductSupplier(deps, params.id, body)))
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

export function unitRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/units", "Units")
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a unit",
      access: "inventory.view",
      params: idParams,
      responses: { 200: { description: "The unit", schema: unitSchema } },
    }, async (c, { params }) => c.json(await getUnit(deps, params.id)))
    .route({
      method: "patch",
      path: "/:id",
      summary: "Update a unit",
      description: "Unknown status/condition → 400 `invalid_reference`.",
      access: "inventory.edit",
      params: idParams,
      body: updateUnitBody,
      responses: { 200: { description: "The unit", schema: unitSchema } },
    }, async (c, { params, body }) => c.json(await changeUnit(deps, params.id, body)))
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

export function stockReceiptRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/stock-receipts", "Stock receipts")
    .route({
      method: "get",
      path: "/",
      summary: "List stock receipts",
      description: "Sortable by receivedAt (default, newest first), createdAt; filters " +
        "`productId`, `supplierId`; `q` searches the invoice number.",
      access: "inventory.view",
      query: stockReceiptListQuery,
      responses: {
        200: { description: "A page of receipts", schema: listResponse(stockReceiptSchema) },
      },
    }, async (c, { query }) => c.json(await listStockReceipts(deps.db, query)))
    .route({
      method: "post",
      path: "/",
      summary: "Receive stock",
      description: "Records the delivery and, for non-serialized products, increments " +
        "`qtyOnHand` by `quantity` in the same transaction (atomic: parallel receipts never " +
        "lose an increment). Serialized products receive units instead " +
        "(`stockIncremented: false`). Unknown product or supplier → 400 `invalid_reference`. " +
        "Send an `Idempotency-Key` to make retries safe.",
      access: "inventory.edit",
      idempotent: true,
      body: createStockReceiptBody,
      responses: { 201: { description: "The receipt", schema: stockReceiptSchema } },
    }, async (c, { body, actor }) => c.json(await receiveStock(deps, actor, body), 201))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a stock receipt",
      access: "inventory.view",
      params: idParams,
      responses: { 200: { description: "The receipt", schema: stockReceiptSchema } },
    }, async (c, { params }) => {
      const receipt = await findStockReceipt(deps.db, params.id);
      if (!receipt) throw new NotFoundError(`Stock receipt "${params.id}" does not exist`);
      return c.json(receipt);
    });
}

/** Every inventory router, for `server/app.ts`. */
export const INVENTORY_ROUTERS: ReadonlyArray<(deps: AppDeps) => ApiRouter> = [
  productRoutes,
  categoryRoutes,
  supplierRoutes,
  productSupplierRoutes,
  unitRoutes,
  unitStatusRoutes,
  itemConditionRoutes,
  stockReceiptRoutes,
];
