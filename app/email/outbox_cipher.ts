/**
 * The encryption of outbox bodies: AES-GCM under a key derived (HKDF) from JWT_SECRET, so a
 * reset link in the outbox is no usable token; without JWT_SECRET the key is random for the
 * cipher's lifetime (one process), like the token secret. `createDeps` makes one per app.
 */
import { fromBase64, toBase64 } from "../../domain/base64.ts";

export interface OutboxCipher {
  encrypt(text: string): Promise<string>;
  /** Throws when the body was encrypted under another key (e.g. a dev restart). */
  decrypt(stored: string): Promise<string>;
}

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

/** The key is derived once, on first use. */
export function createOutboxCipher(jwtSecret: string | undefined): OutboxCipher {
  let key: Promise<CryptoKey> | undefined;
  const outboxKey = () =>
    key ??= deriveKey(
      jwtSecret ? new TextEncoder().encode(jwtSecret) : crypto.getRandomValues(new Uint8Array(32)),
    );
  return {
    async encrypt(text) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const cipher = new Uint8Array(
        await crypto.subtle.encrypt(
          { name: "AES-GCM", iv },
          await outboxKey(),
          new TextEncoder().encode(text),
        ),
      );
      return `v1.${toBase64(iv)}.${toBase64(cipher)}`;
    },
    async decrypt(stored) {
      const [version, ivText, cipherText] = stored.split(".");
      const iv = ivText === undefined ? undefined : fromBase64(ivText);
      const cipher = cipherText === undefined ? undefined : fromBase64(cipherText);
      if (version !== "v1" || !iv || !cipher) throw new Error("Unknown outbox body format");
      const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv }, await outboxKey(), cipher);
      return new TextDecoder().decode(plain);
    },
  };
}
