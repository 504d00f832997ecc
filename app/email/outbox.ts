/**
 * Queuing email: the message is written to `email_outbox` in the caller's transaction
 * (so it exists exactly when the action committed) and delivered later by the worker.
 * Bodies are stored encrypted (`deps.outboxCipher`, see outbox_cipher.ts). Only subject and
 * recipient are ever logged.
 */
import type { Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import { insertOutboxMessage } from "./outbox_repo.ts";

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
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
    bodyEncrypted: await deps.outboxCipher.encrypt(message.text),
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
