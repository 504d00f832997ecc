/**
 * The upload whitelist, judged from the content's first bytes (never from the client's
 * Content-Type or file name): JPEG, PNG, WebP, GIF, PDF; plain text (valid UTF-8 without NUL
 * bytes) only for the `notes` category.
 */

export interface SniffedType {
  contentType: string;
  /** The extension of the stored file's generated key. */
  extension: string;
}

/**
 * The file name extensions of each type we store (lower case, media type without parameters):
 * the first names the generated keys; any of them is a name's right extension when the file is
 * downloaded (domain/files/disposition.ts).
 */
const EXTENSIONS: Readonly<Record<string, readonly [string, ...string[]]>> = {
  "image/jpeg": ["jpg", "jpeg", "jpe"],
  "image/png": ["png"],
  "image/gif": ["gif"],
  "image/webp": ["webp"],
  "application/pdf": ["pdf"],
  "text/plain": ["txt"],
};

/** The media types a stored file is served with (the upload whitelist). */
export const STORED_MEDIA_TYPES: readonly string[] = Object.keys(EXTENSIONS);

/** The extensions of a stored content type (`text/plain; charset=utf-8` → txt), if known. */
export function extensionsOf(contentType: string): readonly [string, ...string[]] | undefined {
  const mediaType = contentType.split(";", 1)[0]!.trim().toLowerCase();
  return Object.hasOwn(EXTENSIONS, mediaType) ? EXTENSIONS[mediaType] : undefined;
}

function typed(contentType: string): SniffedType {
  return { contentType, extension: extensionsOf(contentType)![0] };
}

function startsWith(bytes: Uint8Array, prefix: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + prefix.length) return false;
  return prefix.every((b, i) => bytes[offset + i] === b);
}

const ascii = (text: string) => Array.from(text, (ch) => ch.charCodeAt(0));

/** The binary formats we accept, by signature. */
export function sniffBinaryType(head: Uint8Array): SniffedType | undefined {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return typed("image/jpeg");
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return typed("image/png");
  if (startsWith(head, ascii("GIF87a")) || startsWith(head, ascii("GIF89a"))) {
    return typed("image/gif");
  }
  if (startsWith(head, ascii("RIFF")) && startsWith(head, ascii("WEBP"), 8)) {
    return typed("image/webp");
  }
  if (startsWith(head, ascii("%PDF-"))) return typed("application/pdf");
  return undefined;
}

/** Plain text: valid UTF-8 and no NUL byte anywhere. */
export function isPlainText(content: Uint8Array): boolean {
  if (content.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(content);
    return true;
  } catch {
    return false;
  }
}

export const TEXT_CATEGORY = "notes";

/**
 * The stored type of an upload, or undefined when it is not on the whitelist. Text is
 * judged over the whole content, so pass all of it.
 */
export function sniffUpload(content: Uint8Array, category: string | null): SniffedType | undefined {
  const binary = sniffBinaryType(content.subarray(0, 16));
  if (binary) return binary;
  if (category === TEXT_CATEGORY && isPlainText(content)) {
    return typed("text/plain; charset=utf-8");
  }
  return undefined;
}
