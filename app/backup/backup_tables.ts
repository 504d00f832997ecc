/** Table types of the backup feature. */
import type { Numeric, Timestamp } from "../db/column_types.ts";

export interface BackupRunTable {
  id: string;
  finished_at: Timestamp;
  location: string;
  /** bigint, read as a number (int8 parser). */
  bytes: number;
  tables: number;
  rows: number;
  files: number;
  seconds: Numeric;
  schema_version: string;
}

export interface BackupTables {
  backup_runs: BackupRunTable;
}
