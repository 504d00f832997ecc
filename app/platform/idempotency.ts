/**
 * Use cases of `Idempotency-Key` responses (API §1.4), driven by the server's idempotency
 * middleware: run a request in one transaction with its key, claim a key for a request, read
 * what is stored, save the response, release a key whose request failed, and forget expired
 * ones (housekeeping). Keys live 24 hours.
 */
import type { Transaction } from "kysely";
import type { Database } from "../db/database.ts";
import { withRequestTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import {
  claimIdempotencyKey,
  claimIdempotencyKeyWaiting,
  deleteExpiredIdempotencyKeys,
  findIdempotencyKey,
  IDEMPOTENCY_TTL_HOURS,
  releaseIdempotencyKey,
  saveIdempotentResponse,
  type StoredResponse,
} from "./idempotency_repo.ts";

type Deps = Pick<AppDeps, "db" | "clock">;

/** Claims `key` for a new request; false when a live claim (finished or running) holds it. */
export function claimKey(
  deps: Deps,
  scope: string,
  key: string,
  requestHash: string,
): Promise<boolean> {
  return claimIdempotencyKey(
    deps.db,
    scope,
    key,
    requestHash,
    deps.clock.now(),
    IDEMPOTENCY_TTL_HOURS,
  );
}

/**
 * Runs a request with a key in ONE transaction: its key, its work and its stored answer
 * commit together or not at all (so a retry after a commit whose outcome was unknown finds
 * either the answer or nothing, and then does the work once). See `withRequestTransaction`.
 */
export function inRequestTransaction<T>(
  deps: Pick<AppDeps, "db">,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return withRequestTransaction(deps.db, work);
}

/**
 * In the request's transaction: claims `key`, waiting up to `waitMs` for a first request that
 * holds it to finish (commit or roll back). `claimed`, `held` (a finished request's row: read
 * it), or `busy` (still running).
 */
export function claimKeyWaiting(
  deps: Pick<AppDeps, "clock">,
  trx: Transaction<Database>,
  scope: string,
  key: string,
  requestHash: string,
  waitMs: number,
): Promise<"claimed" | "held" | "busy"> {
  return claimIdempotencyKeyWaiting(
    trx,
    scope,
    key,
    requestHash,
    deps.clock.now(),
    IDEMPOTENCY_TTL_HOURS,
    waitMs,
  );
}

/** What the key holds: the first request's hash and, once it finished, its response. */
export function findStoredResponse(
  deps: Pick<AppDeps, "db">,
  scope: string,
  key: string,
): Promise<StoredResponse | undefined> {
  return findIdempotencyKey(deps.db, scope, key);
}

/** Stores the response (status below 500) a retry with the same key gets again. */
export function saveResponse(
  deps: Pick<AppDeps, "db">,
  scope: string,
  key: string,
  response: { status: number; body: string; contentType: string | null },
): Promise<void> {
  return saveIdempotentResponse(deps.db, scope, key, response);
}

/** Frees the key after a failed request (an error or a 5xx), so a retry may run. */
export function releaseKey(deps: Pick<AppDeps, "db">, scope: string, key: string): Promise<void> {
  return releaseIdempotencyKey(deps.db, scope, key);
}

/** Housekeeping: forgets responses older than the replay window; how many. */
export function forgetExpiredResponses(deps: Deps): Promise<number> {
  return deleteExpiredIdempotencyKeys(deps.db, deps.clock.now(), IDEMPOTENCY_TTL_HOURS);
}
