/**
 * The client's IP address: the connection's remote address (Deno.serve passes it as the
 * handler's `info`), or with `TRUST_PROXY=true` the address the proxy recorded last in
 * `X-Forwarded-For` (the right-most entry: entries left of it can be forged by the client).
 * Requests without connection info (tests through `app.request()`) are "unknown".
 */
import type { Context } from "hono";
import { getConnInfo } from "hono/deno";

export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("X-Forwarded-For");
    const last = forwarded?.split(",").map((part) => part.trim()).filter(Boolean).at(-1);
    if (last) return last.slice(0, 100);
  }
  try {
    const address = getConnInfo(c).remote.address;
    if (address) return address;
  } catch {
    // No connection info (not served by Deno.serve).
  }
  return "unknown";
}
