/**
 * The in-process actor cache: per user, the active flag, token versions, email and the
 * expanded permissions, so authenticating a request on the embedded engine usually costs no
 * query at all.
 *
 * Freshness: every change to users, roles, role permissions or user roles made through the app
 * goes through `changeIdentity()`, which drops the cache after the commit; a load that started
 * before an invalidation is never stored (generation check); a short TTL bounds anything else.
 *
 * On PostgreSQL, where several server processes may share the database, `createDeps` turns the
 * cache off (`ttlMs: 0`): every authenticated request reads its actor (one indexed query,
 * ~0.1–0.3 ms). A change must apply to the very next request on every process; a notification
 * (LISTEN/NOTIFY) reaches the other processes a moment after the commit, not always before
 * their next request (tests/cluster/auth_test.ts saw a disabled user still served), and a
 * per-request version check would cost the same round trip. With `ttlMs: 0` a request never
 * joins a load that started before it arrived. The embedded engine is one process: it caches.
 */
import type { Kysely, Transaction } from "kysely";
import { expandPermissions, type Permission } from "../../domain/auth/permissions.ts";
import type { Database } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import { findActorRecord } from "./actor_repo.ts";

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

/** Runs a change to users/roles/grants in one transaction, then drops the cached actors. */
export async function changeIdentity<T>(
  deps: { db: Kysely<Database>; actors: ActorCache },
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  try {
    return await withTransaction(deps.db, work);
  } finally {
    // Also after a failure: harmless, and a partly applied outer transaction cannot linger.
    deps.actors.invalidate();
  }
}
