/**
 * Use cases of `Idempotency-Key` responses (API §1.4), driven by the server's idempotency
 * middleware: claim a key for a request, read what is stored, save the response, release a
 * key whose request failed, and forget expired ones (housekeeping). Keys live 24 hours.
 */
import type { AppDeps } from "../deps.ts";
import {
  claimIdempotencyKey,
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
