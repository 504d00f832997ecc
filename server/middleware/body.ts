/**
 * Request bodies within the route's limit (API §1.1), read by the route pipeline only after
 * the guard has let the caller in:
 *  - the Content-Type gate: a body the route does not take (multipart on a JSON route, JSON or
 *    text on the upload route) is refused with 415 before a byte of it is read;
 *  - the limit: a declared Content-Length over it → 413 before reading; otherwise the stream is
 *    counted while it is read and cut (413) as soon as it passes the limit;
 *  - one buffer: the bytes land in a single resizable buffer that grows in place up to the
 *    limit (no chunk list, no concatenation), so a body is held in memory once.
 */
import {
  BadInputError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from "../../domain/errors.ts";

/** JSON bodies are small (API §1.1). */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/** What a route takes: JSON (with or without a declared body) or a multipart form. */
export type BodyKind = "json" | "multipart";

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const MULTIPART_TYPE = /^multipart\/form-data\s*;/i;

/**
 * Whether the request carries a body at all. An empty declared length counts as none, and so
 * does a request that declares nothing about one (no Content-Length, Transfer-Encoding or
 * Content-Type): HTTP/1.1 gives it no body, but Deno.serve still hands over an (empty)
 * stream, so `curl -X POST` to a route without a body would otherwise be a 415.
 */
export function hasBody(request: Request): boolean {
  if (request.body === null) return false;
  const headers = request.headers;
  const length = headers.get("Content-Length");
  if (length !== null) return length.trim() !== "0";
  return headers.has("Transfer-Encoding") || headers.has("Content-Type");
}

/** 415 unless the request's Content-Type is one the route takes; call before reading. */
export function requireContentType(request: Request, kind: BodyKind): void {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (kind === "multipart" ? MULTIPART_TYPE.test(contentType) : JSON_TYPE.test(contentType)) {
    return;
  }
  throw new UnsupportedMediaTypeError(
    kind === "multipart"
      ? "This route takes a multipart/form-data upload"
      : "This route takes a JSON body (Content-Type: application/json)",
  );
}

function tooLarge(limit: number): PayloadTooLargeError {
  return new PayloadTooLargeError(
    `The request body is larger than this route's limit (${limit} bytes)`,
  );
}

/**
 * The whole body, at most `limit` bytes (413 otherwise), in one buffer. Empty when the
 * request has none.
 */
export async function readBody(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get("Content-Length");
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) {
    throw tooLarge(limit);
  }
  if (!request.body) return new Uint8Array(0);
  // Grows in place up to `limit`: pages are committed as bytes arrive, never copied.
  const buffer = new ArrayBuffer(0, { maxByteLength: limit });
  const bytes = new Uint8Array(buffer);
  const reader = request.body.getReader();
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read().catch(() => {
        throw new BadInputError("bad_request", "The request body could not be read");
      });
      if (done) break;
      if (length + value.byteLength > limit) {
        await reader.cancel().catch(() => {});
        throw tooLarge(limit);
      }
      buffer.resize(length + value.byteLength);
      bytes.set(value, length);
      length += value.byteLength;
    }
  } finally {
    reader.releaseLock();
  }
  return new Uint8Array(buffer, 0, length);
}
