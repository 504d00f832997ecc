/**
 * Signed file URLs: `…/v1/files/serve/<path>?expires=<unix seconds>&signature=<hex>`, where
 * signature = HMAC-SHA256(key, "<fileId>.<expires>"). The key is derived from JWT_SECRET
 * (HMAC of a fixed label, so it never equals the token key), or from a random per-process
 * secret when JWT_SECRET is unset (development: URLs then die with the process).
 */
import type { AppConfig } from "../config.ts";

export const DEFAULT_URL_TTL_SECONDS = 15 * 60;

const processSecret = crypto.getRandomValues(new Uint8Array(32));
const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(raw: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    "raw",
    raw as BufferSource,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
}

function signingKey(config: Pick<AppConfig, "jwtSecret">): Promise<CryptoKey> {
  const cacheKey = config.jwtSecret ?? "";
  let key = keys.get(cacheKey);
  if (!key) {
    key = (async () => {
      const secret = config.jwtSecret ? new TextEncoder().encode(config.jwtSecret) : processSecret;
      const derived = await crypto.subtle.sign(
        "HMAC",
        await hmacKey(secret),
        new TextEncoder().encode("shop file url signing v1"),
      );
      return hmacKey(new Uint8Array(derived));
    })();
    keys.set(cacheKey, key);
  }
  return key;
}

/** `purpose` ("" for files attached to records) keeps the signatures of serve routes apart. */
async function signature(
  config: Pick<AppConfig, "jwtSecret">,
  fileId: string,
  expires: number,
  purpose = "",
) {
  const mac = await crypto.subtle.sign(
    "HMAC",
    await signingKey(config),
    new TextEncoder().encode(`${purpose}${fileId.toLowerCase()}.${expires}`),
  );
  return Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, "0")).join("");
}

export function signFileUrl(
  config: Pick<AppConfig, "jwtSecret" | "publicUrl">,
  file: { id: string; path: string },
  now: Date,
  ttlSeconds = DEFAULT_URL_TTL_SECONDS,
): Promise<{ url: string; expiresAt: string }> {
  const expires = Math.floor(now.getTime() / 1000) + ttlSeconds;
  return signUrlFor(config, file.id, `${config.publicUrl}/v1/files/serve/${file.path}`, expires);
}

/**
 * A signed URL serving `fileId` at `routeUrl` (absolute, without a query) until `expires`
 * (Unix seconds), for serve routes other than /files/serve (the storage hub's, with its own
 * `purpose`, so a signature made for one route is worthless on another). The same inputs give
 * the same URL.
 */
export async function signUrlFor(
  config: Pick<AppConfig, "jwtSecret">,
  fileId: string,
  routeUrl: string,
  expires: number,
  purpose = "",
): Promise<{ url: string; expiresAt: string }> {
  const sig = await signature(config, fileId, expires, purpose);
  return {
    url: `${routeUrl}?expires=${expires}&signature=${sig}`,
    expiresAt: new Date(expires * 1000).toISOString(),
  };
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Whether `expires`/`signature` (raw query values) are a valid, unexpired signature. */
export async function verifyFileSignature(
  config: Pick<AppConfig, "jwtSecret">,
  fileId: string,
  expires: string | undefined,
  sig: string | undefined,
  now: Date,
  purpose = "",
): Promise<boolean> {
  if (!expires || !sig || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(sig)) {
    return false;
  }
  const expiresAt = Number(expires);
  if (expiresAt * 1000 <= now.getTime()) return false;
  return constantTimeEqual(await signature(config, fileId, expiresAt, purpose), sig);
}
