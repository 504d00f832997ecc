/**
 * `ops restore FILE [--force]` (API §16): an archive of `ops backup` into the database and the
 * files directory this runtime names, from either engine into either engine.
 *
 * 1. Every part is read and checked against its checksum and the manifest FIRST: a damaged or
 *    truncated archive, or one whose schema is newer than this code, changes nothing.
 * 2. A PostgreSQL target that live server processes use is refused, naming them
 *    (live_servers.ts); a target holding anything beyond the reference data the seeds write (or
 *    any file) is refused unless `force` (the caller confirms first).
 * 3. ONE transaction: the schema is migrated to the archive's version, its foreign keys are
 *    dropped, every table is emptied and loaded (COPY), the keys are added again (which checks
 *    them), the sequences are set, the migrations the archive lacks are applied; the files,
 *    written meanwhile into a directory beside FILES_DIR, are swapped in just before COMMIT
 *    (and back if it fails). A kill at any point before COMMIT leaves the database as it was.
 * 4. In that transaction, after the archive's audit log is in, the restore itself is audited
 *    (`backup.restored`, by the system actor: `ops restore` works on the database's own
 *    credentials, with no user of the shop and so no permission to check; which archive,
 *    from when, what it held, whether it replaced anything).
 */
import { Migrator, NO_MIGRATIONS } from "kysely/migration";
import {
  ArchiveError,
  compareSchema,
  type Manifest,
  parseManifest,
  type PartHeader,
  partLabel,
} from "../../domain/backup/archive_format.ts";
import { BadInputError, ConflictError } from "../../domain/errors.ts";
import { migrations } from "../../migrations/mod.ts";
import { SYSTEM_ACTOR } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import type { Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import { readArchive } from "./archive_stream.ts";
import { backupTotals } from "./backup.ts";
import {
  addConstraint,
  allowBulkIndexBuilds,
  copyTableIn,
  countRowsBeyond,
  createIndex,
  dropConstraint,
  dropIndex,
  listConstraints,
  listPlainIndexes,
  listTables,
  type Session,
  sessionKysely,
  setSequence,
  type TableColumns,
  truncateTables,
  withSession,
} from "./engine_repo.ts";
import { listStoredFiles, StagedFiles } from "./files_dir.ts";
import { refuseLiveServers } from "./live_servers.ts";

/** Tables the seeds fill (app/seed.ts) and migrations' bookkeeping: a target with only these is empty. */
const REFERENCE_TABLES: ReadonlySet<string> = new Set([
  "app_config",
  "id_types",
  "item_conditions",
  "modules",
  "role_permissions",
  "roles",
  "store",
  "unit_statuses",
]);

/** The archive cannot be used (damaged, truncated, newer than the code): nothing was changed. */
export class BadArchiveError extends BadInputError {
  constructor(message: string) {
    super("bad_archive", message);
    this.name = "BadArchiveError";
  }
}

export class TargetNotEmptyError extends ConflictError {
  constructor(message: string) {
    super("target_not_empty", message);
    this.name = "TargetNotEmptyError";
  }
}

export type ArchiveSource = () => Promise<ReadableStream<Uint8Array>>;

type Deps = Pick<AppDeps, "db" | "dbKind" | "config" | "clock" | "ids">;

/** Reads the whole archive and checks it; the manifest of a sound archive. */
export async function verifyArchive(source: ArchiveSource, label: string): Promise<Manifest> {
  const sums = new Map<string, { sha256: string; bytes: number }>();
  let manifest: Manifest;
  try {
    const bytes = await readArchive(await source(), {
      end: (header, sha256, size) => {
        sums.set(`${header.kind}:${header.name}`, { sha256, bytes: size });
      },
    });
    manifest = parseManifest(bytes);
    const parts: Array<PartHeader & { sha256: string }> = [
      ...manifest.tables.map((t) => ({ kind: "table" as const, name: t.name, sha256: t.sha256 })),
      ...manifest.files.map((f) => ({ kind: "file" as const, name: f.name, sha256: f.sha256 })),
    ];
    for (const part of parts) {
      const found = sums.get(`${part.kind}:${part.name}`);
      if (!found) throw new ArchiveError(`${partLabel(part)} is missing`, part.name);
      if (found.sha256 !== part.sha256) {
        throw new ArchiveError(`${partLabel(part)} does not match the manifest`, part.name);
      }
    }
    if (sums.size !== parts.length) {
      throw new ArchiveError("it holds parts its manifest does not list");
    }
  } catch (error) {
    if (error instanceof ArchiveError) {
      throw new BadArchiveError(`Cannot restore ${label}: ${error.message}; nothing was changed`);
    }
    throw error;
  }
  const { unknown } = compareSchema(manifest.migrations, Object.keys(migrations));
  if (unknown.length > 0) {
    throw new BadArchiveError(
      `Cannot restore ${label}: its schema is newer than this code (it has migration ` +
        `${unknown.at(-1)}); restore it with the newer version of the shop; nothing was changed`,
    );
  }
  if (manifest.migrations.length === 0) {
    throw new BadArchiveError(`Cannot restore ${label}: it holds no schema; nothing was changed`);
  }
  return manifest;
}

/** What is in the target already: rows beyond the reference data, and stored files. */
export async function targetContents(deps: Deps): Promise<{ rows: number; files: number }> {
  const rows = await withSession(deps, "write", async (session) => {
    const exists = await session.query<{ ok: boolean }>(
      "SELECT to_regclass('public.kysely_migration') IS NOT NULL AS ok",
    );
    return exists[0]?.ok ? await countRowsBeyond(session, REFERENCE_TABLES) : 0;
  });
  const files = (await listStoredFiles(deps.config.filesDir)).length;
  return { rows, files };
}

export interface RestoreOptions {
  label: string;
  /** The manifest of {@link verifyArchive} when the caller checked the archive already. */
  verified?: Manifest;
  force?: boolean;
  /** Called when the target is not empty and `force` is set: throw to stop. */
  confirmReplace?(what: { rows: number; files: number }): Promise<void>;
  onProgress?(done: number, total: number): void;
}

export interface RestoreResult {
  manifest: Manifest;
  applied: string[];
  replaced: boolean;
}

export async function restoreArchive(
  deps: Deps,
  source: ArchiveSource,
  options: RestoreOptions,
): Promise<RestoreResult> {
  await refuseLiveServers(deps);
  const manifest = options.verified ?? await verifyArchive(source, options.label);
  const contents = await targetContents(deps);
  const replaced = contents.rows > 0 || contents.files > 0;
  if (replaced && !options.force) {
    throw new TargetNotEmptyError(
      `The target is not empty (${describe(contents)}): restore into an empty database, or ` +
        "add --force to replace everything in it",
    );
  }
  if (replaced) await options.confirmReplace?.(contents);

  const suffix = deps.ids.uuid().slice(-8);
  const staged = new StagedFiles(deps.config.filesDir, suffix);
  const total = manifest.tables.reduce((n, t) => n + t.bytes, 0) +
    manifest.files.reduce((n, f) => n + f.bytes, 0);
  let swap: Awaited<ReturnType<StagedFiles["swap"]>> | undefined;
  let applied: string[] = [];
  await staged.begin();
  try {
    await withSession(deps, "write", async (session) => {
      const kysely = sessionKysely(session);
      const migrator = new Migrator({
        db: kysely,
        provider: { getMigrations: () => Promise.resolve(migrations) },
      });
      unwrap(await migrator.migrateTo(manifest.migrations.at(-1) ?? NO_MIGRATIONS));
      // Loaded as pg_restore does: without keys and indexes, which are built in bulk after
      // (and checked then), so the order of the tables does not matter.
      await allowBulkIndexBuilds(session);
      const foreign = await listConstraints(session, "foreign");
      for (const key of foreign) await dropConstraint(session, key);
      const keys = await listConstraints(session, "keys");
      for (const key of keys) await dropConstraint(session, key);
      const indexes = await listPlainIndexes(session);
      for (const index of indexes) await dropIndex(session, index);
      const tables = new Map((await listTables(session)).map((t) => [t.name, t]));
      await truncateTables(session, [...tables.keys()]);
      await loadParts(
        session,
        source,
        tables,
        manifest,
        staged,
        (done) => options.onProgress?.(done, total),
      );
      for (const index of indexes) await createIndex(session, index);
      for (const key of keys) await addConstraint(session, key);
      for (const key of foreign) await addConstraint(session, key);
      for (const sequence of manifest.sequences) await setSequence(session, sequence);
      applied = (unwrap(await migrator.migrateToLatest()).results ?? [])
        .map((r) => r.migrationName);
      await audit(deps, kysely as Db, SYSTEM_ACTOR, {
        action: "backup.restored",
        entityType: "backup",
        details: {
          archive: options.label,
          archiveCreatedAt: manifest.createdAt,
          sourceEngine: manifest.engine,
          schemaVersion: manifest.migrations.at(-1) ?? "",
          appliedMigrations: applied,
          ...backupTotals(manifest),
          replaced,
        },
      });
      swap = await staged.swap(suffix);
    });
  } catch (error) {
    if (swap) await swap.undo();
    else await staged.discard();
    if (error instanceof ArchiveError) {
      throw new BadArchiveError(
        `Cannot restore ${options.label}: ${error.message} (it changed while it was read); ` +
          "nothing was changed",
      );
    }
    throw error;
  }
  await swap?.finish();
  return { manifest, applied, replaced };
}

async function loadParts(
  session: Session,
  source: ArchiveSource,
  tables: Map<string, TableColumns>,
  manifest: Manifest,
  staged: StagedFiles,
  progress: (done: number) => void,
): Promise<void> {
  const columnsOf = new Map(manifest.tables.map((t) => [t.name, t.columns]));
  let copy: Awaited<ReturnType<typeof copyTableIn>> | undefined;
  let done = 0;
  let reported = 0;
  await readArchive(await source(), {
    start: async (header) => {
      if (header.kind === "file") {
        await staged.open(header.name);
        return true;
      }
      const target = tables.get(header.name);
      const columns = columnsOf.get(header.name);
      if (!target || !columns) {
        throw new ConflictError(
          "schema_mismatch",
          `The archive's table "${header.name}" does not exist in the target at the archive's ` +
            "schema version: nothing was changed",
        );
      }
      copy = await copyTableIn(session, { name: header.name, columns });
      return true;
    },
    data: async (header, bytes) => {
      if (header.kind === "file") await staged.write(bytes);
      else await copy!.write(bytes);
      done += bytes.length;
      if (done - reported > 1 << 20) {
        reported = done;
        progress(done);
      }
    },
    end: async (header) => {
      if (header.kind === "file") staged.close();
      else {
        await copy!.end();
        copy = undefined;
      }
      progress(done);
    },
  });
}

function describe(contents: { rows: number; files: number }): string {
  const parts = [];
  if (contents.rows > 0) parts.push("it holds data");
  if (contents.files > 0) parts.push(`${contents.files} stored file(s)`);
  return parts.join(" and ");
}

function unwrap<
  T extends { error?: unknown; results?: Array<{ status: string; migrationName: string }> },
>(
  result: T,
): T {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === "Error")?.migrationName;
    const message = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`Migration ${failed ?? ""} failed: ${message}`, { cause: result.error });
  }
  return result;
}
