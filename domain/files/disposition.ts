/**
 * The `Content-Disposition` of a stored file served under a name: an ASCII fallback
 * (`filename="…"`, quotes, backslashes and anything outside printable ASCII replaced) and the
 * exact name in RFC 8187 form (`filename*=UTF-8''…`, RFC 6266), so no name can break the header.
 *
 * The name always ends in an extension of the type the file is served as (judged from its bytes
 * at upload): a GIF uploaded as `invoice.html` is offered as `invoice.html.gif`, so "Save as"
 * never stores content under another type's extension (where a browser or the desktop would
 * open it as that type). The right extension is appended, not swapped in: nothing of the name
 * given is lost (`Price list v1.2` → `Price list v1.2.pdf`), and the last extension is the one
 * that decides how a saved file opens.
 */
import { extensionsOf } from "./content_type.ts";

/**
 * `name` as a file of `contentType` is saved: unchanged when it already ends in one of the
 * type's extensions (any case; trailing dots and spaces, which Windows drops, are dropped),
 * else with the type's extension appended. A type without known extensions keeps the name.
 */
export function downloadName(name: string, contentType: string): string {
  const extensions = extensionsOf(contentType);
  if (!extensions) return name;
  const base = name.replace(/[.\s]+$/u, "") || "file";
  const dot = base.lastIndexOf(".");
  const current = dot === -1 ? "" : base.slice(dot + 1).toLowerCase();
  return extensions.includes(current) ? base : `${base}.${extensions[0]}`;
}

/** The header for a stored file named `name` served as `contentType` (see `downloadName`). */
export function contentDisposition(
  name: string,
  contentType: string,
  type: "inline" | "attachment" = "inline",
): string {
  const saved = downloadName(name, contentType);
  const fallback = saved.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(saved).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
