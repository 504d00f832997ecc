/** Table types of outgoing email: the transactional outbox. */
import type { Generated } from "kysely";
import type { Timestamp } from "../db/column_types.ts";

export interface EmailOutboxTable {
  id: string;
  to_address: string;
  subject: string;
  /** AES-GCM encrypted body: its text, or text and HTML parts (outbox.ts `encodeBody`); it may
   * hold a reset link; null once delivered. */
  body_encrypted: string | null;
  status: Generated<"pending" | "sent" | "failed">;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  last_error: string | null;
  created_at: Timestamp;
  sent_at: Timestamp | null;
}

export interface EmailTables {
  email_outbox: EmailOutboxTable;
}
