/** Table types of inventory: catalogue, suppliers, units, lookups, receipts, consignment. */
import type { ColumnType, Generated } from "kysely";
import type { AddressColumn, GeneratedText, Numeric, Timestamp } from "../db/column_types.ts";
import type { ProductType } from "../../domain/inventory/products.ts";

/** Product types are a domain rule (`PRODUCT_TYPES`); the column holds one of them. */
export type { ProductType };
export type TaxCategory = "goods" | "service";

export interface CategoryTable {
  id: string;
  name: string;
  parent_id: string | null;
  sort_order: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface SupplierTable {
  id: string;
  name: string;
  contact_name: string | null;
  email: string | null;
  phone: string | null;
  address: AddressColumn;
  account_number: string | null;
  payment_terms: string | null;
  search_text: GeneratedText;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface ProductTable {
  id: string;
  name: string;
  sku: string;
  upc: string | null;
  description: string | null;
  category_id: string | null;
  type: ColumnType<ProductType, ProductType | undefined, ProductType>;
  price: Numeric;
  cost: Numeric | null;
  is_dual_use_repair: Generated<boolean>;
  is_consumable: Generated<boolean>;
  qty_on_hand: Generated<number>;
  reorder_point: Generated<number>;
  is_active: Generated<boolean>;
  tax_category: ColumnType<TaxCategory, TaxCategory | undefined, TaxCategory>;
  search_text: GeneratedText;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface ProductPriceHistoryTable {
  id: string;
  product_id: string;
  price: Numeric;
  previous_price: Numeric | null;
  changed_by: string | null;
  changed_at: Timestamp;
}

export interface ProductSupplierTable {
  id: string;
  product_id: string;
  supplier_id: string;
  supplier_sku: string | null;
  cost: Numeric | null;
  is_preferred: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface LookupTable {
  id: string;
  value: string;
  label: string;
  is_built_in: Generated<boolean>;
  created_at: Timestamp;
}

export interface UnitTable {
  id: string;
  product_id: string;
  serial_number: string | null;
  status: string;
  condition: string;
  notes: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

/** One row per unit creation and per change of its status or condition (its life story). */
export interface UnitHistoryTable {
  id: string;
  unit_id: string;
  seq: ColumnType<number, never, never>;
  kind: "created" | "changed";
  status: string;
  condition: string;
  source: string;
  actor_id: string | null;
  at: Timestamp;
}

export interface StockReceiptTable {
  id: string;
  product_id: string;
  supplier_id: string;
  quantity: number;
  cost_per_unit: Numeric;
  invoice_number: string | null;
  stock_incremented: boolean;
  received_at: Timestamp;
  created_by: string | null;
  created_at: Timestamp;
}

export interface ConsignmentTable {
  product_id: string;
  consignor_account_id: string;
  commission_percent: Numeric;
  minimum_price: Numeric;
  agreement_date: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface InventoryTables {
  categories: CategoryTable;
  suppliers: SupplierTable;
  products: ProductTable;
  product_price_history: ProductPriceHistoryTable;
  product_suppliers: ProductSupplierTable;
  unit_statuses: LookupTable;
  item_conditions: LookupTable;
  units: UnitTable;
  unit_history: UnitHistoryTable;
  stock_receipts: StockReceiptTable;
  consignments: ConsignmentTable;
}
