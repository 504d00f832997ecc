/**
 * Writing and reading the archive container of domain/backup/archive_format.ts: each part's
 * data gzipped on its own (Web Streams' CompressionStream) inside the plain framing, so damage
 * is found in, and named by, the part it hits; SHA-256 per part (of the uncompressed data)
 * through node:crypto, incrementally.
 */
import { createHash, type Hash } from "node:crypto";
import {
  ARCHIVE_MAGIC,
  ArchiveDecoder,
  ArchiveError,
  encodePartHeader,
  type Manifest,
  MAX_CHUNK_BYTES,
  type PartHeader,
  partLabel,
  u32,
} from "../../domain/backup/archive_format.ts";

export interface PartWriter {
  write(bytes: Uint8Array): Promise<void>;
  /** Ends the part; resolves to its SHA-256 (hex) and size (uncompressed). */
  end(): Promise<{ sha256: string; bytes: number }>;
}

type Bytes = Uint8Array<ArrayBuffer>;

/** What the compressor is given at once (at least; a bigger write goes as it is). */
const BLOCK_BYTES = 256 * 1024;

function gzip(): ReadableWritablePair<Uint8Array, Uint8Array> {
  return new CompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>;
}

function gunzip(): ReadableWritablePair<Uint8Array, Uint8Array> {
  return new DecompressionStream("gzip") as unknown as ReadableWritablePair<
    Uint8Array,
    Uint8Array
  >;
}

/** Writes parts one after the other; `readable` is the archive. */
export class ArchiveWriter {
  readonly readable: ReadableStream<Uint8Array>;
  readonly #out: WritableStreamDefaultWriter<Uint8Array>;
  #started = false;

  constructor() {
    const pipe = new TransformStream<Uint8Array, Uint8Array>(
      undefined,
      { highWaterMark: 4 },
      { highWaterMark: 4 },
    );
    this.readable = pipe.readable;
    this.#out = pipe.writable.getWriter();
  }

  async #emit(bytes: Uint8Array): Promise<void> {
    if (!this.#started) {
      this.#started = true;
      await this.#out.write(new TextEncoder().encode(ARCHIVE_MAGIC));
    }
    await this.#out.write(bytes);
  }

  async part(header: PartHeader): Promise<PartWriter> {
    await this.#emit(encodePartHeader(header));
    const hash = createHash("sha256");
    let size = 0;
    const compressor = gzip();
    const input = compressor.writable.getWriter();
    // Frames the compressed bytes as they come out (concurrently with the writes).
    const framing = (async () => {
      for await (const chunk of compressor.readable) {
        for (let at = 0; at < chunk.length; at += MAX_CHUNK_BYTES) {
          const slice = chunk.subarray(at, at + MAX_CHUNK_BYTES);
          await this.#emit(u32(slice.length));
          await this.#emit(slice);
        }
      }
    })();
    framing.catch(() => {});
    // Rows come in small pieces (PostgreSQL sends one message a row): gathered into blocks,
    // so the compressor sees enough at once to compress well and the awaits stay few.
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      if (pendingBytes === 0) return;
      const block = pending.length === 1 ? pending[0]! : new Uint8Array(pendingBytes);
      if (pending.length > 1) {
        let at = 0;
        for (const piece of pending) {
          block.set(piece, at);
          at += piece.length;
        }
      }
      pending = [];
      pendingBytes = 0;
      await input.write(block as Bytes);
    };
    return {
      write: async (bytes) => {
        hash.update(bytes);
        size += bytes.length;
        pending.push(bytes);
        pendingBytes += bytes.length;
        if (pendingBytes >= BLOCK_BYTES) await flush();
      },
      end: async () => {
        await flush();
        await input.close();
        await framing;
        const digest = new Uint8Array(hash.digest());
        await this.#emit(u32(0));
        await this.#emit(digest);
        const sha256 = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
        return { sha256, bytes: size };
      },
    };
  }

  async manifest(manifest: Manifest): Promise<void> {
    const part = await this.part({ kind: "manifest", name: "manifest" });
    await part.write(new TextEncoder().encode(JSON.stringify(manifest)));
    await part.end();
    await this.#out.close();
  }

  /** Abandons the archive (its reader gets an error). */
  async abort(reason: unknown): Promise<void> {
    await this.#out.abort(reason).catch(() => {});
  }
}

export interface ArchiveVisitor {
  /** A part begins; return false to skip its data (still checked). */
  start?(header: PartHeader): boolean | Promise<boolean>;
  data?(header: PartHeader, bytes: Uint8Array): void | Promise<void>;
  /** A part ended; `sha256` is what its data hashed to (already checked against its trailer). */
  end?(header: PartHeader, sha256: string, bytes: number): void | Promise<void>;
}

/** The part being read: its decompressor and what has been read of it. */
interface OpenPart {
  header: PartHeader;
  wanted: boolean;
  hash: Hash;
  size: number;
  input: WritableStreamDefaultWriter<Uint8Array>;
  reading: Promise<void>;
}

/** Marks the visitor's own failures (a load that failed): not damage of the archive. */
class VisitorFailure extends Error {
  constructor(readonly original: unknown) {
    super("visitor failed");
  }
}

async function visit<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new VisitorFailure(error);
  }
}

/**
 * Reads an archive, checking every part's checksum against its trailer; returns the manifest's
 * bytes. Throws an {@link ArchiveError} naming the part for damage of any kind: a broken frame,
 * gzip's own errors, a checksum that does not match, a missing manifest.
 */
export async function readArchive(
  source: ReadableStream<Uint8Array>,
  visitor: ArchiveVisitor = {},
): Promise<Uint8Array> {
  const decoder = new ArchiveDecoder();
  const manifest: Uint8Array[] = [];
  let open: OpenPart | undefined;

  function openPart(header: PartHeader, wanted: boolean): OpenPart {
    const decompressor = gunzip();
    const part: OpenPart = {
      header,
      wanted,
      hash: createHash("sha256"),
      size: 0,
      input: decompressor.writable.getWriter(),
      reading: Promise.resolve(),
    };
    part.reading = (async () => {
      for await (const bytes of decompressor.readable) {
        part.hash.update(bytes);
        part.size += bytes.length;
        if (header.kind === "manifest") manifest.push(bytes.slice());
        else if (wanted) await visit(() => visitor.data?.(header, bytes));
      }
    })();
    part.reading.catch(() => {});
    return part;
  }

  try {
    for await (const chunk of source) {
      for (const event of decoder.push(chunk)) {
        if (event.type === "start") {
          const wanted = event.header.kind === "manifest" ||
            ((await visit(() => visitor.start?.(event.header))) ?? true);
          open = openPart(event.header, wanted);
        } else if (event.type === "data") {
          await Promise.race([open!.input.write(event.bytes.slice()), open!.reading]);
        } else {
          const part = open!;
          await part.input.close();
          await part.reading;
          open = undefined;
          const actual = part.hash.digest("hex");
          if (actual !== event.sha256) {
            throw new ArchiveError(
              `${partLabel(part.header)} is damaged (its SHA-256 does not match)`,
              part.header.name,
            );
          }
          if (part.header.kind !== "manifest" && part.wanted) {
            await visit(() => visitor.end?.(part.header, actual, part.size));
          }
        }
      }
    }
    decoder.finish();
  } catch (error) {
    await open?.input.abort().catch(() => {});
    if (error instanceof VisitorFailure) throw error.original;
    if (error instanceof ArchiveError) throw error;
    // gzip's errors within a part: corrupt data, a bad CRC, an unexpected end.
    const cause = error instanceof Error ? error.message : String(error);
    throw new ArchiveError(
      `${partLabel(decoder.current)} is damaged (${cause})`,
      decoder.current?.name,
    );
  }
  const total = manifest.reduce((n, c) => n + c.length, 0);
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of manifest) {
    bytes.set(c, at);
    at += c.length;
  }
  return bytes;
}
