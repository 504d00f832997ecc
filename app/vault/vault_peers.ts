/**
 * The vault across the server processes on one PostgreSQL (issue: several processes): an
 * unlock through any process unlocks every live process, a lock locks them all, and a process
 * that starts (or restarts) while the others are unlocked is handed the key. The data key only
 * ever travels sealed to one verified peer (domain/platform/peer_keys.ts: ECDH between the two
 * processes' ephemeral keys, whose rows carry a proof under the cluster secret that the
 * database never holds), inside a notification that is not stored anywhere; so a database, a
 * backup or a forged `server_processes` row yields nothing. When every process has stopped,
 * no key is left: the vault is locked.
 */
import { openKeyFromPeer, sealKeyForPeer } from "../../domain/platform/peer_keys.ts";
import type { AppDeps } from "../deps.ts";
import type { ClusterMessage } from "../platform/cluster.ts";
import type { ProcessRecord } from "../platform/cluster_repo.ts";
import { findVaultDataKeyId } from "./vault_config_repo.ts";

/** A sealed data key for one process. */
const VAULT_KEY = "vault_key";
/** Every process drops its key. */
const VAULT_LOCK = "vault_lock";
/** A member that holds no key asks the unlocked ones for it. */
const VAULT_HELLO = "vault_hello";

/** How long an unlock or lock waits for the other processes to confirm. */
const PEER_TIMEOUT_MS = 2000;

type PeerDeps = Pick<AppDeps, "cluster" | "vaultKeys" | "db" | "logger">;

const purpose = (keyId: string) => `vault-data-key:${keyId}`;

/** Seals this process's key for `peer` and waits for it to confirm; false if it did not. */
async function sendKey(deps: PeerDeps, peer: ProcessRecord): Promise<boolean> {
  const held = deps.vaultKeys.transferable();
  const pairKey = held && await deps.cluster.pairKey(peer);
  if (!held || !pairKey) return false;
  const sealed = await sealKeyForPeer(held.key, pairKey, {
    from: deps.cluster.processId,
    to: peer.processId,
    purpose: purpose(held.keyId),
  });
  const late = await deps.cluster.broadcast(VAULT_KEY, { keyId: held.keyId, sealed }, {
    to: peer.processId,
    timeoutMs: PEER_TIMEOUT_MS,
  });
  return late.length === 0;
}

/** A key sealed for this process by a verified peer, for the vault as it is now. */
async function receiveKey(deps: PeerDeps, message: ClusterMessage): Promise<void> {
  const { keyId, sealed } = message;
  if (typeof keyId !== "string" || typeof sealed !== "string") return;
  const sender = await deps.cluster.verifiedPeer(message.from);
  const pairKey = sender && await deps.cluster.pairKey(sender);
  if (!pairKey) throw new Error("a vault key from a process whose key proof fails");
  const key = await openKeyFromPeer(sealed, pairKey, {
    from: message.from,
    to: deps.cluster.processId,
    purpose: purpose(keyId),
  });
  if (!key) throw new Error("a vault key that does not open");
  // A key of a vault initialized again or restored since is not this vault's.
  if ((await findVaultDataKeyId(deps.db)) !== keyId) return;
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", key));
  try {
    const own = await crypto.subtle.importKey("raw", raw, { name: "AES-GCM" }, false, [
      "encrypt",
      "decrypt",
    ]);
    deps.vaultKeys.hold(own, keyId, key);
  } finally {
    raw.fill(0);
  }
}

/** Wires the vault's messages into the cluster (called once, by `createDeps`). */
export function shareVaultAcrossProcesses(deps: PeerDeps): void {
  const { cluster, vaultKeys } = deps;
  cluster.handle(VAULT_KEY, (message) => receiveKey(deps, message));
  cluster.handle(VAULT_LOCK, () => vaultKeys.forget());
  cluster.handle(VAULT_HELLO, async (message) => {
    if (!vaultKeys.transferable()) return;
    const peer = await cluster.verifiedPeer(message.from);
    if (peer) await sendKey(deps, peer);
  });
  // Joined, or hearing the others again after a gap: a locked member asks for the key.
  cluster.onReset(() => {
    if (!cluster.joined || vaultKeys.current()) return;
    cluster.broadcast(VAULT_HELLO, {}, { timeoutMs: 0 }).catch(() => {});
  });
}

/** After an unlock (or initialization) here: every live verified process gets the key. */
export async function shareUnlock(deps: PeerDeps): Promise<void> {
  const peers = await deps.cluster.verifiedPeers();
  const confirmed = await Promise.all(peers.map((peer) => sendKey(deps, peer)));
  const unconfirmed = confirmed.filter((ok) => !ok).length;
  if (unconfirmed > 0) {
    deps.logger.warn("the vault was unlocked here; some processes did not confirm", {
      processes: peers.length,
      unconfirmed,
    });
  }
}

/** After a lock here: every other process drops its key (waits for them to confirm). */
export async function shareLock(deps: PeerDeps): Promise<void> {
  const late = await deps.cluster.broadcast(VAULT_LOCK, {}, { timeoutMs: PEER_TIMEOUT_MS });
  if (late.length > 0) {
    // A member that stops hearing the others drops its key by itself within seconds.
    deps.logger.warn("the vault was locked here; some processes did not confirm", {
      unconfirmed: late.length,
    });
  }
}
