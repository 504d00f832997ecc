/**
 * Signed file URLs: `…/v1/files/serve/<path>?expires=<unix seconds>&signature=<hex>`, where
 * signature = HMAC-SHA256(key, "<fileId>.<expires>"). Other serve routes sign their own
 * purpose too, and may bind a generation (`&generation=<n>`, signed as
 * "<purpose><fileId>.<expires>.<n>"): the route's owner compares it with the file's current one
 * on use, so a change of access it records revokes the URLs signed before (the storage hub's,
 * app/storage/storage_files.ts). Printouts (a receipt's page, a shelf label, API §17) are
 * signed the same way for their own purpose (`signPrintoutUrl`). The key is derived from
 * JWT_SECRET (HMAC of a fixed label, so it never equals the token key), or from a random
 * per-process secret when JWT_SECRET is unset (development: URLs then die with the process).
 */
import { ForbiddenError } from "../../domain/errors.ts";
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

/** What a signature binds besides the file id and expiry. */
export interface LinkScope {
  /** Keeps the signatures of serve routes apart ("" for files attached to records). */
  purpose: string;
  /** The file's access generation at signing, when its route compares one on use. */
  generation?: number;
}

const RECORD_FILES: LinkScope = { purpose: "" };

async function signature(
  config: Pick<AppConfig, "jwtSecret">,
  fileId: string,
  expires: number,
  scope: LinkScope,
) {
  const generation = scope.generation === undefined ? "" : `.${scope.generation}`;
  const mac = await crypto.subtle.sign(
    "HMAC",
    await signingKey(config),
    new TextEncoder().encode(`${scope.purpose}${fileId.toLowerCase()}.${expires}${generation}`),
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
 * `purpose`, so a signature made for one route is worthless on another, and its generation).
 * The same inputs give the same URL.
 */
export async function signUrlFor(
  config: Pick<AppConfig, "jwtSecret">,
  fileId: string,
  routeUrl: string,
  expires: number,
  scope: LinkScope = RECORD_FILES,
): Promise<{ url: string; expiresAt: string }> {
  const sig = await signature(config, fileId, expires, scope);
  const generation = scope.generation === undefined ? "" : `&generation=${scope.generation}`;
  return {
    url: `${routeUrl}?expires=${expires}${generation}&signature=${sig}`,
    expiresAt: new Date(expires * 1000).toISOString(),
  };
}

/** A printout a signed URL opens: the record, its serve route and the signature's purpose. */
export interface PrintoutLink {
  id: string;
  /** The serve route's absolute URL, without a query. */
  routeUrl: string;
  purpose: string;
  /**
   * Query parameters appended after the signature, unsigned: they only choose how the same
   * record is shown (paper, format, layout), never which record or for how long.
   */
  options?: Record<string, string | undefined>;
}

/** A signed URL of a printout (`{ url, expiresAt }`), valid `ttlSeconds` from `now`. */
export async function signPrintoutUrl(
  config: Pick<AppConfig, "jwtSecret">,
  link: PrintoutLink,
  now: Date,
  ttlSeconds = DEFAULT_URL_TTL_SECONDS,
): Promise<{ url: string; expiresAt: string }> {
  const expires = Math.floor(now.getTime() / 1000) + ttlSeconds;
  const signed = await signUrlFor(config, link.id, link.routeUrl, expires, {
    purpose: link.purpose,
  });
  const options = Object.entries(link.options ?? {})
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => `&${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join("");
  return { url: signed.url + options, expiresAt: signed.expiresAt };
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The raw query values of a signed URL. */
export interface SignedQuery {
  expires?: string;
  signature?: string;
}

/**
 * Whether `expires`/`signature` are a valid, unexpired signature of `fileId` for `scope` (its
 * generation: the one the URL carries, which the caller compares with the current one after
 * its lookup).
 */
export async function verifyFileSignature(
  config: Pick<AppConfig, "jwtSecret">,
  fileId: string,
  query: SignedQuery,
  now: Date,
  scope: LinkScope = RECORD_FILES,
): Promise<boolean> {
  const { expires, signature: sig } = query;
  if (!expires || !sig || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(sig)) {
    return false;
  }
  const expiresAt = Number(expires);
  if (expiresAt * 1000 <= now.getTime()) return false;
  return constantTimeEqual(await signature(config, fileId, expiresAt, scope), sig);
}

/**
 * A printout's signed URL (see {@link signPrintoutUrl}) checked before any lookup: a tampered,
 * expired, missing or other route's signature → 403 invalid_signature ("The `what` link is
 * invalid or has expired").
 */
export async function requirePrintoutSignature(
  config: Pick<AppConfig, "jwtSecret">,
  link: { id: string; purpose: string },
  query: SignedQuery,
  now: Date,
  what: string,
): Promise<void> {
  if (await verifyFileSignature(config, link.id, query, now, { purpose: link.purpose })) return;
  throw new ForbiddenError("invalid_signature", `The ${what} link is invalid or has expired`);
}
