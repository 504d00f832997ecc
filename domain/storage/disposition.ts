/**
 * The `Content-Disposition` of a stored file served under its own name: an ASCII fallback
 * (`filename="…"`, quotes, backslashes and anything outside printable ASCII replaced) and the
 * exact name in RFC 8187 form (`filename*=UTF-8''…`), so no name can break the header.
 */
export function contentDisposition(name: string, type: "inline" | "attachment" = "inline"): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, "_") || "file";
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
