/**
 * The backup archive's container format (API §16 `ops backup`), pure: no I/O, no hashing.
 *
 * An archive is a byte stream of:
 *
 *   MAGIC                      "SHOP-BACKUP 1\n" (14 bytes)
 *   part*                      in this order: every table, every file, then the manifest
 *
 * and each part is
 *
 *   u32 header length | header (UTF-8 JSON `{ "kind": "table"|"file"|"manifest", "name": … }`)
 *   chunk*            | u32 length (> 0) + that many bytes: together, the part's data as one
 *                     | gzip stream (RFC 1952; each part compressed on its own, so damage is
 *                     | found in the part it hits and names it)
 *   u32 0             | the end of the data
 *   32 bytes          | SHA-256 of the part's (uncompressed) data
 *
 * (u32: unsigned 32-bit big-endian.) A table's data is its rows in PostgreSQL's COPY text
 * format (one line per row, tab-separated, `\N` for NULL, in the columns the manifest lists), so
 * the same bytes load into PostgreSQL and into the embedded engine. A file's data is its bytes;
 * its name is its key under FILES_DIR. The manifest (the last part, JSON) lists the schema
 * version (the applied migrations), every table with its columns, rows, bytes and checksum,
 * the sequences' values and every file with its size and checksum. An archive without a
 * manifest is truncated. Each part is checked against its own trailer and the manifest.
 */

import { concatBytes } from "../bytes.ts";

export const ARCHIVE_MAGIC = "SHOP-BACKUP 1\n";
export const ARCHIVE_FORMAT = 1;
/** The largest chunk a writer emits and a reader accepts (a bigger length is corruption). */
export const MAX_CHUNK_BYTES = 8 * 1024 * 1024;
const MAX_HEADER_BYTES = 64 * 1024;
const SHA256_BYTES = 32;

export type PartKind = "table" | "file" | "manifest";

export interface PartHeader {
  kind: PartKind;
  name: string;
}

export interface TableEntry {
  name: string;
  columns: string[];
  rows: number;
  bytes: number;
  sha256: string;
}

export interface FileEntry {
  name: string;
  bytes: number;
  sha256: string;
}

export interface SequenceEntry {
  name: string;
  /** `pg_sequences.last_value` as text; null when the sequence was never used. */
  lastValue: string | null;
}

export interface Manifest {
  format: number;
  createdAt: string;
  engine: "postgres" | "embedded";
  appVersion: string;
  /** The applied migrations, in order: the schema version is the last one. */
  migrations: string[];
  tables: TableEntry[];
  sequences: SequenceEntry[];
  files: FileEntry[];
}

/** An archive that cannot be trusted; `part` names where it went wrong. */
export class ArchiveError extends Error {
  readonly part: string | undefined;
  constructor(message: string, part?: string) {
    super(message);
    this.name = "ArchiveError";
    this.part = part;
  }
}

export function u32(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value);
  return bytes;
}

export function encodePartHeader(header: PartHeader): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const bytes = new Uint8Array(4 + json.length);
  bytes.set(u32(json.length));
  bytes.set(json, 4);
  return bytes;
}

/** `table accounts`, `file member/1.png`, `manifest`: how messages name a part. */
export function partLabel(header: PartHeader | undefined): string {
  if (!header) return "the archive's start";
  return header.kind === "manifest" ? "the manifest" : `${header.kind} "${header.name}"`;
}

export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export type DecodedEvent =
  | { type: "start"; header: PartHeader }
  | { type: "data"; header: PartHeader; bytes: Uint8Array }
  | { type: "end"; header: PartHeader; sha256: string };

type State =
  | { at: "magic" }
  | { at: "header-length" }
  | { at: "header"; length: number }
  | { at: "chunk-length"; header: PartHeader }
  | { at: "chunk"; header: PartHeader; remaining: number }
  | { at: "checksum"; header: PartHeader };

/**
 * Decodes the (decompressed) container incrementally: `push` each chunk and take the events;
 * `finish` at the end. Structural corruption throws an {@link ArchiveError} naming the part.
 */
export class ArchiveDecoder {
  #buffer: Uint8Array = new Uint8Array(0);
  #state: State = { at: "magic" };
  #last: PartHeader | undefined;
  #sawManifest = false;

  /** The part being read (for messages about a failure below this decoder). */
  get current(): PartHeader | undefined {
    return this.#last;
  }

  get complete(): boolean {
    return this.#sawManifest;
  }

  *push(chunk: Uint8Array): Generator<DecodedEvent> {
    this.#buffer = this.#buffer.length === 0 ? chunk : concatBytes([this.#buffer, chunk]);
    let offset = 0;
    const available = () => this.#buffer.length - offset;
    const take = (n: number) => this.#buffer.subarray(offset, offset += n);
    try {
      while (true) {
        const state = this.#state;
        if (state.at === "magic") {
          if (available() < ARCHIVE_MAGIC.length) break;
          const magic = new TextDecoder().decode(take(ARCHIVE_MAGIC.length));
          if (magic !== ARCHIVE_MAGIC) {
            throw new ArchiveError("it is not a shop backup (unknown format)", "the header");
          }
          this.#state = { at: "header-length" };
        } else if (state.at === "header-length") {
          if (available() < 4) break;
          if (this.#sawManifest) {
            throw new ArchiveError("data follows the manifest", partLabel(this.#last));
          }
          const length = readU32(take(4));
          if (length === 0 || length > MAX_HEADER_BYTES) {
            throw new ArchiveError(`a part header is damaged (after ${partLabel(this.#last)})`);
          }
          this.#state = { at: "header", length };
        } else if (state.at === "header") {
          if (available() < state.length) break;
          const header = parseHeader(take(state.length), this.#last);
          this.#last = header;
          this.#state = { at: "chunk-length", header };
          yield { type: "start", header };
        } else if (state.at === "chunk-length") {
          if (available() < 4) break;
          const length = readU32(take(4));
          if (length > MAX_CHUNK_BYTES) {
            throw new ArchiveError(`${partLabel(state.header)} is damaged`, state.header.name);
          }
          this.#state = length === 0
            ? { at: "checksum", header: state.header }
            : { at: "chunk", header: state.header, remaining: length };
        } else if (state.at === "chunk") {
          if (available() === 0) break;
          const n = Math.min(available(), state.remaining);
          const bytes = take(n);
          const remaining = state.remaining - n;
          this.#state = remaining === 0
            ? { at: "chunk-length", header: state.header }
            : { ...state, remaining };
          yield { type: "data", header: state.header, bytes };
        } else {
          if (available() < SHA256_BYTES) break;
          const sha256 = hex(take(SHA256_BYTES));
          if (state.header.kind === "manifest") this.#sawManifest = true;
          this.#state = { at: "header-length" };
          yield { type: "end", header: state.header, sha256 };
        }
      }
    } finally {
      this.#buffer = this.#buffer.slice(offset);
    }
  }

  /** Throws when the archive ended before its manifest (truncated). */
  finish(): void {
    if (this.#sawManifest && this.#buffer.length === 0) return;
    const where = this.#last?.kind === "manifest"
      ? "inside its manifest"
      : this.#state.at === "header-length" && this.#last
      ? `after ${partLabel(this.#last)}, before its manifest`
      : `in ${partLabel(this.#last)}, before its manifest`;
    throw new ArchiveError(
      `it is truncated: it ends ${where}`,
      this.#last?.name,
    );
  }
}

function readU32(bytes: Uint8Array): number {
  return new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0);
}

function parseHeader(bytes: Uint8Array, previous: PartHeader | undefined): PartHeader {
  try {
    const value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    if (
      value && ["table", "file", "manifest"].includes(value.kind) && typeof value.name === "string"
    ) return { kind: value.kind, name: value.name };
  } catch {
    // Falls through to the error below.
  }
  throw new ArchiveError(`a part header is damaged (after ${partLabel(previous)})`);
}

/** Checks the manifest's shape (its checksum has been checked already). */
export function parseManifest(bytes: Uint8Array): Manifest {
  let value: Manifest;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new ArchiveError("the manifest is damaged", "manifest");
  }
  const ok = value && typeof value === "object" && typeof value.format === "number" &&
    Array.isArray(value.migrations) && Array.isArray(value.tables) &&
    Array.isArray(value.files) && Array.isArray(value.sequences);
  if (!ok) throw new ArchiveError("the manifest is damaged", "manifest");
  if (value.format > ARCHIVE_FORMAT) {
    throw new ArchiveError(
      `it was written in a newer archive format (${value.format}) than this code reads ` +
        `(${ARCHIVE_FORMAT}): restore it with the newer version of the shop`,
      "manifest",
    );
  }
  return value;
}

/**
 * The archive's schema against the code's migrations: the migrations it has that the code
 * does not know (an archive newer than the code), and those the code would apply after loading.
 */
export function compareSchema(
  archive: readonly string[],
  code: readonly string[],
): { unknown: string[]; pending: string[] } {
  const known = new Set(code);
  const has = new Set(archive);
  return {
    unknown: archive.filter((m) => !known.has(m)),
    pending: code.filter((m) => !has.has(m)),
  };
}

/** `shop-20261127-223324.backup` for an instant (UTC). */
export function defaultBackupName(at: Date): string {
  const iso = at.toISOString(); // 2026-11-27T22:33:24.123Z
  const date = iso.slice(0, 10).replaceAll("-", "");
  const time = iso.slice(11, 19).replaceAll(":", "");
  return `shop-${date}-${time}.backup`;
}

/** Rows in a chunk of COPY text: newline bytes (newlines inside values are escaped). */
export function countLines(bytes: Uint8Array): number {
  let n = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) n++;
  return n;
}
