/**
 * `multipart/form-data` (RFC 7578) parsed over the request body's one buffer: each part's
 * content is a view into that buffer, never a copy, so an upload is held in memory once (the
 * runtime's own `formData()` keeps the body, a joined copy and a Blob per file).
 */

export interface MultipartPart {
  name: string;
  /** Set on file parts: the client's file name (never used to store anything). */
  filename: string | undefined;
  contentType: string | undefined;
  /** A view into the request body (no copy). */
  content: Uint8Array;
}

/** At most this many parts, and this many bytes of headers per part. */
const MAX_PARTS = 64;
const MAX_HEADER_BYTES = 16 * 1024;

const CRLF = new Uint8Array([13, 10]);
const HEADER_END = new Uint8Array([13, 10, 13, 10]);
const DASH = 45;

/** The boundary parameter of a multipart Content-Type (quoted or not), else undefined. */
export function boundaryOf(contentType: string): string | undefined {
  const match = /;\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : undefined;
}

/** Boyer–Moore–Horspool search of `needle` in `haystack` from `from`; -1 when absent. */
function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number, to = haystack.length) {
  const m = needle.length;
  const skip = new Uint32Array(256).fill(m);
  for (let i = 0; i < m - 1; i++) skip[needle[i]!] = m - 1 - i;
  let at = from;
  while (at + m <= to) {
    let j = m - 1;
    while (j >= 0 && haystack[at + j] === needle[j]) j--;
    if (j < 0) return at;
    at += skip[haystack[at + m - 1]!]!;
  }
  return -1;
}

function unquote(value: string): string {
  return value.replace(/\\(.)/g, "$1");
}

/** `form-data; name="x"; filename="y"` → its parameters (lower-case names). */
function dispositionParams(value: string): Map<string, string> | undefined {
  const [type, ...rest] = value.split(";");
  if (type?.trim().toLowerCase() !== "form-data") return undefined;
  const params = new Map<string, string>();
  const pattern = /;\s*([\w*.-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/g;
  for (const match of `;${rest.join(";")}`.matchAll(pattern)) {
    params.set(match[1]!.toLowerCase(), match[2] !== undefined ? unquote(match[2]) : match[3]!);
  }
  return params;
}

function parseHeaders(block: Uint8Array): Map<string, string> | undefined {
  const headers = new Map<string, string>();
  const text = new TextDecoder().decode(block);
  if (text === "") return headers;
  for (const line of text.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) return undefined;
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/**
 * The parts of `body`, or undefined when it is not a well-formed multipart body for
 * `boundary` (no closing delimiter, a part without a form-data name, too many parts, ...).
 */
export function parseMultipart(body: Uint8Array, boundary: string): MultipartPart[] | undefined {
  const encoder = new TextEncoder();
  const delimiter = encoder.encode(`--${boundary}`);
  const nextDelimiter = encoder.encode(`\r\n--${boundary}`);
  // The first delimiter: at the very start, or after a preamble ending in CRLF.
  let at: number;
  if (startsWith(body, delimiter, 0)) at = delimiter.length;
  else {
    const found = indexOf(body, nextDelimiter, 0);
    if (found === -1) return undefined;
    at = found + nextDelimiter.length;
  }
  const parts: MultipartPart[] = [];
  for (;;) {
    if (body[at] === DASH && body[at + 1] === DASH) return parts; // The close delimiter.
    while (body[at] === 0x20 || body[at] === 0x09) at++; // Transport padding.
    if (!startsWith(body, CRLF, at)) return undefined;
    const headerEnd = indexOf(body, HEADER_END, at, Math.min(body.length, at + MAX_HEADER_BYTES));
    if (headerEnd === -1) return undefined;
    const headers = parseHeaders(body.subarray(at + 2, headerEnd));
    const disposition = headers && dispositionParams(headers.get("content-disposition") ?? "");
    const name = disposition?.get("name");
    if (!headers || name === undefined || name === "") return undefined;
    const contentStart = headerEnd + HEADER_END.length;
    const contentEnd = indexOf(body, nextDelimiter, contentStart);
    if (contentEnd === -1) return undefined;
    parts.push({
      name,
      filename: disposition!.get("filename"),
      contentType: headers.get("content-type"),
      content: body.subarray(contentStart, contentEnd),
    });
    if (parts.length > MAX_PARTS) return undefined;
    at = contentEnd + nextDelimiter.length;
  }
}

function startsWith(body: Uint8Array, prefix: Uint8Array, at: number): boolean {
  if (at + prefix.length > body.length) return false;
  for (let i = 0; i < prefix.length; i++) if (body[at + i] !== prefix[i]) return false;
  return true;
}
