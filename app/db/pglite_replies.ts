/**
 * Reads what PGlite's engine answers to a prepared statement's run (pglite_statements.ts):
 * the PostgreSQL wire protocol's messages, turned into a Kysely result. PGlite's own reader
 * made an object per message and copied every field's bytes before decoding them; on the
 * embedded product search that was 30% of the server's CPU. This one decodes each field in
 * place and builds the row objects directly. Values go through PGlite's parsers by type, as its
 * `query()` does; an ErrorResponse becomes an Error carrying PostgreSQL's fields (`code`,
 * `constraint`, ...), as PGlite's errors do.
 */
import type { QueryResult } from "kysely";
import { concatBytes } from "../../domain/bytes.ts";

type Parsers = Record<number | string, (value: string, typeId: number) => unknown>;

/** ErrorResponse field codes → the property each is kept under (those of PGlite's errors). */
const ERROR_FIELDS: Record<string, string> = {
  V: "severity",
  C: "code",
  D: "detail",
  H: "hint",
  P: "position",
  p: "internalPosition",
  q: "internalQuery",
  W: "where",
  s: "schema",
  t: "table",
  c: "column",
  d: "dataType",
  n: "constraint",
  F: "file",
  L: "line",
  R: "routine",
};

/** Commands whose tag counts affected rows (PGlite counts these). */
const COUNTED = new Set(["INSERT", "UPDATE", "DELETE", "COPY", "MERGE"]);

const decoder = new TextDecoder();

/** Collects the engine's output, which arrives in chunks that are views of its memory. */
export class ReplyBuffer {
  readonly #chunks: Uint8Array[] = [];

  /** For `execProtocolRawStream`'s `onRawData`: keeps a copy of `chunk`. */
  readonly add = (chunk: Uint8Array): void => {
    this.#chunks.push(chunk.slice());
  };

  bytes(): Uint8Array {
    return concatBytes(this.#chunks);
  }
}

/**
 * The result of the last command in `bytes` (rows of its last RowDescription), or throws its
 * first error. Affected rows add up over the commands, as PGlite's `query()` reports them.
 */
export function readReplies<R>(bytes: Uint8Array, parsers: Parsers): QueryResult<R> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let names: string[] = [];
  let typeIds: number[] = [];
  let rows: Record<string, unknown>[] = [];
  let lastRows: Record<string, unknown>[] = [];
  let affected = 0;
  let error: Error | undefined;
  let at = 0;
  while (at + 5 <= bytes.length) {
    const type = bytes[at]!;
    const end = at + 1 + view.getInt32(at + 1);
    let p = at + 5;
    switch (type) {
      case 0x54: { // 'T' RowDescription
        const count = view.getInt16(p);
        p += 2;
        names = new Array(count);
        typeIds = new Array(count);
        for (let i = 0; i < count; i++) {
          const nul = bytes.indexOf(0, p);
          names[i] = decoder.decode(bytes.subarray(p, nul));
          typeIds[i] = view.getInt32(nul + 7);
          p = nul + 19;
        }
        rows = [];
        break;
      }
      case 0x44: { // 'D' DataRow
        const count = view.getInt16(p);
        p += 2;
        const row: Record<string, unknown> = {};
        for (let i = 0; i < count; i++) {
          const length = view.getInt32(p);
          p += 4;
          if (length < 0) {
            row[names[i]!] = null;
            continue;
          }
          const text = decoder.decode(bytes.subarray(p, p + length));
          p += length;
          const parser = parsers[typeIds[i]!];
          row[names[i]!] = parser ? parser(text, typeIds[i]!) : text;
        }
        rows.push(row);
        break;
      }
      case 0x43: { // 'C' CommandComplete
        const tag = decoder.decode(bytes.subarray(p, bytes.indexOf(0, p))).split(" ");
        if (COUNTED.has(tag[0]!)) affected += Number.parseInt(tag[tag.length - 1]!, 10);
        lastRows = rows;
        rows = [];
        break;
      }
      case 0x45: // 'E' ErrorResponse
        error ??= errorOf(bytes, p, end);
        break;
      default: // Parse/bind complete, no data, notices, ready for query: nothing to keep.
        break;
    }
    at = end;
  }
  if (error) throw error;
  return { numAffectedRows: BigInt(affected), rows: lastRows as R[] };
}

function errorOf(bytes: Uint8Array, from: number, end: number): Error {
  const fields: Record<string, string> = {};
  let p = from;
  while (p < end && bytes[p] !== 0) {
    const code = String.fromCharCode(bytes[p]!);
    const nul = bytes.indexOf(0, p + 1);
    fields[code] = decoder.decode(bytes.subarray(p + 1, nul));
    p = nul + 1;
  }
  const error = new Error(fields["M"] ?? "database error");
  for (const [code, value] of Object.entries(fields)) {
    const property = ERROR_FIELDS[code];
    if (property) Object.assign(error, { [property]: value });
  }
  return error;
}
