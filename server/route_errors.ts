/**
 * Which errors a declared route can answer: what its pipeline adds by itself (derived from the
 * spec: a guard → 401/403, path ids → 404, a body → 400/413/415, a write → 409 ...) plus the
 * codes its handler declares in `errors`. One function serves the OpenAPI document and the
 * check that refuses an undeclared answer in tests, so the two cannot drift apart.
 */
import { moduleForPath } from "../domain/platform/modules.ts";

/** The statuses of error answers (RFC 9457 problems). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 423 | 429;

/**
 * The error codes a route's handler (and the use cases it calls) can answer, by status, beyond
 * those its pipeline adds itself (`pipelineErrors`).
 */
export type ErrorDeclarations = Partial<Record<ErrorStatus, readonly string[]>>;

/** What of a route spec (server/route.ts) decides its errors. */
export interface ErrorShape {
  method: string;
  access: string;
  fullLogin?: boolean;
  params?: unknown;
  query?: unknown;
  body?: unknown;
  multipart?: unknown;
  errors?: ErrorDeclarations;
}

/** Status → the `code` values a route can answer with it (500 and 503 included). */
export type RouteErrors = ReadonlyMap<number, readonly string[]>;

/** The pipeline's own errors for a route at `fullPath` (`/v1/products/:id`). */
export function pipelineErrors(spec: ErrorShape, fullPath: string): Map<number, string[]> {
  const errors = new Map<number, string[]>();
  const add = (status: number, ...codes: string[]) => {
    const list = errors.get(status) ?? [];
    for (const code of codes) if (!list.includes(code)) list.push(code);
    errors.set(status, list);
  };
  const isPublic = spec.access === "public";
  const keyed = !isPublic && spec.method === "post";
  // A write reads its body: the one it takes, or one it refuses (server/route.ts NO_BODY).
  const readsBody = spec.method !== "get";
  if (spec.query || readsBody) add(400, "validation_failed");
  if (readsBody) add(400, "bad_request"); // unreadable JSON or form; malformed Idempotency-Key
  if (!isPublic) add(401, "unauthenticated", "user_disabled");
  if (spec.fullLogin) add(403, "full_login_required");
  if (moduleForPath(fullPath.replace(/^\/v1/, ""))) add(403, "module_disabled");
  if (!isPublic && spec.access !== "authenticated") add(403, "forbidden");
  if (spec.params) add(404, "not_found");
  if (keyed) add(409, "idempotency_key_reused", "idempotency_in_progress");
  if (spec.method !== "get") add(409, "concurrent_update");
  // Any body sent to a write is checked for its type and read (server/route.ts
  // readRequestBody). A GET's body is ignored.
  if (readsBody) add(413, "payload_too_large");
  if (spec.method !== "get") add(415, "unsupported_media_type");
  add(500, "internal");
  add(503, "unavailable");
  return errors;
}

/** Everything the route can answer: the pipeline's errors and the handler's declared ones. */
export function routeErrors(spec: ErrorShape, fullPath: string): RouteErrors {
  const errors = pipelineErrors(spec, fullPath);
  for (const [status, codes] of Object.entries(spec.errors ?? {})) {
    const list = errors.get(Number(status)) ?? [];
    for (const code of codes ?? []) if (!list.includes(code)) list.push(code);
    errors.set(Number(status) as ErrorStatus, list);
  }
  return new Map([...errors].sort(([a], [b]) => a - b));
}

export function isDeclared(errors: RouteErrors, status: number, code: string): boolean {
  return errors.get(status)?.includes(code) ?? false;
}
