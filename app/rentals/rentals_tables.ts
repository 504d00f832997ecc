/** Table types of the rentals feature (migration 20261125_130000_create_rentals). */
import type { ColumnType, RawBuilder } from "kysely";
import type { BillingInterval } from "../../domain/rentals/periods.ts";
import type { RentalStatus } from "../../domain/rentals/rental_status.ts";
import type { DateColumn, Numeric, NumericDefault, Timestamp } from "../db/column_types.ts";

export interface RentalTable {
  id: string;
  /** The identity behind `rentalNumber` (L-000123). */
  number: ColumnType<number, never, never>;
  account_id: string;
  member_id: string | null;
  product_id: string;
  unit_id: string;
  start_date: DateColumn;
  due_date: DateColumn | null;
  billing_interval: BillingInterval;
  rate: Numeric;
  deposit: Numeric | null;
  rent_to_own_price: Numeric | null;
  rent_to_own_percent: Numeric | null;
  status: ColumnType<RentalStatus, RentalStatus | undefined, RentalStatus>;
  notes: string | null;
  return_condition: string | null;
  return_notes: string | null;
  returned_at: Timestamp | null;
  returned_by: string | null;
  cancelled_at: Timestamp | null;
  cancelled_by: string | null;
  purchased_at: Timestamp | null;
  purchase_transaction_id: string | null;
  /**
   * The due date of the oldest unpaid charge, null when none (migration
   * 20261130_100000_add_rental_unpaid_since); written only by charges_repo.ts.
   */
  unpaid_since: ColumnType<string | null, never, string | null>;
  /**
   * The account's name and the member's full name, lowered, joined by chr(31): the list's `q`
   * (migration 20261203_100000_rental_enrollment_name_search); written only by
   * rentals_repo.ts (`rentalSearchText`).
   */
  search: ColumnType<string, RawBuilder<string>, RawBuilder<string>>;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

export type ChargeStatus = "unpaid" | "paid";

export interface RentalChargeTable {
  id: string;
  rental_id: string;
  period_start: DateColumn;
  period_end: DateColumn;
  due_date: DateColumn;
  amount: Numeric;
  status: ColumnType<ChargeStatus, ChargeStatus | undefined, ChargeStatus>;
  paid_transaction_id: string | null;
  paid_at: Timestamp | null;
  /** The rent-to-own equity the charge accrued when it was paid (0 while unpaid). */
  equity: NumericDefault;
  /**
   * The completed buyout sale whose payoff counted this charge's equity (migration
   * 20261204_100000_add_rental_charge_buyout): while set, the charge stays paid.
   */
  buyout_transaction_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RentalsTables {
  rentals: RentalTable;
  rental_charges: RentalChargeTable;
}
