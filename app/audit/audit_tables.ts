/** Table types of the audit log (API §14). */
import type { ColumnType, RawBuilder } from "kysely";
import type { Timestamp } from "../db/column_types.ts";

export type AuditDetails = Record<string, unknown>;

export interface AuditLogTable {
  id: string;
  at: Timestamp;
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  entity_type: string | null;
  entity_id: string | null;
  details: ColumnType<AuditDetails, RawBuilder<unknown>, RawBuilder<unknown>>;
}

export interface AuditTables {
  audit_log: AuditLogTable;
}
