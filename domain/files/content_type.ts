/**
 * The upload whitelists, judged from the content (never from the client's Content-Type or file
 * name), and the one table of the types we store with their file name extensions:
 *  - files attached to records (API §6): JPEG, PNG, WebP, GIF, PDF; plain text (valid UTF-8
 *    without NUL bytes) only for the `notes` category;
 *  - the storage hub's documents (API §11): the same images and PDF, office documents (Word
 *    docx, Excel xlsx, OpenDocument odt and ods, domain/files/office_documents.ts) and plain
 *    text or CSV (valid UTF-8 without control characters but tab, line and form feeds and
 *    carriage returns, not starting like markup or a script: HTML, XML, SVG and `#!` scripts
 *    are refused, as are executables and anything else).
 */
import { OFFICE_TYPES, sniffOfficeDocument } from "./office_documents.ts";

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
  "text/plain": ["txt", "csv", "tsv", "text", "log"],
  [OFFICE_TYPES.docx]: ["docx"],
  [OFFICE_TYPES.xlsx]: ["xlsx"],
  [OFFICE_TYPES.odt]: ["odt"],
  [OFFICE_TYPES.ods]: ["ods"],
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

/**
 * Whether text starts like code: markup (after a byte order mark and white space, a `<`: an
 * HTML page, an XML or SVG document) or a script (`#!`). Such text is refused where plain text
 * is a document.
 */
export function startsLikeCode(content: Uint8Array): boolean {
  if (startsWith(content, ascii("#!"))) return true;
  let at = startsWith(content, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  while (at < content.length && [0x09, 0x0a, 0x0c, 0x0d, 0x20].includes(content[at]!)) at++;
  return content[at] === 0x3c;
}

/** C0 controls but tab, line feed, form feed and carriage return; and DEL. */
function isControl(b: number): boolean {
  return (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d) || b === 0x7f;
}

/**
 * Text a document may be (plain text, CSV): plain text without control characters (an
 * executable's header or a terminal's escape sequences are not a document) that does not
 * start like code.
 */
export function isDocumentText(content: Uint8Array): boolean {
  return isPlainText(content) && !content.some(isControl) && !startsLikeCode(content);
}

const TEXT = "text/plain; charset=utf-8";

/** What an upload route accepts: the stored type of an upload, or undefined (→ 415). */
export interface UploadWhitelist {
  /** What it accepts, in words (the 415's detail). */
  readonly accepted: string;
  /** The stored type of `content` (all of it: text is judged over the whole), if accepted. */
  sniff(content: Uint8Array): SniffedType | undefined;
}

export const TEXT_CATEGORY = "notes";

/** Files attached to records (API §6): images and PDF; plain text only in the notes category. */
export function recordFileWhitelist(category: string | null): UploadWhitelist {
  return {
    accepted: "JPEG, PNG, WebP, GIF and PDF (plain text only in the notes category)",
    sniff(content) {
      const binary = sniffBinaryType(content.subarray(0, 16));
      if (binary) return binary;
      return category === TEXT_CATEGORY && isPlainText(content) ? typed(TEXT) : undefined;
    },
  };
}

/** The storage hub's documents (API §11): images, PDF, office documents, plain text and CSV. */
export const DOCUMENT_WHITELIST: UploadWhitelist = {
  accepted: "PDF, JPEG, PNG, WebP, GIF, Word (docx), Excel (xlsx), OpenDocument text and " +
    "spreadsheets (odt, ods), and plain text or CSV in UTF-8",
  sniff(content) {
    const binary = sniffBinaryType(content.subarray(0, 16));
    if (binary) return binary;
    const office = sniffOfficeDocument(content);
    if (office) return typed(OFFICE_TYPES[office]);
    return isDocumentText(content) ? typed(TEXT) : undefined;
  },
};
