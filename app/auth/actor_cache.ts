/**
 * The in-process actor cache: per user, the active flag, token versions, email and the
 * expanded permissions, so authenticating a request usually costs no query at all.
 *
 * Freshness:
 *  - every change to users, roles, role permissions or user roles made through the app goes
 *    through `changeIdentity()`, which drops this process's cache after the commit and sends
 *    `pg_notify('identity_changed')` inside the transaction (delivered on commit);
 *  - other processes LISTEN on that channel (`listenForIdentityChanges`) and drop theirs;
 *  - a short TTL bounds staleness if a notification is ever lost (e.g. during a reconnect).
 * A load that started before an invalidation is never stored (generation check).
 *
 * On PostgreSQL, where several server processes may share the database, `createDeps` turns the
 * cache off (`ttlMs: 0`): every authenticated request reads its actor (one indexed query,
 * ~0.1–0.3 ms). A notification reaches the other processes a moment after the change's
 * commit, not before their next request: the cluster tests (tests/cluster/auth_test.ts) saw a
 * user disabled through one process still served by another. A disable or a role taken away
 * must apply to the very next request on every process, and a per-request version check would
 * cost the same round trip (plus a table of its own). With `ttlMs: 0` a request never joins a
 * load that started before it arrived. The embedded engine is one process: it keeps the cache.
 */
import type { Kysely, Transaction } from "kysely";
import { expandPermissions, type Permission } from "../../domain/auth/permissions.ts";
import type { Database } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import { findActorRecord, IDENTITY_CHANNEL, notifyIdentityChanged } from "./actor_repo.ts";

export const ACTOR_CACHE_TTL_MS = 3000;
const MAX_ENTRIES = 10_000;

export interface ActorState {
  userId: string;
  email: string;
  isActive: boolean;
  tokenVersion: number;
  posTokenVersion: number;
  permissions: ReadonlySet<Permission>;
}

export interface ActorCache {
  /** The user's current state (cached), or undefined when the user does not exist. */
  get(userId: string): Promise<ActorState | undefined>;
  /** Drops every cached entry (a role change may concern many users). */
  invalidate(): void;
  readonly size: number;
}

interface Entry {
  state: ActorState | undefined;
  loadedAt: number;
}

export function createActorCache(
  db: Kysely<Database>,
  options: { ttlMs?: number } = {},
): ActorCache {
  const ttl = options.ttlMs ?? ACTOR_CACHE_TTL_MS;
  const entries = new Map<string, Entry>();
  const loading = new Map<string, Promise<ActorState | undefined>>();
  let generation = 0;

  async function load(userId: string): Promise<ActorState | undefined> {
    const record = await findActorRecord(db, { id: userId });
    if (!record) return undefined;
    return {
      userId: record.id,
      email: record.email,
      isActive: record.isActive,
      tokenVersion: record.tokenVersion,
      posTokenVersion: record.posTokenVersion,
      permissions: expandPermissions(record.permissions),
    };
  }

  return {
    async get(userId) {
      // Uncached: a load already in flight may have read the state before a change this
      // request must see, so every call reads for itself.
      if (ttl <= 0) return await load(userId);
      const cached = entries.get(userId);
      if (cached && performance.now() - cached.loadedAt < ttl) return cached.state;
      const pending = loading.get(userId);
      if (pending) return await pending;
      const startedGeneration = generation;
      const startedAt = performance.now();
      const promise = load(userId).finally(() => loading.delete(userId));
      loading.set(userId, promise);
      const state = await promise;
      if (startedGeneration === generation) {
        if (entries.size >= MAX_ENTRIES) entries.clear();
        entries.set(userId, { state, loadedAt: startedAt });
      }
      return state;
    },
    invalidate() {
      generation++;
      entries.clear();
      loading.clear();
    },
    get size() {
      return entries.size;
    },
  };
}

/**
 * Runs a change to users/roles/grants in one transaction that notifies other processes on
 * commit, then drops this process's cached actors.
 */
export async function changeIdentity<T>(
  deps: { db: Kysely<Database>; actors: ActorCache },
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  try {
    return await withTransaction(deps.db, async (trx) => {
      const result = await work(trx);
      await notifyIdentityChanged(trx);
      return result;
    });
  } finally {
    // Also after a failure: harmless, and a partly applied outer transaction cannot linger.
    deps.actors.invalidate();
  }
}

/** `listen` of the raw database client (PostgreSQL only). */
export type ListenFn = (
  channel: string,
  onMessage: (payload: string) => void,
  onListen?: () => void,
) => Promise<() => Promise<void>>;

/**
 * Drops the cache whenever another process changes identity data. (Re)subscribing also
 * drops it: notifications sent while the listening connection was down are lost.
 */
export function listenForIdentityChanges(
  cache: ActorCache,
  listen: ListenFn,
): Promise<() => Promise<void>> {
  return listen(IDENTITY_CHANNEL, () => cache.invalidate(), () => cache.invalidate());
}
