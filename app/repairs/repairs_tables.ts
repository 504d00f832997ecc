/** Table types of the repairs feature (migration 20261125_100000_create_repairs). */
import type { ColumnType, Generated, JSONColumnType } from "kysely";
import type { BatchStatus } from "../../domain/repairs/batch_status.ts";
import type { RepairStatus } from "../../domain/repairs/status_machine.ts";
import type { RepairLineKind } from "../../domain/repairs/ticket_money.ts";
import type {
  DateColumn,
  GeneratedText,
  Numeric,
  NumericDefault,
  Timestamp,
} from "../db/column_types.ts";

export type ApprovalMethod = "in_person" | "phone" | "email" | "sms";
export type NoteVisibility = "internal" | "customer";

/** A default line item of a service template, as stored (money as text). */
export interface TemplateLineItem {
  kind: RepairLineKind;
  description: string | null;
  quantity: number;
  unitPrice: string | null;
  productId: string | null;
}

export interface ServiceTemplateTable {
  id: string;
  name: string;
  description: string | null;
  item_category: string;
  default_line_items: JSONColumnType<TemplateLineItem[], TemplateLineItem[], TemplateLineItem[]>;
  estimated_minutes: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface RepairBatchTable {
  id: string;
  name: string;
  account_id: string;
  notes: string | null;
  status: ColumnType<BatchStatus, BatchStatus | undefined, BatchStatus>;
  submitted_at: Timestamp | null;
  submitted_by: string | null;
  decided_at: Timestamp | null;
  decided_by: string | null;
  decision_note: string | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface RepairTicketTable {
  id: string;
  ticket_number: string;
  account_id: string;
  member_id: string | null;
  status: ColumnType<RepairStatus, RepairStatus | undefined, RepairStatus>;
  status_before_cancel: RepairStatus | null;
  status_version: Generated<number>;
  status_changed_at: Timestamp;
  item_description: string;
  item_count: Generated<number>;
  serial_number: string | null;
  batch_id: string | null;
  service_template_id: string | null;
  estimate: Numeric | null;
  due_date: DateColumn | null;
  location_id: string | null;
  customer_total: NumericDefault;
  internal_cost: NumericDefault;
  estimate_approved_amount: Numeric | null;
  estimate_approved_by_name: string | null;
  estimate_approval_method: ApprovalMethod | null;
  estimate_approval_note: string | null;
  estimate_approval_recorded_by: string | null;
  estimate_approved_at: Timestamp | null;
  intake_at: Timestamp | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
  search: GeneratedText;
}

export interface RepairTicketHistoryTable {
  id: string;
  ticket_id: string;
  seq: number;
  from_status: RepairStatus;
  to_status: RepairStatus;
  note: string | null;
  changed_by: string | null;
  changed_at: Timestamp;
}

export interface RepairLineItemTable {
  id: string;
  ticket_id: string;
  kind: RepairLineKind;
  description: string;
  quantity: number;
  unit_price: Numeric;
  product_id: string | null;
  is_internal: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /**
   * What the line holds from stock (migration 20261204_130000_add_repair_line_stock): null and
   * 0 for none, as every line written before repair parts took stock.
   */
  stock_product_id: string | null;
  stock_quantity: Generated<number>;
}

export interface RepairNoteTable {
  id: string;
  ticket_id: string;
  content: string;
  visibility: NoteVisibility;
  author_id: string | null;
  ticket_status: RepairStatus;
  created_at: Timestamp;
}

export interface RepairsTables {
  service_templates: ServiceTemplateTable;
  repair_batches: RepairBatchTable;
  repair_tickets: RepairTicketTable;
  repair_ticket_history: RepairTicketHistoryTable;
  repair_line_items: RepairLineItemTable;
  repair_notes: RepairNoteTable;
}
