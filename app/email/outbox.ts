/**
 * Queuing email: the message is written to `email_outbox` in the caller's transaction
 * (so it exists exactly when the action committed) and delivered later by the worker.
 * Bodies are stored encrypted (`deps.outboxCipher`, see outbox_cipher.ts). Only subject and
 * recipient are ever logged. A message may carry an HTML part beside its text (sent as
 * multipart/alternative): both parts are stored in the one encrypted body (`encodeBody`).
 */
import type { Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import { insertOutboxMessage } from "./outbox_repo.ts";

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative of `text` (e.g. an emailed receipt's printable page). */
  html?: string;
}

export interface EmailBody {
  text: string;
  html?: string;
}

/**
 * A body with an HTML part is stored as this marker and the JSON of both parts; a text-only
 * body is stored as the text itself (as before HTML parts existed). Text bodies never hold a
 * NUL character, so the marker cannot be mistaken for one.
 */
const PARTS_MARKER = "\u0000parts:v1\n";

/** The plain text of the stored body (before encryption). */
export function encodeBody(body: EmailBody): string {
  if (body.html === undefined) return body.text;
  return PARTS_MARKER + JSON.stringify({ text: body.text, html: body.html });
}

/** The parts of a stored body (after decryption). */
export function decodeBody(stored: string): EmailBody {
  if (!stored.startsWith(PARTS_MARKER)) return { text: stored };
  const parts = JSON.parse(stored.slice(PARTS_MARKER.length)) as { text: string; html: string };
  return { text: parts.text, html: parts.html };
}

/** Writes the message to the outbox with `trx` (the transaction of the action). */
export async function enqueueEmail(
  trx: Db,
  deps: Pick<AppDeps, "config" | "clock" | "ids" | "logger" | "outboxCipher">,
  message: EmailMessage,
): Promise<string> {
  const id = deps.ids.uuid();
  await insertOutboxMessage(trx, {
    id,
    toAddress: message.to,
    subject: message.subject,
    bodyEncrypted: await deps.outboxCipher.encrypt(
      encodeBody({ text: message.text, html: message.html }),
    ),
    now: deps.clock.now(),
  });
  deps.logger.info("email queued", {
    emailId: id,
    to: message.to,
    subject: message.subject,
    delivery: deps.config.smtpUrl ? "smtp" : "outbox only (SMTP_URL not set)",
  });
  return id;
}
