/**
 * Small ZIP archives for the office-document tests: entries stored uncompressed (as
 * OpenDocument's `mimetype` must be), with CRC-32s, a central directory and its end record,
 * so the archives open in any ZIP tool; and the smallest Word, Excel and OpenDocument files.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const b of bytes) crc = CRC_TABLE[(crc ^ b) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

class Writer {
  readonly parts: number[] = [];
  u16(value: number) {
    this.parts.push(value & 0xff, (value >>> 8) & 0xff);
  }
  u32(value: number) {
    this.u16(value & 0xffff);
    this.u16(value >>> 16);
  }
  bytes(bytes: Uint8Array) {
    for (const b of bytes) this.parts.push(b);
  }
}

export type ZipEntry = [name: string, content: string | Uint8Array];

/** A ZIP of `entries` in this order, each stored; `comment` ends the archive. */
export function zip(entries: readonly ZipEntry[], comment = ""): Uint8Array {
  const out = new Writer();
  const central = new Writer();
  const encoder = new TextEncoder();
  for (const [name, content] of entries) {
    const nameBytes = encoder.encode(name);
    const data = typeof content === "string" ? encoder.encode(content) : content;
    const crc = crc32(data);
    const offset = out.parts.length;
    out.u32(0x04034b50);
    for (const v of [20, 0, 0, 0, 0x21]) out.u16(v); // version, flags, stored, time, date
    out.u32(crc);
    out.u32(data.length);
    out.u32(data.length);
    out.u16(nameBytes.length);
    out.u16(0);
    out.bytes(nameBytes);
    out.bytes(data);
    central.u32(0x02014b50);
    for (const v of [20, 20, 0, 0, 0, 0x21]) central.u16(v);
    central.u32(crc);
    central.u32(data.length);
    central.u32(data.length);
    for (const v of [nameBytes.length, 0, 0, 0, 0]) central.u16(v);
    central.u32(0);
    central.u32(offset);
    central.bytes(nameBytes);
  }
  const directoryOffset = out.parts.length;
  out.parts.push(...central.parts);
  const commentBytes = encoder.encode(comment);
  out.u32(0x06054b50);
  for (const v of [0, 0, entries.length, entries.length]) out.u16(v);
  out.u32(central.parts.length);
  out.u32(directoryOffset);
  out.u16(commentBytes.length);
  out.bytes(commentBytes);
  return new Uint8Array(out.parts);
}

const CONTENT_TYPES = '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/' +
  'package/2006/content-types"/>';

export const DOCX = zip([
  ["[Content_Types].xml", CONTENT_TYPES],
  ["_rels/.rels", "<Relationships/>"],
  ["word/document.xml", "<w:document/>"],
]);

export const XLSX = zip([
  ["[Content_Types].xml", CONTENT_TYPES],
  ["_rels/.rels", "<Relationships/>"],
  ["xl/workbook.xml", "<workbook/>"],
  ["xl/worksheets/sheet1.xml", "<worksheet/>"],
]);

export function openDocument(mimetype: string, extra: readonly ZipEntry[] = []): Uint8Array {
  return zip([
    ["mimetype", mimetype],
    ["content.xml", "<office:document-content/>"],
    ["META-INF/manifest.xml", "<manifest:manifest/>"],
    ...extra,
  ]);
}

export const ODT = openDocument("application/vnd.oasis.opendocument.text");
export const ODS = openDocument("application/vnd.oasis.opendocument.spreadsheet");
