/** Reading the email outbox in tests: the rows as stored and the decrypted bodies. */
import { sql } from "kysely";
import type { TestApp } from "../_helpers/test_app.ts";
import { decodeBody, type EmailBody } from "../../app/email/outbox.ts";

export interface OutboxRow {
  id: string;
  toAddress: string;
  subject: string;
  bodyEncrypted: string | null;
  status: string;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
}

/** The outbox messages to `email` (any case), oldest first, as stored. */
export function outboxTo(t: TestApp, email: string): Promise<OutboxRow[]> {
  return t.deps.db.selectFrom("email_outbox").select([
    "id",
    "to_address as toAddress",
    "subject",
    "body_encrypted as bodyEncrypted",
    "status",
    "attempts",
    "next_attempt_at as nextAttemptAt",
    "last_error as lastError",
    "created_at as createdAt",
    "sent_at as sentAt",
  ]).where(sql`lower(to_address)`, "=", email.toLowerCase())
    .orderBy("created_at").orderBy("id").execute();
}

/** The decrypted text bodies of the outbox messages to `email`, oldest first. */
export async function mailsTo(t: TestApp, email: string): Promise<string[]> {
  return (await mailPartsTo(t, email)).map((body) => body.text);
}

/** The decrypted bodies (text, and HTML when the message has that part), oldest first. */
export async function mailPartsTo(t: TestApp, email: string): Promise<EmailBody[]> {
  const rows = await outboxTo(t, email);
  return await Promise.all(
    rows.map(async (r) => decodeBody(await t.deps.outboxCipher.decrypt(r.bodyEncrypted!))),
  );
}
