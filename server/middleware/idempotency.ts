/**
 * `Idempotency-Key` on any POST (API §1.4), run by the route pipeline (server/route.ts) after
 * the guard (so a caller without the permission never gets a body read, a key claimed or a
 * response replayed) and after the body was read within the route's limit. The first request
 * with a key runs and its response (below 500) is stored; a retry by the same caller with the
 * same body gets that response again without acting twice; the same key with another body →
 * 409 `idempotency_key_reused`. A retry that arrives while the first is still running waits for
 * it (up to 10 s). Keys are scoped to the verified user and live 24 hours. The request runs in
 * one transaction with its key and stored response (see `runIdempotent`), so a commit whose
 * outcome is unknown never lets a retry act twice.
 *
 * Nothing secret is stored: public routes (login, pin-login, ...: no caller, and their answers
 * are tokens) never use the key, a response marked `Cache-Control: no-store` (it carries a
 * credential: an access token, a reset link) is not stored either (its key is released, so a
 * retry acts again), and a route whose response holds a secret it can derive again (a file's
 * signed URL) stores it without that secret and derives it again on replay (`ReplayCodec`).
 */
import { createHash } from "node:crypto";
import type { Context } from "hono";
import { BadInputError, ConflictError } from "../../domain/errors.ts";
import type { AppDeps } from "../../app/deps.ts";
import {
  claimKeyWaiting,
  findStoredResponse,
  inRequestTransaction,
  releaseKey,
  saveResponse,
} from "../../app/platform/idempotency.ts";
import type { StoredResponse } from "../../app/platform/idempotency_repo.ts";
import type { AppEnv } from "../context.ts";
import { problemJson, toProblem } from "../errors.ts";

const WAIT_FOR_FIRST_MS = 10_000;

/**
 * For a JSON response holding a secret the server can derive again (a signed URL): what is
 * stored instead of the body (without the secret), and how a replay rebuilds the body.
 */
export interface ReplayCodec {
  store(body: unknown): unknown;
  restore(stored: unknown): unknown | Promise<unknown>;
}

export interface IdempotentRequest {
  /** `user:<id>`: keys belong to one caller. */
  scope: string;
  key: string;
  /** `requestHash(...)` of the request. */
  hash: string;
  codec?: ReplayCodec;
}

/** The request's `Idempotency-Key` (POST only), or undefined; a malformed key → 400. */
export function idempotencyKeyOf(c: Context<AppEnv>): string | undefined {
  const key = c.req.header("Idempotency-Key");
  if (c.req.method !== "POST" || key === undefined) return undefined;
  if (key.length < 1 || key.length > 255) {
    throw new BadInputError("bad_request", "Idempotency-Key must be 1 to 255 characters");
  }
  return key;
}

/**
 * SHA-256 (hex) of `"<METHOD> <path>\n"` followed by the body, hashed in place (no copy of the
 * body is made, whatever its size).
 */
export function requestHash(method: string, path: string, body: Uint8Array | undefined): string {
  const hash = createHash("sha256").update(`${method} ${path}\n`);
  if (body && body.byteLength > 0) hash.update(body);
  return hash.digest("hex");
}

async function replay(stored: StoredResponse, codec: ReplayCodec | undefined): Promise<Response> {
  const headers = new Headers({ "Idempotent-Replayed": "true" });
  if (stored.contentType) headers.set("Content-Type", stored.contentType);
  let body = stored.body === "" ? null : stored.body;
  if (codec && body !== null && isSuccess(stored.statusCode!)) {
    body = JSON.stringify(await codec.restore(JSON.parse(body)));
  }
  return new Response(body, { status: stored.statusCode!, headers });
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

function forbidsStoring(response: Response): boolean {
  return /\bno-store\b/i.test(response.headers.get("Cache-Control") ?? "");
}

/** Ends the request's transaction without committing, answering `response` unstored. */
class AnswerUnstored {
  constructor(readonly response: Response) {}
}

/**
 * Runs `run` once per key. The claim of the key, everything `run` does on the database and
 * the stored response are ONE transaction (`inRequestTransaction`): they commit together or
 * not at all. So a COMMIT whose outcome is unknown (503, API §1.1) leaves either the work with
 * its stored response (a retry replays it) or nothing (a retry does the work, once); a retry
 * that arrives while that COMMIT is still pending waits for it on the key's row.
 *
 * A duplicate that arrives while the first is running waits for it (up to 10 s, then 409
 * `idempotency_in_progress`). Errors below 500 are answered and stored like any response (a use
 * case that failed was rolled back to its savepoint); a 5xx rolls everything back, so a retry
 * runs again.
 */
export async function runIdempotent(
  deps: AppDeps,
  c: Context<AppEnv>,
  request: IdempotentRequest,
  run: () => Promise<Response>,
): Promise<Response> {
  const { scope, key, hash, codec } = request;
  let ran = false;
  try {
    const answer = await inRequestTransaction(deps, async (trx) => {
      const db = { db: trx };
      const claim = await claimKeyWaiting(deps, trx, scope, key, hash, WAIT_FOR_FIRST_MS);
      if (claim !== "claimed") {
        const stored = claim === "held" ? await findStoredResponse(db, scope, key) : undefined;
        if (stored && stored.requestHash !== hash) {
          throw new ConflictError(
            "idempotency_key_reused",
            "This Idempotency-Key was used with a different request",
          );
        }
        if (stored?.statusCode != null) return await replay(stored, codec);
        throw new ConflictError(
          "idempotency_in_progress",
          "A request with this Idempotency-Key is still running",
        );
      }
      let response: Response;
      ran = true;
      try {
        response = await run();
      } catch (error) {
        const problem = toProblem(error, c.get("requestId") ?? "unknown");
        if (problem.status >= 500) throw error;
        response = problemJson(problem);
      }
      if (response.status >= 500) throw new AnswerUnstored(response);
      if (forbidsStoring(response)) {
        // It carries a credential: the work commits, the key is freed (a retry acts again).
        await releaseKey(db, scope, key);
        return response;
      }
      let body = await response.clone().text();
      if (codec && body !== "" && isSuccess(response.status)) {
        body = JSON.stringify(codec.store(JSON.parse(body)));
      }
      try {
        await saveResponse(db, scope, key, {
          status: response.status,
          body,
          contentType: response.headers.get("Content-Type"),
        });
      } catch (error) {
        // A refusal whose failed statement aborted the transaction: answer it, keep nothing.
        if (response.status >= 400) throw new AnswerUnstored(response);
        throw error;
      }
      return response;
    });
    if (ran) dropCachesAfterCommit(deps);
    return answer;
  } catch (error) {
    if (error instanceof AnswerUnstored) return error.response;
    throw error;
  }
}

/**
 * A use case that changed identities or modules dropped this process's caches when its own
 * step ended, before the request's transaction committed: a request reading in between may
 * have cached the old state again. Its changes are visible now: drop them once more.
 */
function dropCachesAfterCommit(deps: AppDeps): void {
  deps.actors.invalidate();
  deps.modules.invalidate();
}
