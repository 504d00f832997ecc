/**
 * Graceful shutdown around the HTTP handler. `Deno.serve`'s own `shutdown()` cuts off request
 * bodies still being received (an upload in progress fails), so on SIGTERM/SIGINT we first
 * drain: requests already running finish (up to the grace period) while new ones are
 * answered 503 `unavailable` with `Connection: close`; only then is the listener shut down.
 */
import { uuidv7 } from "../app/ids.ts";
import { UnavailableError } from "../domain/errors.ts";
import { problemJson, toProblem } from "./errors.ts";

type Handler = (request: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response>;

export interface DrainingHandler {
  fetch: Handler;
  /** Refuses new requests and resolves once none is running (true) or after `timeoutMs` (false). */
  drain(timeoutMs: number): Promise<boolean>;
}

export function drainingHandler(handler: Handler): DrainingHandler {
  let running = 0;
  let draining = false;
  let onIdle: (() => void) | undefined;
  return {
    async fetch(request, info) {
      if (draining) {
        const response = problemJson(
          toProblem(new UnavailableError("The server is shutting down"), uuidv7()),
        );
        response.headers.set("Connection", "close");
        return response;
      }
      running++;
      try {
        return await handler(request, info);
      } finally {
        running--;
        if (running === 0) onIdle?.();
      }
    },
    drain(timeoutMs) {
      draining = true;
      if (running === 0) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        onIdle = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
    },
  };
}
