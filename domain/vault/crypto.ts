/**
 * The vault's cryptography (API §12), on Web Crypto only:
 *  - a key-encryption key (KEK) derived from the master password with PBKDF2-SHA256; the KDF
 *    and its parameters (iterations, salt) are stored with the vault configuration, so the
 *    cost can be raised later (a vault wrapped with fewer iterations is re-wrapped on unlock);
 *  - one random 256-bit AES-GCM data key, stored only wrapped by the KEK (AES-GCM, random IV,
 *    associated data naming its purpose): changing the master password re-wraps it, nothing
 *    else changes;
 *  - each entry field sealed with the data key: AES-256-GCM, a fresh random 96-bit IV per
 *    write, and the field, the entry id and its category id as associated data, so a
 *    ciphertext copied to another row, field or category does not decrypt.
 *
 * Keys in memory: the KEK is derived, used to unwrap, and dropped; the data key is held as a
 * non-extractable `CryptoKey` (its bytes never reach JavaScript, so there is nothing to zero
 * but the reference). The master password's bytes are overwritten once imported.
 *
 * `deriveBits`/`deriveKey` of PBKDF2 run on Deno's blocking thread pool: the event loop stays
 * free while the KDF works (tests/vault/responsiveness_test.ts measures it).
 */
import { fromBase64, toBase64 } from "../base64.ts";

/** The KDF of a vault: PBKDF2 with HMAC-SHA-256 (API §12: at least 600,000 iterations). */
export const KDF_ALGORITHM = "PBKDF2-SHA256";
export const MIN_KDF_ITERATIONS = 600_000;
/** The default cost: about 400 ms on the reference machine (2 cores, 2026). */
export const DEFAULT_KDF_ITERATIONS = 3_000_000;
/** Above this, an unlock would take minutes: a stored value beyond it is refused as corrupt. */
export const MAX_KDF_ITERATIONS = 100_000_000;
const SALT_BYTES = 16;
const IV_BYTES = 12;
const SEALED_PREFIX = "v1";
const DATA_KEY_CONTEXT = "shop-vault/data-key/v1";
const ENTRY_CONTEXT = "shop-vault/entry/v1";

export interface KdfParams {
  algorithm: typeof KDF_ALGORITHM;
  iterations: number;
  /** Base64 of 16 random bytes. */
  salt: string;
}

/** A field of an entry that is sealed. */
export type SealedField = "secret" | "notes";

/** What a sealed field is bound to: moving its ciphertext anywhere else breaks it. */
export interface SealContext {
  field: SealedField;
  entryId: string;
  categoryId: string;
}

/** A ciphertext that failed authentication: tampered, moved, or sealed under another key. */
export class VaultIntegrityError extends Error {
  constructor(message = "A vault ciphertext failed its integrity check") {
    super(message);
    this.name = "VaultIntegrityError";
  }
}

// ------------------------------------------------------------------ encoding

const utf8 = new TextEncoder();

function bytes(text: string): Uint8Array<ArrayBuffer> {
  return utf8.encode(text) as Uint8Array<ArrayBuffer>;
}

/** `v1.<iv>.<ciphertext+tag>` (base64 parts). */
function encodeSealed(iv: Uint8Array, ciphertext: ArrayBuffer): string {
  return `${SEALED_PREFIX}.${toBase64(iv)}.${toBase64(new Uint8Array(ciphertext))}`;
}

function decodeSealed(
  text: string,
): { iv: Uint8Array<ArrayBuffer>; data: Uint8Array<ArrayBuffer> } {
  const [prefix, ivText, dataText, ...rest] = text.split(".");
  const iv = ivText === undefined ? undefined : fromBase64(ivText);
  const data = dataText === undefined ? undefined : fromBase64(dataText);
  if (prefix !== SEALED_PREFIX || rest.length > 0 || !iv || iv.length !== IV_BYTES || !data) {
    throw new VaultIntegrityError("A vault ciphertext is malformed");
  }
  return { iv: iv as Uint8Array<ArrayBuffer>, data: data as Uint8Array<ArrayBuffer> };
}

// ------------------------------------------------------------------ the master password

/** Fresh KDF parameters (a new random salt) at `iterations`. */
export function newKdfParams(iterations: number = DEFAULT_KDF_ITERATIONS): KdfParams {
  if (!Number.isInteger(iterations) || iterations < MIN_KDF_ITERATIONS) {
    throw new RangeError(`PBKDF2 needs at least ${MIN_KDF_ITERATIONS} iterations`);
  }
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  return { algorithm: KDF_ALGORITHM, iterations, salt: toBase64(salt) };
}

/** Whether stored parameters are usable (a corrupt or foreign configuration is not). */
export function isValidKdfParams(params: unknown): params is KdfParams {
  const p = params as Partial<KdfParams> | null;
  if (typeof p !== "object" || p === null || p.algorithm !== KDF_ALGORITHM) return false;
  const salt = typeof p.salt === "string" ? fromBase64(p.salt) : undefined;
  return Number.isInteger(p.iterations) && p.iterations! >= MIN_KDF_ITERATIONS &&
    p.iterations! <= MAX_KDF_ITERATIONS && salt !== undefined && salt.length === SALT_BYTES;
}

/** Whether a vault wrapped with `stored` should be re-wrapped at `wanted` iterations. */
export function kdfNeedsUpgrade(stored: KdfParams, wantedIterations: number): boolean {
  return stored.iterations < wantedIterations;
}

/**
 * The key-encryption key of `password` under `params` (the slow step: about 400 ms at the
 * default cost). Non-extractable; usable only to wrap and unwrap the data key.
 */
export async function deriveKek(password: string, params: KdfParams): Promise<CryptoKey> {
  if (!isValidKdfParams(params)) {
    throw new VaultIntegrityError("The vault's KDF settings are invalid");
  }
  const secret = bytes(password);
  try {
    const base = await crypto.subtle.importKey("raw", secret, "PBKDF2", false, ["deriveKey"]);
    return await crypto.subtle.deriveKey(
      {
        name: "PBKDF2",
        hash: "SHA-256",
        salt: fromBase64(params.salt)! as Uint8Array<ArrayBuffer>,
        iterations: params.iterations,
      },
      base,
      { name: "AES-GCM", length: 256 },
      false,
      ["wrapKey", "unwrapKey"],
    );
  } finally {
    secret.fill(0);
  }
}

// ------------------------------------------------------------------ the data key

/** A new random 256-bit data key (extractable only so that it can be wrapped). */
export async function generateDataKey(): Promise<CryptoKey> {
  return await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, true, [
    "encrypt",
    "decrypt",
  ]);
}

/** AES-GCM under the KEK, bound to the data key's purpose (typed apart: Deno's lib omits it). */
function dataKeyWrapping(iv: Uint8Array<ArrayBuffer>): AesGcmParams {
  return { name: "AES-GCM", iv, additionalData: bytes(DATA_KEY_CONTEXT) };
}

/** The data key wrapped by `kek` (AES-GCM, fresh IV), as stored text. */
export async function wrapDataKey(dataKey: CryptoKey, kek: CryptoKey): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const wrapped = await crypto.subtle.wrapKey("raw", dataKey, kek, dataKeyWrapping(iv));
  return encodeSealed(iv, wrapped);
}

/**
 * The data key unwrapped with `kek`, or undefined when `kek` is not the one that wrapped it
 * (a wrong master password). Non-extractable unless `extractable` (to re-wrap it).
 */
export async function unwrapDataKey(
  wrapped: string,
  kek: CryptoKey,
  options: { extractable?: boolean } = {},
): Promise<CryptoKey | undefined> {
  const { iv, data } = decodeSealed(wrapped);
  try {
    return await crypto.subtle.unwrapKey(
      "raw",
      data,
      kek,
      dataKeyWrapping(iv),
      { name: "AES-GCM", length: 256 },
      options.extractable ?? false,
      ["encrypt", "decrypt"],
    );
  } catch (error) {
    if (error instanceof DOMException && error.name === "OperationError") return undefined;
    throw error;
  }
}

// ------------------------------------------------------------------ entries

function associatedData(context: SealContext): Uint8Array<ArrayBuffer> {
  for (const part of [context.entryId, context.categoryId]) {
    if (part.includes("\0")) throw new RangeError("An id holds a NUL character");
  }
  return bytes(`${ENTRY_CONTEXT}\0${context.field}\0${context.entryId}\0${context.categoryId}`);
}

/** `plaintext` sealed with the data key for one field of one entry (fresh IV). */
export async function sealText(
  dataKey: CryptoKey,
  plaintext: string,
  context: SealContext,
): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const data = bytes(plaintext);
  try {
    const ciphertext = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: associatedData(context) },
      dataKey,
      data,
    );
    return encodeSealed(iv, ciphertext);
  } finally {
    data.fill(0);
  }
}

/** The plaintext of a sealed field; `VaultIntegrityError` when it does not authenticate. */
export async function openText(
  dataKey: CryptoKey,
  sealed: string,
  context: SealContext,
): Promise<string> {
  const { iv, data } = decodeSealed(sealed);
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv, additionalData: associatedData(context) },
      dataKey,
      data,
    );
  } catch (error) {
    if (error instanceof DOMException && error.name === "OperationError") {
      throw new VaultIntegrityError();
    }
    throw error;
  }
  const view = new Uint8Array(plain);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(view);
  } finally {
    view.fill(0);
  }
}
