/**
 * Office documents judged from their ZIP container (API §11: the storage hub keeps a shop's
 * documents), never from a file name or a client's Content-Type. Nothing is decompressed: the
 * entry names of the ZIP's central directory, and for OpenDocument the `mimetype` entry the
 * format requires first and stored uncompressed, decide.
 *
 * - Word (docx) and Excel (xlsx), Office Open XML: `[Content_Types].xml` and the parts of
 *   the one or the other (`word/…`, `xl/…`).
 * - OpenDocument text (odt) and spreadsheet (ods): the first entry is `mimetype`, stored,
 *   holding `application/vnd.oasis.opendocument.text` (or `.spreadsheet`), and the central
 *   directory lists `content.xml`.
 *
 * Documents that carry macros (a `vbaProject.bin` part, OpenDocument `Basic/` or `Scripts/`
 * entries) are not documents here but programs, and are refused like executables; so are
 * anything else in a ZIP, ZIP64 and multi-disk archives, and a truncated or inconsistent
 * directory.
 */

export type OfficeDocument = "docx" | "xlsx" | "odt" | "ods";

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_DIRECTORY = 0x06054b50;
const END_RECORD_BYTES = 22;
const CENTRAL_HEADER_BYTES = 46;
const LOCAL_HEADER_BYTES = 30;
const MAX_COMMENT_BYTES = 0xffff;

function u16(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8);
}

function u32(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)) + bytes[at + 3]! * 0x1000000;
}

const latin1 = new TextDecoder("latin1");

/** The entry names a complete, single-disk, non-ZIP64 archive lists; undefined otherwise. */
export function zipEntryNames(bytes: Uint8Array): string[] | undefined {
  if (bytes.length < LOCAL_HEADER_BYTES + END_RECORD_BYTES || u32(bytes, 0) !== LOCAL_HEADER) {
    return undefined;
  }
  const lowest = Math.max(0, bytes.length - END_RECORD_BYTES - MAX_COMMENT_BYTES);
  for (let end = bytes.length - END_RECORD_BYTES; end >= lowest; end--) {
    if (u32(bytes, end) !== END_OF_DIRECTORY) continue;
    if (end + END_RECORD_BYTES + u16(bytes, end + 20) !== bytes.length) continue;
    return directoryNames(bytes, end);
  }
  return undefined;
}

function directoryNames(bytes: Uint8Array, end: number): string[] | undefined {
  const [disk, directoryDisk] = [u16(bytes, end + 4), u16(bytes, end + 6)];
  const [entriesHere, entries] = [u16(bytes, end + 8), u16(bytes, end + 10)];
  const [size, offset] = [u32(bytes, end + 12), u32(bytes, end + 16)];
  if (disk !== 0 || directoryDisk !== 0 || entriesHere !== entries || entries === 0xffff) {
    return undefined;
  }
  if (offset + size > end) return undefined;
  const names: string[] = [];
  let at = offset;
  for (let i = 0; i < entries; i++) {
    if (at + CENTRAL_HEADER_BYTES > offset + size || u32(bytes, at) !== CENTRAL_HEADER) {
      return undefined;
    }
    const nameEnd = at + CENTRAL_HEADER_BYTES + u16(bytes, at + 28);
    const next = nameEnd + u16(bytes, at + 30) + u16(bytes, at + 32);
    if (next > offset + size) return undefined;
    names.push(latin1.decode(bytes.subarray(at + CENTRAL_HEADER_BYTES, nameEnd)));
    at = next;
  }
  return names;
}

/** The content of the archive's first entry when it is `mimetype`, stored uncompressed. */
function firstMimetype(bytes: Uint8Array): string | undefined {
  const method = u16(bytes, 8);
  const size = u32(bytes, 18);
  const nameLength = u16(bytes, 26);
  const dataStart = LOCAL_HEADER_BYTES + nameLength + u16(bytes, 28);
  const name = latin1.decode(bytes.subarray(LOCAL_HEADER_BYTES, LOCAL_HEADER_BYTES + nameLength));
  if (name !== "mimetype" || method !== 0 || size > 200 || dataStart + size > bytes.length) {
    return undefined;
  }
  return latin1.decode(bytes.subarray(dataStart, dataStart + size));
}

/** The media type of each office document (an OpenDocument's `mimetype` entry holds its own). */
export const OFFICE_TYPES: Readonly<Record<OfficeDocument, string>> = {
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  odt: "application/vnd.oasis.opendocument.text",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
};

/** Entries that make a document a program (macros). */
function carriesMacros(names: readonly string[]): boolean {
  return names.some((name) => {
    const lower = name.toLowerCase();
    return lower.endsWith("vbaproject.bin") || lower.startsWith("basic/") ||
      lower.startsWith("scripts/");
  });
}

/** Which office document `bytes` is (see the top of this file), or undefined. */
export function sniffOfficeDocument(bytes: Uint8Array): OfficeDocument | undefined {
  const names = zipEntryNames(bytes);
  if (!names || carriesMacros(names)) return undefined;
  const mimetype = firstMimetype(bytes);
  if (mimetype !== undefined) {
    const kind = (["odt", "ods"] as const).find((k) => OFFICE_TYPES[k] === mimetype);
    return kind && names.includes("content.xml") ? kind : undefined;
  }
  if (!names.includes("[Content_Types].xml")) return undefined;
  if (names.some((name) => name.startsWith("word/"))) return "docx";
  if (names.some((name) => name.startsWith("xl/"))) return "xlsx";
  return undefined;
}
