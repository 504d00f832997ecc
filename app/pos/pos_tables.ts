/** Table types of the point of sale: registers, drawers, adjustments, transactions. */
import type { ColumnType, Generated, JSONColumnType } from "kysely";
import type { Numeric, NumericDefault, Timestamp } from "../db/column_types.ts";

export interface RegisterTable {
  id: string;
  name: string;
  location_id: string;
  is_active: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DrawerSessionTable {
  id: string;
  register_id: string;
  location_id: string;
  status: ColumnType<"open" | "closed", "open" | "closed" | undefined, "open" | "closed">;
  opening_balance: Numeric;
  /** This and the next two are numeric(16,2): a session sums many numeric(12,2) amounts. */
  closing_balance: Numeric | null;
  expected_balance: Numeric | null;
  over_short: Numeric | null;
  notes: string | null;
  z_report: JSONColumnType<Record<string, unknown> | null, never, never> | null;
  opened_by: string | null;
  closed_by: string | null;
  opened_at: Timestamp;
  closed_at: Timestamp | null;
}

export interface DrawerAdjustmentTable {
  id: string;
  drawer_session_id: string;
  direction: "in" | "out";
  amount: Numeric;
  reason: string;
  created_by: string | null;
  approved_by: string | null;
  created_at: Timestamp;
}

export type TransactionType = "sale" | "repair_payment" | "rental_payment" | "refund";
export type TransactionStatus = "pending" | "complete" | "voided";

export interface TransactionTable {
  id: string;
  number: ColumnType<number, never, never>;
  type: TransactionType;
  status: TransactionStatus;
  location_id: string;
  register_id: string | null;
  account_id: string | null;
  drawer_session_id: string | null;
  repair_ticket_id: string | null;
  /** A buyout sale's rental (API §13). */
  rental_id: string | null;
  original_transaction_id: string | null;
  discount_kind: "percent" | "amount" | null;
  discount_value: Numeric | null;
  /**
   * The discount share a manager approved, `part / whole` (both `numeric` integers in cents ×
   * basis points, domain/pos/price_reductions.ts), and who; all three null when none did.
   */
  discount_approved_part: Numeric | null;
  discount_approved_whole: Numeric | null;
  discount_approved_by: string | null;
  subtotal: NumericDefault;
  discount_total: NumericDefault;
  tax_total: NumericDefault;
  total: NumericDefault;
  amount_paid: NumericDefault;
  tax_exempt: Generated<boolean>;
  tax_exempt_certificate: string | null;
  reason: string | null;
  void_reason: string | null;
  created_by: string | null;
  approved_by: string | null;
  completed_by: string | null;
  voided_by: string | null;
  void_approved_by: string | null;
  completed_at: Timestamp | null;
  voided_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TransactionItemTable {
  id: string;
  transaction_id: string;
  kind: "sale" | "labor" | "part";
  product_id: string | null;
  unit_id: string | null;
  original_item_id: string | null;
  /** The rental charge a rental_payment line pays (API §13). */
  rental_charge_id: string | null;
  description: string;
  quantity: number;
  unit_price: Numeric;
  tax_category: "goods" | "service";
  is_consumable: Generated<boolean>;
  gross: NumericDefault;
  discount: NumericDefault;
  net: NumericDefault;
  tax: NumericDefault;
  refunded_quantity: Generated<number>;
  refunded_net: NumericDefault;
  refunded_tax: NumericDefault;
  created_at: Timestamp;
}

export interface PaymentTable {
  id: string;
  transaction_id: string;
  method: "cash" | "card" | "check" | "store_credit" | "other";
  amount: Numeric;
  tendered: Numeric;
  change: NumericDefault;
  reference: string | null;
  is_refund: Generated<boolean>;
  created_by: string | null;
  created_at: Timestamp;
}

export interface PosTables {
  registers: RegisterTable;
  drawer_sessions: DrawerSessionTable;
  drawer_adjustments: DrawerAdjustmentTable;
  transactions: TransactionTable;
  transaction_items: TransactionItemTable;
  payments: PaymentTable;
}
