/**
 * How server processes on one database hand each other a secret (the vault's data key) without
 * ever storing it in a form the database alone could open (Web Crypto only, pure).
 *
 * Each process makes an ephemeral ECDH P-256 key pair when it joins (the private half never
 * leaves its memory) and publishes the public half with a proof: an HMAC over its process id
 * and public key under the cluster key, which is derived from a secret every process has in its
 * environment and the database never holds. A row someone wrote into the database without that
 * secret (a forged peer) fails the proof and is handed nothing. Two verified peers derive one
 * AES-256-GCM key from their ECDH secret (HKDF-SHA256, salted with both process ids), and a key
 * is sealed with the sender, recipient and purpose as associated data, so a sealed message
 * replayed to another process or for another purpose does not open.
 */
import { fromBase64, toBase64 } from "../base64.ts";

const PROOF_CONTEXT = "shop-backoffice peer key v1";
const TRANSFER_CONTEXT = "shop-backoffice peer transfer v1";
const CLUSTER_KEY_CONTEXT = "shop-backoffice cluster key v1";
const IV_BYTES = 12;

const text = (value: string) => new TextEncoder().encode(value);

/** The HMAC key of the cluster, derived (HKDF) from a secret shared through the environment. */
export async function deriveClusterKey(secret: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", text(secret), "HKDF", false, ["deriveKey"]);
  return await crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: text(CLUSTER_KEY_CONTEXT) },
    base,
    { name: "HMAC", hash: "SHA-256", length: 256 },
    false,
    ["sign", "verify"],
  );
}

export interface PeerIdentity {
  processId: string;
  /** The ECDH public key, raw (uncompressed point), base64. */
  publicKey: string;
  /** HMAC-SHA256 under the cluster key over the process id and public key, base64. */
  proof: string;
  privateKey: CryptoKey;
}

function proofMessage(processId: string, publicKey: string): Uint8Array<ArrayBuffer> {
  return text(`${PROOF_CONTEXT}\0${processId}\0${publicKey}`);
}

/** A new ephemeral identity for this process (its private key is not extractable). */
export async function createPeerIdentity(
  processId: string,
  clusterKey: CryptoKey,
): Promise<PeerIdentity> {
  const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, [
    "deriveBits",
  ]);
  const publicKey = toBase64(new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey)));
  const proof = toBase64(
    new Uint8Array(
      await crypto.subtle.sign("HMAC", clusterKey, proofMessage(processId, publicKey)),
    ),
  );
  return { processId, publicKey, proof, privateKey: pair.privateKey };
}

/** Whether a published peer key carries a valid proof (false for anything malformed). */
export async function verifyPeerProof(
  clusterKey: CryptoKey,
  peer: { processId: string; publicKey: string; proof: string },
): Promise<boolean> {
  const proof = fromBase64(peer.proof);
  if (!proof) return false;
  return await crypto.subtle.verify(
    "HMAC",
    clusterKey,
    proof,
    proofMessage(peer.processId, peer.publicKey),
  );
}

/**
 * The AES-256-GCM key this process shares with a verified peer (the same on both sides), or
 * undefined when the peer's public key is not a valid P-256 point.
 */
export async function derivePairKey(
  own: PeerIdentity,
  peer: { processId: string; publicKey: string },
): Promise<CryptoKey | undefined> {
  const raw = fromBase64(peer.publicKey);
  if (!raw) return undefined;
  let peerKey: CryptoKey;
  let shared: ArrayBuffer;
  try {
    peerKey = await crypto.subtle.importKey(
      "raw",
      raw,
      { name: "ECDH", namedCurve: "P-256" },
      false,
      [],
    );
    shared = await crypto.subtle.deriveBits(
      { name: "ECDH", public: peerKey },
      own.privateKey,
      256,
    );
  } catch {
    return undefined;
  }
  // Both sides salt with the two ids in the same (sorted) order.
  const [a, b] = [own.processId, peer.processId].sort();
  const base = await crypto.subtle.importKey("raw", shared, "HKDF", false, ["deriveKey"]);
  return await crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: text(`${a}\0${b}`), info: text(TRANSFER_CONTEXT) },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["wrapKey", "unwrapKey"],
  );
}

/** What a sealed key is bound to: who sent it, to whom, and what it is. */
export interface TransferContext {
  from: string;
  to: string;
  /** E.g. `vault-data-key:<key id>`. */
  purpose: string;
}

function transferParams(iv: Uint8Array<ArrayBuffer>, context: TransferContext): AesGcmParams {
  for (const part of [context.from, context.to, context.purpose]) {
    if (part.includes("\0")) throw new RangeError("A transfer context holds a NUL character");
  }
  return {
    name: "AES-GCM",
    iv,
    additionalData: text(`${TRANSFER_CONTEXT}\0${context.from}\0${context.to}\0${context.purpose}`),
  };
}

/** `key` (an extractable AES key) sealed under the pair key, as `iv.ciphertext` base64 text. */
export async function sealKeyForPeer(
  key: CryptoKey,
  pairKey: CryptoKey,
  context: TransferContext,
): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = await crypto.subtle.wrapKey("raw", key, pairKey, transferParams(iv, context));
  return `${toBase64(iv)}.${toBase64(new Uint8Array(sealed))}`;
}

/**
 * The AES-256-GCM key sealed by `sealKeyForPeer`, extractable (so this process can hand it on
 * in turn), or undefined when it does not open (another pair, context or a tampered message).
 */
export async function openKeyFromPeer(
  sealed: string,
  pairKey: CryptoKey,
  context: TransferContext,
): Promise<CryptoKey | undefined> {
  const [ivText, dataText, ...rest] = sealed.split(".");
  const iv = ivText === undefined ? undefined : fromBase64(ivText);
  const data = dataText === undefined ? undefined : fromBase64(dataText);
  if (!iv || !data || iv.length !== IV_BYTES || rest.length > 0) return undefined;
  try {
    return await crypto.subtle.unwrapKey(
      "raw",
      data,
      pairKey,
      transferParams(iv, context),
      { name: "AES-GCM", length: 256 },
      true,
      ["encrypt", "decrypt"],
    );
  } catch {
    return undefined;
  }
}
