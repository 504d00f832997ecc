/**
 * The in-process actor cache: per user, the active flag, token versions, email and the
 * expanded permissions, so authenticating a request usually costs no query at all.
 *
 * Freshness: every change to users, roles, role permissions or user roles made through the app
 * goes through `changeIdentity()`, which drops this process's cache after the commit and, on
 * PostgreSQL, tells every other server process to drop theirs and waits until each has done
 * so (an acknowledged broadcast, app/platform/cluster.ts) or until the TTL has passed, after
 * which no entry loaded before the commit is served anywhere. So when the change answers, the
 * very next request on any process sees it. A load that started before an invalidation is
 * never stored (generation check), and an entry's age counts from when its load started.
 *
 * On PostgreSQL a process caches only while it is a cluster member whose notifications flow
 * (`cluster.cachesTrusted()`); otherwise (the CLI, tests' in-process apps, a member whose
 * listening connection is down) every request reads its actor (one indexed query).
 */
import type { Kysely, Transaction } from "kysely";
import { expandPermissions, type Permission } from "../../domain/auth/permissions.ts";
import type { Database } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import { type Cluster, tellOthersAfterCommit } from "../platform/cluster.ts";
import { createTrustedCache } from "../platform/trusted_cache.ts";
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

export function createActorCache(
  db: Kysely<Database>,
  options: { ttlMs?: number; trusted?: () => boolean } = {},
): ActorCache {
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
  return createTrustedCache(load, {
    ttlMs: options.ttlMs ?? ACTOR_CACHE_TTL_MS,
    trusted: options.trusted,
    maxEntries: MAX_ENTRIES,
  });
}

/** The cluster message that makes every server process drop its cached actors. */
export const ACTORS_CHANGED = "actors_changed";

/**
 * Runs a change to users/roles/grants in one transaction, then drops the cached actors here
 * and on every other server process (waiting for them, see above).
 */
export async function changeIdentity<T>(
  deps: { db: Kysely<Database>; actors: ActorCache; cluster: Cluster },
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  let result: T;
  try {
    result = await withTransaction(deps.db, work);
  } finally {
    // Also after a failure: harmless, and a partly applied outer transaction cannot linger.
    deps.actors.invalidate();
  }
  await tellOthersAfterCommit(deps.cluster, ACTORS_CHANGED, ACTOR_CACHE_TTL_MS);
  return result;
}
