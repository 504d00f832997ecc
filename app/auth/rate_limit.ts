/**
 * The per-client-IP limit on the unauthenticated auth routes (API §2): N requests per
 * window across login, register, forgot-password, reset-password and pin-login, counted in
 * the database (one atomic upsert-increment per request) so several server processes share
 * the count. `AUTH_RATE_LIMIT=off` disables only this limit.
 */
import { secondsUntilWindowEnds, windowStart } from "../../domain/auth/rate_limit.ts";
import { RateLimitedError } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";
import { deleteRateLimitCountersBefore, incrementRateLimitCounter } from "./rate_limit_repo.ts";

/** Counters older than this are deleted, every `PRUNE_EVERY_HITS` requests of a limiter. */
const PRUNE_AFTER_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_HITS = 500;

export interface AuthRateLimiter {
  /** Counts one request from `clientIp`; 429 `rate_limited` once the window's limit is passed. */
  limit(clientIp: string): Promise<void>;
}

/** One limiter per application (its prune countdown is its own state). */
export function createAuthRateLimiter(
  deps: Pick<AppDeps, "config" | "db" | "clock">,
): AuthRateLimiter {
  let hitsSincePrune = 0;
  return {
    async limit(clientIp) {
      const limit = deps.config.authRateLimit;
      if (!limit) return;
      const now = deps.clock.now();
      const hits = await incrementRateLimitCounter(
        deps.db,
        `auth-ip:${clientIp}`,
        windowStart(now, limit.windowSeconds),
      );
      if (++hitsSincePrune >= PRUNE_EVERY_HITS) {
        hitsSincePrune = 0;
        await deleteRateLimitCountersBefore(deps.db, new Date(now.getTime() - PRUNE_AFTER_MS))
          .catch(() => {});
      }
      if (hits > limit.max) {
        throw new RateLimitedError(
          secondsUntilWindowEnds(now, limit.windowSeconds),
          "Too many authentication requests from this address; try again later",
        );
      }
    },
  };
}
