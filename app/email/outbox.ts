/**
 * Queuing email: the message is written to `email_outbox` in the caller's transaction
 * (so it exists exactly when the action committed) and delivered later by the worker.
 * Bodies are encrypted with AES-GCM under a key derived from JWT_SECRET (a reset link in
 * the outbox is then no usable token); without JWT_SECRET the key is per process, like the
 * token secret. Only subject and recipient are ever logged.
 */
import type { AppConfig } from "../config.ts";
import type { Db } from "../db/database.ts";
import type { Clock, Ids } from "../ids.ts";
import type { Logger } from "../logger.ts";
import { insertOutboxMessage } from "./outbox_repo.ts";

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

let processKey: Promise<CryptoKey> | undefined;
const keysBySecret = new Map<string, Promise<CryptoKey>>();

async function deriveKey(secret: Uint8Array): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", secret as BufferSource, "HKDF", false, [
    "deriveKey",
  ]);
  return await crypto.subtle.deriveKey(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: new TextEncoder().encode("shop.email_outbox"),
      info: new Uint8Array(),
    },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

function outboxKey(config: Pick<AppConfig, "jwtSecret">): Promise<CryptoKey> {
  if (!config.jwtSecret) {
    processKey ??= deriveKey(crypto.getRandomValues(new Uint8Array(32)));
    return processKey;
  }
  let key = keysBySecret.get(config.jwtSecret);
  if (!key) {
    key = deriveKey(new TextEncoder().encode(config.jwtSecret));
    keysBySecret.set(config.jwtSecret, key);
  }
  return key;
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

export async function encryptBody(config: Pick<AppConfig, "jwtSecret">, text: string) {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const cipher = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-GCM", iv },
      await outboxKey(config),
      new TextEncoder().encode(text),
    ),
  );
  return `v1.${toBase64(iv)}.${toBase64(cipher)}`;
}

/** Throws when the body was encrypted under another key (e.g. a dev restart). */
export async function decryptBody(
  config: Pick<AppConfig, "jwtSecret">,
  stored: string,
): Promise<string> {
  const [version, iv, cipher] = stored.split(".");
  if (version !== "v1" || !iv || !cipher) throw new Error("Unknown outbox body format");
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64(iv) as BufferSource },
    await outboxKey(config),
    fromBase64(cipher) as BufferSource,
  );
  return new TextDecoder().decode(plain);
}

/** Writes the message to the outbox with `trx` (the transaction of the action). */
export async function enqueueEmail(
  trx: Db,
  deps: { config: AppConfig; clock: Clock; ids: Ids; logger: Logger },
  message: EmailMessage,
): Promise<string> {
  const id = deps.ids.uuid();
  await insertOutboxMessage(trx, {
    id,
    toAddress: message.to,
    subject: message.subject,
    bodyEncrypted: await encryptBody(deps.config, message.text),
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
