import type { Actor } from "../app/actor.ts";

/** Typed Hono context variables set by the middleware. */
export interface AppEnv {
  Variables: {
    requestId: string;
    actor: Actor | undefined;
  };
}
