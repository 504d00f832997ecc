/** Schemas of inventory (API §7): request bodies, list queries and response records. */
import { z } from "zod";
import {
  address,
  isoDate,
  listQuery,
  moneyString,
  nonNegativeMoney,
  percent,
  queryBoolean,
  timestamp,
  uuid,
} from "../schemas.ts";
import { PRODUCT_TYPES } from "../../domain/inventory/products.ts";
import { LOOKUP_VALUE_PATTERN } from "../../domain/inventory/lookups.ts";
import { LABEL_LAYOUTS } from "../../domain/inventory/label_layout.ts";

const text = (max: number) => z.string().trim().min(1).max(max);
/** Optional free text: an empty string is stored as null. */
const optionalText = (max: number) =>
  z.string().trim().max(max).transform((v) => (v === "" ? null : v)).nullish();
const quantity = z.int().min(0).max(1_000_000_000);

export const productType = z.enum(PRODUCT_TYPES);
export const taxCategory = z.enum(["goods", "service"]);

// ---------------------------------------------------------------- products

export const productSchema = z.object({
  id: uuid,
  name: z.string(),
  sku: z.string(),
  upc: z.string().nullable(),
  description: z.string().nullable(),
  categoryId: uuid.nullable(),
  type: productType,
  price: moneyString,
  cost: moneyString.nullable(),
  isDualUseRepair: z.boolean(),
  isConsumable: z.boolean(),
  qtyOnHand: z.int(),
  reorderPoint: z.int(),
  isActive: z.boolean(),
  taxCategory,
  createdAt: z.string(),
  updatedAt: z.string(),
}).meta({ id: "Product" });

export const createProductBody = z.strictObject({
  name: text(200),
  sku: text(64),
  upc: optionalText(64),
  description: optionalText(5000),
  categoryId: uuid.nullish(),
  type: productType.default("standard"),
  price: nonNegativeMoney,
  cost: nonNegativeMoney.nullish(),
  isDualUseRepair: z.boolean().default(false),
  isConsumable: z.boolean().optional(),
  reorderPoint: quantity.default(0),
  isActive: z.boolean().default(true),
  taxCategory: taxCategory.default("goods"),
}).meta({ id: "CreateProductBody" });
export type CreateProductInput = z.output<typeof createProductBody>;

export const updateProductBody = z.strictObject({
  name: text(200).optional(),
  sku: text(64).optional(),
  upc: optionalText(64),
  description: optionalText(5000),
  categoryId: uuid.nullish(),
  type: productType.optional(),
  price: nonNegativeMoney.optional(),
  cost: nonNegativeMoney.nullish(),
  isDualUseRepair: z.boolean().optional(),
  isConsumable: z.boolean().optional(),
  reorderPoint: quantity.optional(),
  isActive: z.boolean().optional(),
  taxCategory: taxCategory.optional(),
}).meta({ id: "UpdateProductBody" });
export type UpdateProductInput = z.output<typeof updateProductBody>;

const PRODUCT_SORTS = ["name", "sku", "price", "qtyOnHand", "createdAt"] as const;

export const productListQuery = listQuery({
  sort: PRODUCT_SORTS,
  defaultSort: "name",
  filters: {
    categoryId: uuid.optional(),
    type: productType.optional(),
    lowStock: queryBoolean.optional().describe(
      "true: qtyOnHand <= reorderPoint; false: qtyOnHand > reorderPoint",
    ),
    isActive: queryBoolean.optional(),
    pos: queryBoolean.optional().describe("true: only sellable products (active, not consumable)"),
  },
});

export const priceHistorySchema = z.object({
  id: uuid,
  productId: uuid,
  price: moneyString,
  previousPrice: moneyString.nullable(),
  changedBy: uuid.nullable(),
  changedAt: z.string(),
}).meta({ id: "PriceChange" });

export const priceHistoryQuery = listQuery({
  sort: ["changedAt", "createdAt"],
  defaultSort: "changedAt",
  defaultOrder: "desc",
});

// ---------------------------------------------------------------- categories

export const categorySchema = z.object({
  id: uuid,
  name: z.string(),
  parentId: uuid.nullable(),
  sortOrder: z.int(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).meta({ id: "Category" });

export const createCategoryBody = z.strictObject({
  name: text(200),
  parentId: uuid.nullish(),
  sortOrder: z.int().min(-1_000_000).max(1_000_000).default(0),
}).meta({ id: "CreateCategoryBody" });

export const updateCategoryBody = z.strictObject({
  name: text(200).optional(),
  parentId: uuid.nullish(),
  sortOrder: z.int().min(-1_000_000).max(1_000_000).optional(),
}).meta({ id: "UpdateCategoryBody" });

export const categoryListQuery = listQuery({
  sort: ["name", "sortOrder", "createdAt"],
  defaultSort: "sortOrder",
  filters: {
    parentId: uuid.optional().describe("Only the direct children of this category"),
  },
});

// ---------------------------------------------------------------- suppliers

export const supplierSchema = z.object({
  id: uuid,
  name: z.string(),
  contactName: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: address.nullable(),
  accountNumber: z.string().nullable(),
  paymentTerms: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).meta({ id: "Supplier" });

const supplierFields = {
  contactName: optionalText(200),
  email: z.email().max(254).nullish(),
  phone: optionalText(40),
  address: address.nullish(),
  accountNumber: optionalText(100),
  paymentTerms: optionalText(200),
};

export const createSupplierBody = z.strictObject({ name: text(200), ...supplierFields }).meta({
  id: "CreateSupplierBody",
});
export const updateSupplierBody = z.strictObject({ name: text(200).optional(), ...supplierFields })
  .meta({ id: "UpdateSupplierBody" });

export const supplierListQuery = listQuery({ sort: ["name", "createdAt"], defaultSort: "name" });

const supplierSummary = z.object({
  id: uuid,
  name: z.string(),
  contactName: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  accountNumber: z.string().nullable(),
  paymentTerms: z.string().nullable(),
});

// ---------------------------------------------------------------- product–supplier links

export const productSupplierSchema = z.object({
  id: uuid,
  productId: uuid,
  supplierId: uuid,
  supplierSku: z.string().nullable(),
  cost: moneyString.nullable(),
  isPreferred: z.boolean(),
  supplier: supplierSummary,
  createdAt: z.string(),
  updatedAt: z.string(),
}).meta({ id: "ProductSupplier" });

export const createProductSupplierBody = z.strictObject({
  supplierId: uuid,
  supplierSku: optionalText(64),
  cost: nonNegativeMoney.nullish(),
  isPreferred: z.boolean().default(false),
}).meta({ id: "CreateProductSupplierBody" });

export const updateProductSupplierBody = z.strictObject({
  supplierSku: optionalText(64),
  cost: nonNegativeMoney.nullish(),
  isPreferred: z.boolean().optional(),
}).meta({ id: "UpdateProductSupplierBody" });

export const productSupplierListQuery = listQuery({
  sort: ["supplierName", "cost", "createdAt"],
  defaultSort: "supplierName",
});

// ---------------------------------------------------------------- lookups

export const lookupSchema = z.object({
  id: uuid,
  value: z.string(),
  label: z.string(),
  isBuiltIn: z.boolean(),
}).meta({ id: "LookupValue" });

export const createLookupBody = z.strictObject({
  value: z.string().trim().min(1).max(50).regex(
    LOOKUP_VALUE_PATTERN,
    "Expected lowercase snake_case (a-z, 0-9, _), starting with a letter",
  ),
  label: text(100),
}).meta({ id: "CreateLookupValueBody" });

// ---------------------------------------------------------------- units

const lookupValue = z.string().trim().min(1).max(50);

export const unitSchema = z.object({
  id: uuid,
  productId: uuid,
  serialNumber: z.string().nullable(),
  status: z.string(),
  condition: z.string(),
  notes: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).meta({ id: "Unit" });

export const createUnitBody = z.strictObject({
  serialNumber: optionalText(100),
  status: lookupValue.default("in_stock"),
  condition: lookupValue.default("new"),
  notes: optionalText(5000),
}).meta({ id: "CreateUnitBody" });

export const updateUnitBody = z.strictObject({
  serialNumber: optionalText(100),
  status: lookupValue.optional(),
  condition: lookupValue.optional(),
  notes: optionalText(5000),
}).meta({ id: "UpdateUnitBody" });

export const unitListQuery = listQuery({
  sort: ["serialNumber", "status", "createdAt", "updatedAt"],
  defaultSort: "createdAt",
  filters: { status: lookupValue.optional(), condition: lookupValue.optional() },
});

// ---------------------------------------------------------------- stock receipts

export const stockReceiptSchema = z.object({
  id: uuid,
  productId: uuid,
  supplierId: uuid,
  quantity: z.int(),
  costPerUnit: moneyString,
  totalCost: moneyString,
  invoiceNumber: z.string().nullable(),
  stockIncremented: z.boolean().describe(
    "false for serialized products, which receive units instead",
  ),
  receivedAt: z.string(),
  createdBy: uuid.nullable(),
  createdAt: z.string(),
  product: z.object({ id: uuid, name: z.string(), sku: z.string(), qtyOnHand: z.int() }),
  supplier: z.object({ id: uuid, name: z.string() }),
}).meta({ id: "StockReceipt" });

export const createStockReceiptBody = z.strictObject({
  productId: uuid,
  supplierId: uuid,
  quantity: z.int().min(1).max(1_000_000),
  costPerUnit: nonNegativeMoney,
  invoiceNumber: optionalText(100),
  receivedAt: timestamp.optional(),
}).meta({ id: "CreateStockReceiptBody" });

export const stockReceiptListQuery = listQuery({
  sort: ["receivedAt", "createdAt"],
  defaultSort: "receivedAt",
  defaultOrder: "desc",
  filters: { productId: uuid.optional(), supplierId: uuid.optional() },
});

// ---------------------------------------------------------------- consignment

export const consignmentSchema = z.object({
  productId: uuid,
  consignorAccountId: uuid,
  commissionPercent: z.string(),
  minimumPrice: moneyString,
  agreementDate: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).meta({ id: "Consignment" });

export const putConsignmentBody = z.strictObject({
  consignorAccountId: uuid,
  commissionPercent: percent,
  minimumPrice: nonNegativeMoney,
  agreementDate: isoDate,
}).meta({ id: "PutConsignmentBody" });

// ---------------------------------------------------------------- shelf labels (API §17)

export const MAX_LABEL_PRODUCTS = 500;
export const MAX_LABEL_COPIES = 100;

export const labelLayout = z.enum(LABEL_LAYOUTS);

export const labelSheetBody = z.strictObject({
  productIds: z.array(uuid).min(1).max(MAX_LABEL_PRODUCTS).describe(
    `1..${MAX_LABEL_PRODUCTS} product ids; labels follow this order (an id listed twice prints twice)`,
  ),
  copies: z.int().min(1).max(MAX_LABEL_COPIES).default(1).describe("Labels per listed product"),
  layout: labelLayout.default("avery5160").describe(
    "avery5160: US Letter sheets of 30 (3 × 10) 2.625 × 1 in labels; roll57: 57 × 32 mm roll, " +
      "one label a page",
  ),
}).meta({ id: "LabelSheetBody" });
export type LabelSheetInput = z.output<typeof labelSheetBody>;

export const labelQuery = z.strictObject({
  layout: labelLayout.default("avery5160").describe(
    "The label's size: avery5160 (2.625 × 1 in, default) or roll57 (57 × 32 mm)",
  ),
});

/** The query of a label opened by URL (no `Accept` to choose by): the format and the size. */
export const labelFileQuery = labelQuery.extend({
  format: z.enum(["pdf", "png"]).default("pdf").describe(
    "pdf (default): a one-page PDF the size of the label; png: a 300-dpi grayscale PNG",
  ),
});
