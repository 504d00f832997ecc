/**
 * Several server processes on one PostgreSQL database (API §16, README "Several processes"):
 * how they tell each other about changes and hand each other secrets, over LISTEN/NOTIFY on one
 * channel. The embedded engine is one process: there the cluster is this process alone.
 *
 * - **Membership.** A server process `join()`s: it listens, registers its row in
 *   `server_processes` (an ephemeral ECDH public key and its proof under the cluster key, see
 *   domain/platform/peer_keys.ts) and beats every 2 s. Other processes (the CLI, tests) can
 *   still broadcast and collect acknowledgements; they just are not waited for.
 * - **Acknowledged broadcasts.** `broadcast()` sends a message to every live member and waits
 *   until each acknowledged it, i.e. ran its handler (e.g. dropped its cached actors), or
 *   until the timeout. A change that must apply at once everywhere waits for that before it
 *   answers (app/auth/actor_cache.ts).
 * - **Trust.** A member may serve from caches that others invalidate only while it hears its
 *   own heartbeat ping on its listening connection and its heartbeat reaches the database
 *   (`cachesTrusted()`); when trust comes back after a gap, every cache is dropped first
 *   (`onReset`), since notifications may have been missed in between.
 */
import type { Kysely } from "kysely";
import {
  createPeerIdentity,
  deriveClusterKey,
  derivePairKey,
  type PeerIdentity,
  verifyPeerProof,
} from "../../domain/platform/peer_keys.ts";
import type { Database } from "../db/database.ts";
import type { NotificationListener } from "../db/connect.ts";
import { afterRequestCommit } from "../db/transaction.ts";
import type { Ids } from "../ids.ts";
import type { Logger } from "../logger.ts";
import {
  CLUSTER_CHANNEL,
  findProcess,
  forgetStaleProcesses,
  listLiveProcesses,
  notifyCluster,
  type ProcessRecord,
  registerProcess,
  touchProcess,
  unregisterProcess,
} from "./cluster_repo.ts";

const HEARTBEAT_MS = 2000;
/** Caches are trusted while the last ping was heard and the last beat landed this recently. */
const TRUST_WINDOW_MS = 5000;
/** NOTIFY payloads are limited to 8000 bytes; ours are a few hundred. */
const MAX_PAYLOAD_BYTES = 7900;

/** A message between processes: its type, sender, optional recipient and fields. */
export interface ClusterMessage {
  t: string;
  from: string;
  to?: string;
  /** Set when the sender waits for an acknowledgement. */
  seq?: number;
  [field: string]: unknown;
}

export type MessageHandler = (message: ClusterMessage) => void | Promise<void>;

export interface Cluster {
  readonly processId: string;
  /** True on the embedded engine; on PostgreSQL, while this member's notifications flow. */
  cachesTrusted(): boolean;
  /** Runs `fn` whenever every cache must be dropped (trust regained after a gap). */
  onReset(fn: () => void): void;
  /** Handles messages of type `t` from other processes (one handler per type). */
  handle(t: string, handler: MessageHandler): void;
  /**
   * Sends to every live member but this process (or only `to`) and resolves once each has
   * handled it or `timeoutMs` passed: the ids that did not acknowledge in time.
   */
  broadcast(
    t: string,
    fields?: Record<string, unknown>,
    options?: { to?: string; timeoutMs?: number },
  ): Promise<string[]>;
  /** The live members but this process whose key proof verifies. */
  verifiedPeers(): Promise<ProcessRecord[]>;
  /** One member's record if it is registered and its proof verifies. */
  verifiedPeer(processId: string): Promise<ProcessRecord | undefined>;
  /** The key this member shares with a verified peer (undefined before `join()`). */
  pairKey(peer: ProcessRecord): Promise<CryptoKey | undefined>;
  /** Registers this process (listening at `url`, for `ops status`) and starts its heartbeat. */
  join(options?: { url?: string }): Promise<void>;
  /** Writes this member's state (`ClusterInput.vaultUnlocked`) to its row now (joined only). */
  report(): Promise<void>;
  leave(): Promise<void>;
  readonly joined: boolean;
}

export interface ClusterInput {
  db: Kysely<Database>;
  /** Absent on the embedded engine (one process: nothing to tell anyone). */
  listener: NotificationListener | undefined;
  /** The secret every process has in its environment (JWT_SECRET), never in the database. */
  secret: string | undefined;
  logger: Logger;
  ids: Ids;
  /** This process's vault state, reported in its row (for `ops status`); default: locked. */
  vaultUnlocked?: () => boolean;
}

/**
 * After a change has committed: every other live process has handled message `t` (dropped
 * what it cached), or `ttlMs` has passed, after which none serves an entry cached before the
 * change. Inside a request's transaction (Idempotency-Key) this runs once that commits: told
 * before, the others could read and cache the state from before the change again.
 */
export async function tellOthersAfterCommit(
  cluster: Cluster,
  t: string,
  ttlMs: number,
): Promise<void> {
  const tell = async () => {
    const late = await cluster.broadcast(t, {}, { timeoutMs: ttlMs }).catch(() => undefined);
    // A failed broadcast: wait the TTL out instead (unheard peers are waited for above).
    if (late === undefined) await new Promise((resolve) => setTimeout(resolve, ttlMs));
  };
  if (!afterRequestCommit(tell)) await tell();
}

export function createCluster(input: ClusterInput): Cluster {
  const { db, listener, logger } = input;
  const vaultUnlocked = () => input.vaultUnlocked?.() ?? false;
  let url: string | null = null;
  const processId = input.ids.uuid();
  const handlers = new Map<string, MessageHandler>();
  const resets: Array<() => void> = [];
  const waiting = new Map<number, { missing: Set<string>; done: () => void }>();
  let nextSeq = 1;
  let subscription: Promise<{ stop(): Promise<void> }> | undefined;
  let identity: PeerIdentity | undefined;
  let clusterKey: Promise<CryptoKey> | undefined;
  let joined = false;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let pingSent = 0;
  let lastPingHeard = Number.NEGATIVE_INFINITY;
  let lastBeat = Number.NEGATIVE_INFINITY;
  let wasTrusted = false;

  const key = () => {
    if (!input.secret) return undefined;
    clusterKey ??= deriveClusterKey(input.secret);
    return clusterKey;
  };

  const trustedNow = () => {
    const now = performance.now();
    return joined && now - lastPingHeard < TRUST_WINDOW_MS && now - lastBeat < TRUST_WINDOW_MS;
  };

  /** After a ping or a beat: when trust returns after a gap, drop every cache first. */
  const noteTrust = () => {
    const trusted = trustedNow();
    if (trusted && !wasTrusted) { for (const reset of resets) reset(); }
    wasTrusted = trusted;
  };

  const send = async (message: ClusterMessage) => {
    const payload = JSON.stringify(message);
    if (new TextEncoder().encode(payload).length > MAX_PAYLOAD_BYTES) {
      throw new RangeError(`A cluster message of type ${message.t} is too large`);
    }
    await notifyCluster(db, payload);
  };

  async function receive(payload: string): Promise<void> {
    let message: ClusterMessage;
    try {
      message = JSON.parse(payload);
    } catch {
      return; // Not ours: anyone with database access can NOTIFY on the channel.
    }
    if (typeof message?.t !== "string" || typeof message.from !== "string") return;
    if (message.to !== undefined && message.to !== processId) return;
    if (message.t === "ping") {
      if (message.from === processId) {
        lastPingHeard = performance.now();
        noteTrust();
      }
      return;
    }
    if (message.from === processId) return;
    if (message.t === "ack") {
      const wait = typeof message.seq === "number" ? waiting.get(message.seq) : undefined;
      if (wait?.missing.delete(message.from) && wait.missing.size === 0) wait.done();
      return;
    }
    const handler = handlers.get(message.t);
    if (!handler) return;
    try {
      await handler(message);
    } catch (error) {
      logger.warn("cluster message not handled", {
        type: message.t,
        error: error instanceof Error ? error.message : String(error),
      });
      return; // No acknowledgement: the sender waits out its timeout.
    }
    if (typeof message.seq === "number") {
      await send({ t: "ack", from: processId, to: message.from, seq: message.seq })
        .catch(() => {});
    }
  }

  /** Listens once (again after `relisten`); resolves when the subscription is in place. */
  function ensureListening(): Promise<{ stop(): Promise<void> }> {
    if (!listener) throw new Error("No notifications on the embedded engine");
    subscription ??= listener.listen(
      CLUSTER_CHANNEL,
      (payload) => void receive(payload),
      () => {
        // (Re)subscribed: notifications may have been missed while the connection was down.
        for (const reset of resets) reset();
      },
    ).catch((error) => {
      subscription = undefined;
      throw error;
    });
    return subscription;
  }

  async function stopListening(): Promise<void> {
    const previous = subscription;
    subscription = undefined;
    await previous?.then((s) => s.stop()).catch(() => {});
  }

  async function relisten(): Promise<void> {
    await stopListening();
    await ensureListening();
  }

  async function beat(): Promise<void> {
    try {
      if (!(await touchProcess(db, processId, vaultUnlocked())) && identity) {
        await registerProcess(db, identity, ownReport());
      }
      lastBeat = performance.now();
      noteTrust();
      // Not heard for a whole window: the listening connection may be gone for good.
      if (performance.now() - lastPingHeard > TRUST_WINDOW_MS && pingSent > 1) await relisten();
      pingSent++;
      await send({ t: "ping", from: processId, to: processId });
      if (pingSent % 30 === 0) await forgetStaleProcesses(db);
    } catch (error) {
      logger.warn("cluster heartbeat failed", {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  function ownReport() {
    return { url, pid: Deno.pid, host: Deno.hostname(), vaultUnlocked: vaultUnlocked() };
  }

  async function verify(record: ProcessRecord): Promise<boolean> {
    const k = key();
    return k ? await verifyPeerProof(await k, record) : false;
  }

  async function verifiedPeers(): Promise<ProcessRecord[]> {
    if (!listener) return [];
    const peers = await listLiveProcesses(db, processId);
    const checked = await Promise.all(peers.map(async (p) => (await verify(p)) ? p : undefined));
    const verified = checked.filter((p): p is ProcessRecord => p !== undefined);
    if (verified.length < peers.length) {
      logger.warn("a server_processes row fails its key proof: it is ignored", {
        rows: peers.length - verified.length,
      });
    }
    return verified;
  }

  return {
    processId,
    cachesTrusted: () => !listener || trustedNow(),
    onReset: (fn) => void resets.push(fn),
    handle(t, handler) {
      if (handlers.has(t)) throw new Error(`A handler for cluster messages "${t}" exists`);
      handlers.set(t, handler);
    },

    async broadcast(t, fields = {}, options = {}) {
      if (!listener) return [];
      // Only verified members are waited for (a forged row must not slow every change down);
      // without a secret to verify with, every live one.
      const peers = options.to
        ? [options.to]
        : (key() ? await verifiedPeers() : await listLiveProcesses(db, processId))
          .map((p) => p.processId);
      if (peers.length === 0) return [];
      await ensureListening();
      const seq = nextSeq++;
      const missing = new Set(peers);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const acknowledged = new Promise<void>((resolve) => {
        waiting.set(seq, { missing, done: resolve });
        timer = setTimeout(resolve, options.timeoutMs ?? 3000);
      });
      try {
        await send({
          ...fields,
          t,
          from: processId,
          seq,
          ...(options.to ? { to: options.to } : {}),
        });
        await acknowledged;
      } finally {
        clearTimeout(timer);
        waiting.delete(seq);
      }
      return [...missing];
    },

    verifiedPeers,

    async verifiedPeer(id) {
      if (!listener) return undefined;
      const record = await findProcess(db, id);
      return record && (await verify(record)) ? record : undefined;
    },

    async pairKey(peer) {
      return identity ? await derivePairKey(identity, peer) : undefined;
    },

    async join(options = {}) {
      if (!listener || joined) return;
      url = options.url ?? null;
      const k = key();
      // Without a shared secret no peer can be verified: the process joins without a key.
      identity = await createPeerIdentity(
        processId,
        k ? await k : await deriveClusterKey(processId),
      );
      await ensureListening();
      await registerProcess(db, identity, ownReport());
      joined = true;
      await beat();
      heartbeat = setInterval(() => void beat(), HEARTBEAT_MS);
    },

    async report() {
      if (!joined) return;
      await touchProcess(db, processId, vaultUnlocked()).catch((error) =>
        logger.warn("cluster report failed", {
          error: error instanceof Error ? error.message : String(error),
        })
      );
    },

    async leave() {
      if (!joined) return;
      joined = false;
      clearInterval(heartbeat);
      await unregisterProcess(db, processId).catch(() => {});
      await stopListening();
    },

    get joined() {
      return joined;
    },
  };
}
