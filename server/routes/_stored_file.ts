/**
 * The one response that serves a stored file's bytes, for every route that does (`/files/serve`,
 * signed or not; the storage hub's content): the stored Content-Type, `nosniff`, a sandbox CSP
 * (an uploaded file never runs as this site's page), no caching, and a Content-Disposition whose
 * name ends in the served type's extension (domain/files/disposition.ts).
 */
import { contentDisposition } from "../../domain/files/disposition.ts";

/** How the routes describe the headers, for their OpenAPI descriptions. */
export const STORED_FILE_HEADERS = "Streams the file with its stored Content-Type, " +
  "`X-Content-Type-Options: nosniff`, `Content-Security-Policy: sandbox` (an uploaded file " +
  "never runs as this site's page) and `Content-Disposition: inline` with the file's name " +
  "(`filename`, ASCII, and the exact name in `filename*`, RFC 6266). The name always ends in " +
  "an extension of the served type, judged from the bytes at upload: when it does not already " +
  "(any case), that extension is appended (`invoice.html` served as image/gif → " +
  "`invoice.html.gif`, `scan` → `scan.jpg`), so a saved file never carries another type's " +
  "extension.";

export function storedFileResponse(
  file: { name: string; contentType: string; size: number },
  content: ReadableStream<Uint8Array>,
): Response {
  return new Response(content, {
    status: 200,
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.size),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "sandbox",
      "Content-Disposition": contentDisposition(file.name, file.contentType),
      "Cache-Control": "private, no-store",
    },
  });
}
