/**
 * The per-client-IP limit on the unauthenticated auth routes (API §2): N requests per
 * window across login, register, forgot-password, reset-password and pin-login, counted in
 * the database (one atomic upsert-increment per request) so several server processes share
 * the count. `AUTH_RATE_LIMIT=off` disables only this limit.
 */
import { secondsUntilWindowEnds, windowStart } from "../../domain/auth/rate_limit.ts";
import { RateLimitedError } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";
import { incrementCounter, pruneCounters } from "./auth_repo.ts";

const PRUNE_AFTER_MS = 24 * 60 * 60 * 1000;
let hitsSincePrune = 0;

export async function limitAuthRequest(
  deps: Pick<AppDeps, "config" | "db" | "clock">,
  clientIp: string,
): Promise<void> {
  const limit = deps.config.authRateLimit;
  if (!limit) return;
  const now = deps.clock.now();
  const hits = await incrementCounter(
    deps.db,
    `auth-ip:${clientIp}`,
    windowStart(now, limit.windowSeconds),
  );
  if (++hitsSincePrune >= 500) {
    hitsSincePrune = 0;
    await pruneCounters(deps.db, new Date(now.getTime() - PRUNE_AFTER_MS)).catch(() => {});
  }
  if (hits > limit.max) {
    throw new RateLimitedError(
      secondsUntilWindowEnds(now, limit.windowSeconds),
      "Too many authentication requests from this address; try again later",
    );
  }
}
