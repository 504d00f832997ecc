/** Pieces the vault routers share (folder-private). */
import type { Context } from "hono";
import type { AppEnv } from "../../context.ts";
import { problemJson, toProblem } from "../../errors.ts";

export const VAULT_TAG = "Vault";

export const noContent = (description: string) => ({ 204: { description } });

/** The 204 of a route answered through `noStore`. */
export const noStoreContent = (description: string) => ({
  204: { description, headers: ["Cache-Control"] as const },
});

/** The errors of every route that needs the vault unlocked. */
export const LOCKED = ["vault_locked", "vault_not_initialized"] as const;

export const NO_STORE_NOTE =
  " Answered with `Cache-Control: no-store`, refusals included; an `Idempotency-Key` " +
  "request of this route is never kept for replay (its request or answer holds a secret), " +
  "so a retry acts again.";

/**
 * For routes whose request (a master password, a secret) or answer (a revealed secret) holds a
 * secret: every answer below 500, refusals included, carries `Cache-Control: no-store`. The
 * `Idempotency-Key` pipeline then keeps nothing of the request (neither the answer nor the
 * hash of a body holding a password: its key row is released in the same transaction).
 */
export async function noStore(
  c: Context<AppEnv>,
  answer: () => Promise<Response>,
): Promise<Response> {
  let response: Response;
  try {
    response = await answer();
  } catch (error) {
    const problem = toProblem(error, c.get("requestId") ?? "unknown");
    if (problem.status >= 500) throw error;
    response = problemJson(problem);
  }
  response.headers.set("Cache-Control", "no-store");
  return response;
}
