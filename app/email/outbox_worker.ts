/**
 * Delivers the outbox over SMTP (`SMTP_URL`): due messages are claimed (several processes
 * may run workers side by side), sent, and marked sent; a failure is retried with
 * exponential backoff (`attempts`, `next_attempt_at`, `last_error`) until it is given up.
 * Without `SMTP_URL` no worker runs: messages stay in the outbox.
 */
import { createTransport } from "nodemailer";
import { retryDelaySeconds, shouldGiveUp } from "../../domain/email/backoff.ts";
import type { AppDeps } from "../deps.ts";
import { decodeBody } from "./outbox.ts";
import { claimDueMessages, markMessageFailed, markMessageSent } from "./outbox_repo.ts";

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  /** Sent as the HTML alternative of `text` (multipart/alternative). */
  html?: string;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export function smtpTransport(smtpUrl: string): MailTransport {
  const transporter = createTransport(smtpUrl);
  return {
    async send(mail) {
      await transporter.sendMail(mail);
    },
    close() {
      transporter.close();
    },
  };
}

/** How long a claimed message is reserved for the worker that claimed it. */
const LEASE_SECONDS = 120;
const BATCH_SIZE = 20;

export interface DeliveryReport {
  sent: number;
  retrying: number;
  failed: number;
}

/** One pass: claims the due messages and tries each once. */
export async function deliverDueEmails(
  deps: Pick<AppDeps, "db" | "clock" | "config" | "logger" | "outboxCipher">,
  transport: MailTransport,
): Promise<DeliveryReport> {
  const report: DeliveryReport = { sent: 0, retrying: 0, failed: 0 };
  const now = deps.clock.now();
  const claimed = await claimDueMessages(
    deps.db,
    now,
    new Date(now.getTime() + LEASE_SECONDS * 1000),
    BATCH_SIZE,
  );
  for (const message of claimed) {
    try {
      if (!message.bodyEncrypted) throw new Error("The message has no body");
      const stored = await deps.outboxCipher.decrypt(message.bodyEncrypted).catch(() => {
        throw new Error("The message body cannot be decrypted (JWT_SECRET changed?)");
      });
      const body = decodeBody(stored);
      await transport.send({
        from: deps.config.mailFrom,
        to: message.toAddress,
        subject: message.subject,
        text: body.text,
        ...(body.html === undefined ? {} : { html: body.html }),
      });
      await markMessageSent(deps.db, message.id, deps.clock.now());
      report.sent++;
      deps.logger.info("email sent", { emailId: message.id, to: message.toAddress });
    } catch (error) {
      const giveUp = shouldGiveUp(message.attempts);
      const failedAt = deps.clock.now();
      await markMessageFailed(deps.db, message.id, {
        giveUp,
        nextAttemptAt: new Date(failedAt.getTime() + retryDelaySeconds(message.attempts) * 1000),
        error: error instanceof Error ? error.message : String(error),
      });
      if (giveUp) report.failed++;
      else report.retrying++;
      deps.logger.warn(giveUp ? "email given up" : "email delivery failed; will retry", {
        emailId: message.id,
        attempts: message.attempts,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return report;
}

export interface Worker {
  stop(): Promise<void>;
}

/** Polls the outbox every `intervalMs` while SMTP is configured; undefined otherwise. */
export function startOutboxWorker(
  deps: AppDeps,
  options: { intervalMs?: number; transport?: MailTransport } = {},
): Worker | undefined {
  const transport = options.transport ??
    (deps.config.smtpUrl ? smtpTransport(deps.config.smtpUrl) : undefined);
  if (!transport) {
    if (deps.config.env === "production") {
      deps.logger.warn(
        "SMTP_URL is not set: no email goes out (password resets, repair pickups, reminders " +
          "stay in the outbox); set SMTP_URL and MAIL_FROM",
      );
    } else deps.logger.info("SMTP_URL is not set: emails stay in the outbox");
    return undefined;
  }
  const intervalMs = options.intervalMs ?? 5000;
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = () => {
    if (stopped) return;
    running = deliverDueEmails(deps, transport)
      .catch((error) =>
        deps.logger.error("email worker pass failed", {
          error: error instanceof Error ? error.message : String(error),
        })
      )
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  timer = setTimeout(tick, 0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      transport.close();
    },
  };
}
