/**
 * `Idempotency-Key` on any POST (API §1.4): the first request with a key runs and its
 * response (below 500) is stored; a retry by the same caller with the same body gets that
 * response again without acting twice; the same key with another body → 409
 * `idempotency_key_reused`. A retry that arrives while the first is still running waits
 * for it (up to 10 s). Keys are scoped to the verified user and live 24 hours; requests
 * without a user (public routes) are not stored.
 */
import type { Context, MiddlewareHandler } from "hono";
import { BadInputError, ConflictError } from "../../domain/errors.ts";
import type { AppDeps } from "../../app/deps.ts";
import {
  claimKey,
  findStoredResponse,
  releaseKey,
  saveResponse,
} from "../../app/platform/idempotency.ts";
import type { StoredResponse } from "../../app/platform/idempotency_repo.ts";
import type { AppEnv } from "../context.ts";
import { authenticate } from "../route.ts";

const WAIT_FOR_FIRST_MS = 10_000;

async function sha256Hex(data: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data as BufferSource));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The caller, authenticated exactly as the route will (signature, expiry, revocation,
 * disabled user), so a revoked token never gets a stored response replayed. Requests without
 * a caller (public routes such as login, whose responses hold tokens that must never be
 * stored) and refused credentials (left for the route to answer) get no scope: `undefined`.
 */
async function callerScope(deps: AppDeps, c: Context<AppEnv>): Promise<string | undefined> {
  if (!c.req.header("Authorization") && !c.req.header("X-Dev-User")) return undefined;
  try {
    return `user:${(await authenticate(deps, c)).userId}`;
  } catch {
    return undefined;
  }
}

function replay(stored: StoredResponse): Response {
  const headers = new Headers({ "Idempotent-Replayed": "true" });
  if (stored.contentType) headers.set("Content-Type", stored.contentType);
  return new Response(stored.body === "" ? null : stored.body, {
    status: stored.statusCode!,
    headers,
  });
}

export function idempotency(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header("Idempotency-Key");
    if (c.req.method !== "POST" || key === undefined) return next();
    if (key.length < 1 || key.length > 255) {
      throw new BadInputError("bad_request", "Idempotency-Key must be 1 to 255 characters");
    }
    const scope = await callerScope(deps, c);
    if (scope === undefined) return next();

    const body = new Uint8Array(await c.req.arrayBuffer());
    const prefix = new TextEncoder().encode(`${c.req.method} ${c.req.path}\n`);
    const requestHash = await sha256Hex(new Uint8Array([...prefix, ...body]));

    const claim = () => claimKey(deps, scope, key, requestHash);
    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    let claimed = await claim();
    while (!claimed) {
      const stored = await findStoredResponse(deps, scope, key);
      if (!stored) {
        // The first attempt failed and released the key: this one may run now.
        claimed = await claim();
        continue;
      }
      if (stored.requestHash !== requestHash) {
        throw new ConflictError(
          "idempotency_key_reused",
          "This Idempotency-Key was used with a different request",
        );
      }
      if (stored.statusCode !== null) return c.res = replay(stored);
      if (Date.now() >= deadline) {
        throw new ConflictError(
          "idempotency_in_progress",
          "A request with this Idempotency-Key is still running",
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    try {
      await next();
    } catch (error) {
      await releaseKey(deps, scope, key).catch(() => {});
      throw error;
    }
    if (c.res.status >= 500) {
      await releaseKey(deps, scope, key).catch(() => {});
      return;
    }
    const responseBody = await c.res.clone().text();
    await saveResponse(deps, scope, key, {
      status: c.res.status,
      body: responseBody,
      contentType: c.res.headers.get("Content-Type"),
    });
  };
}
