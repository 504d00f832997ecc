/**
 * `ops backup` / `GET /v1/backup` (API §16): one consistent archive of the whole shop while
 * the server keeps serving. Every table is read in one snapshot (PostgreSQL: one REPEATABLE
 * READ, READ ONLY transaction on a connection of its own, streamed; embedded: one transaction
 * on PGlite's only session, read into memory and the session released at once, so writers
 * wait only for the reads, never for the archive's consumer), then the uploaded files under
 * FILES_DIR, then the manifest with the schema version and every part's checksum. The format
 * is domain/backup/archive_format.ts.
 *
 * The archive holds everything the database does: password hashes, the outbox's encrypted
 * bodies, the vault's entries (ciphertext, which only the master password opens), tokens'
 * hashes. Keep it as private as the database itself. The API and `ops backup` start it
 * through `startAuditedBackup` (backup_runs.ts): only for a caller holding every permission,
 * and audited.
 */
import {
  countLines,
  type FileEntry,
  type Manifest,
  type SequenceEntry,
  type TableEntry,
} from "../../domain/backup/archive_format.ts";
import type { AppDeps } from "../deps.ts";
import { ArchiveWriter } from "./archive_stream.ts";
import {
  copyTableOut,
  listAppliedMigrations,
  listSequences,
  listTables,
  type TableColumns,
  withSession,
} from "./engine_repo.ts";
import { listStoredFiles, readStoredFile } from "./files_dir.ts";

export interface BackupProgress {
  /** Parts written so far and in all (tables, then files). */
  done: number;
  total: number;
}

export interface BackupRun {
  /** The gzipped archive; read it to the end (the snapshot ends before it is read). */
  stream: ReadableStream<Uint8Array>;
  /** Resolves with the manifest once the last byte is in `stream` (rejects on failure). */
  done: Promise<Manifest>;
}

type Source = (table: TableColumns) => AsyncIterable<Uint8Array>;

interface Snapshot {
  migrations: string[];
  tables: TableColumns[];
  sequences: SequenceEntry[];
}

/** Starts a backup; the archive is produced as `stream` is read. */
export function startBackup(
  deps: Pick<AppDeps, "db" | "dbKind" | "config" | "clock" | "version">,
  onProgress?: (progress: BackupProgress) => void,
): BackupRun {
  const archive = new ArchiveWriter();
  const done = (async () => {
    try {
      const createdAt = deps.clock.now().toISOString();
      const files = await listStoredFiles(deps.config.filesDir);
      const write = async (snapshot: Snapshot, source: Source) => {
        const total = snapshot.tables.length + files.length;
        const tables: TableEntry[] = [];
        for (const table of snapshot.tables) {
          const part = await archive.part({ kind: "table", name: table.name });
          let rows = 0;
          for await (const chunk of source(table)) {
            rows += countLines(chunk);
            await part.write(chunk);
          }
          tables.push({ name: table.name, columns: table.columns, rows, ...(await part.end()) });
          onProgress?.({ done: tables.length, total });
        }
        return { tables, total };
      };
      let written: { tables: TableEntry[]; total: number };
      let snapshot: Snapshot;
      if (deps.dbKind === "embedded") {
        // Read everything while holding the only session, then let the writers go on.
        const data = new Map<string, Uint8Array[]>();
        snapshot = await withSession(deps, "snapshot", async (session) => {
          const read = await readCatalog(session);
          for (const table of read.tables) {
            const chunks: Uint8Array[] = [];
            for await (const chunk of copyTableOut(session, table)) chunks.push(chunk);
            data.set(table.name, chunks);
          }
          return read;
        });
        written = await write(snapshot, async function* (table) {
          const chunks = data.get(table.name) ?? [];
          data.delete(table.name);
          yield* chunks;
        });
      } else {
        const result = await withSession(deps, "snapshot", async (session) => {
          const read = await readCatalog(session);
          return { read, written: await write(read, (table) => copyTableOut(session, table)) };
        });
        snapshot = result.read;
        written = result.written;
      }
      const fileEntries: FileEntry[] = [];
      for (const name of files) {
        const content = await readStoredFile(deps.config.filesDir, name);
        if (!content) continue; // Deleted since it was listed: its row went with it.
        const part = await archive.part({ kind: "file", name });
        for await (const chunk of content) await part.write(chunk);
        fileEntries.push({ name, ...(await part.end()) });
        onProgress?.({ done: written.tables.length + fileEntries.length, total: written.total });
      }
      const manifest: Manifest = {
        format: 1,
        createdAt,
        engine: deps.dbKind,
        appVersion: deps.version,
        migrations: snapshot.migrations,
        tables: written.tables,
        sequences: snapshot.sequences,
        files: fileEntries,
      };
      await archive.manifest(manifest);
      return manifest;
    } catch (error) {
      await archive.abort(error);
      throw error;
    }
  })();
  // The stream's reader sees the failure; `done` is for whoever awaits it.
  done.catch(() => {});
  return { stream: archive.readable, done };
}

async function readCatalog(session: Parameters<typeof listTables>[0]): Promise<Snapshot> {
  return {
    migrations: await listAppliedMigrations(session),
    tables: await listTables(session),
    sequences: await listSequences(session),
  };
}

/** What a backup wrote, for people: `12 tables, 3,456 rows, 7 files`. */
export function backupTotals(manifest: Manifest): { tables: number; rows: number; files: number } {
  return {
    tables: manifest.tables.length,
    rows: manifest.tables.reduce((n, t) => n + t.rows, 0),
    files: manifest.files.length,
  };
}
