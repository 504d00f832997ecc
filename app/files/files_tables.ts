/** Table types of files attached to records. */
import type { Timestamp } from "../db/column_types.ts";

export interface FileTable {
  id: string;
  entity_type: string;
  entity_id: string;
  category: string | null;
  content_type: string;
  size: number;
  path: string;
  uploaded_by: string | null;
  created_at: Timestamp;
}

export interface FilesTables {
  files: FileTable;
}
