/**
 * Request id (the client's own when it is 1–128 characters of `A-Za-z0-9._-`) and one
 * structured log line per request: 4xx at warn, 5xx at error. Only method, path (never the
 * query string, which may hold a signed-URL signature), status, duration and user id.
 */
import type { MiddlewareHandler } from "hono";
import type { AppDeps } from "../../app/deps.ts";
import type { AppEnv } from "../context.ts";

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function requestContext(deps: Pick<AppDeps, "ids" | "logger">): MiddlewareHandler<AppEnv> {
  const { ids, logger } = deps;
  return async (c, next) => {
    const started = performance.now();
    const offered = c.req.header("X-Request-Id");
    const requestId = offered && CLIENT_REQUEST_ID.test(offered) ? offered : ids.uuid();
    c.set("requestId", requestId);
    c.set("actor", undefined);
    await next();
    c.res.headers.set("X-Request-Id", requestId);
    const status = c.res.status;
    const fields = {
      requestId,
      method: c.req.method,
      path: c.req.path,
      status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      userId: c.get("actor")?.userId,
    };
    if (status >= 500) logger.error("request failed", fields);
    else if (status >= 400) logger.warn("request refused", fields);
    else logger.info("request", fields);
  };
}
