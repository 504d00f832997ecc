/** All SQL of outgoing email: the outbox a worker delivers from. */
import { sql } from "kysely";
import type { Db } from "../db/database.ts";

export interface OutboxMessage {
  id: string;
  toAddress: string;
  subject: string;
  bodyEncrypted: string | null;
  attempts: number;
}

export async function insertOutboxMessage(db: Db, values: {
  id: string;
  toAddress: string;
  subject: string;
  bodyEncrypted: string;
  now: Date;
}): Promise<void> {
  await db.insertInto("email_outbox").values({
    id: values.id,
    to_address: values.toAddress,
    subject: values.subject,
    body_encrypted: values.bodyEncrypted,
    next_attempt_at: values.now,
    created_at: values.now,
  }).execute();
}

/**
 * Claims up to `limit` due messages for one delivery attempt: counts the attempt and leases
 * them (`next_attempt_at` moves ahead) so no other worker picks them up meanwhile;
 * `SKIP LOCKED` lets several processes claim side by side.
 */
export async function claimDueMessages(
  db: Db,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<OutboxMessage[]> {
  const result = await sql<OutboxMessage>`
    UPDATE email_outbox SET attempts = attempts + 1, next_attempt_at = ${leaseUntil}
    WHERE id IN (
      SELECT id FROM email_outbox
      WHERE status = 'pending' AND next_attempt_at <= ${now}
      ORDER BY next_attempt_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id, to_address AS "toAddress", subject, body_encrypted AS "bodyEncrypted", attempts`
    .execute(db);
  return result.rows;
}

/** Delivered: the body (which may hold a link) is not kept. */
export async function markMessageSent(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable("email_outbox")
    .set({ status: "sent", sent_at: now, body_encrypted: null, last_error: null })
    .where("id", "=", id).execute();
}

export async function markMessageFailed(db: Db, id: string, values: {
  giveUp: boolean;
  nextAttemptAt: Date;
  error: string;
}): Promise<void> {
  await db.updateTable("email_outbox").set({
    status: values.giveUp ? "failed" : "pending",
    next_attempt_at: values.nextAttemptAt,
    last_error: values.error.slice(0, 500),
    ...(values.giveUp ? { body_encrypted: null } : {}),
  }).where("id", "=", id).execute();
}
