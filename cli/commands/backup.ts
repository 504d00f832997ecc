/**
 * `ops backup [--out FILE]` and `ops restore FILE [--force]` (API §16).
 *
 * `backup` writes one consistent archive (app/backup/backup.ts) on the database directly, or,
 * while a running server holds the embedded database, through its `GET /v1/backup` (as any
 * business command, cli/_transport.ts). The archive is written to `FILE.partial` and renamed
 * into place once complete and checked, so a killed backup leaves no half archive under FILE.
 * Either way it is audited (app/backup/backup_runs.ts): directly as `backup.created` by the
 * system actor, through the server as `backup.downloaded` by the logged-in user, who must
 * hold every permission.
 *
 * `restore` works on the database directly (DATABASE_URL, or the embedded one in DATA_DIR,
 * which it creates when there is none) and FILES_DIR: the archive is checked before anything
 * is opened; a non-empty target needs `--force` (confirmed on a terminal, `--yes` otherwise).
 * `--move` then makes the target the shop's database (`shop.env`, and a `MOVED` marker in the
 * embedded data directory left behind: ./_move.ts).
 * It has no way through the server: whoever runs it holds the database's own credentials (or
 * its directory), which no permission of the shop's can narrow; it is audited in the restored
 * database as `backup.restored` (app/backup/restore.ts).
 */
import type { Command } from "commander";
import { isAbsolute, resolve } from "node:path";
import { hostname } from "node:os";
import { SYSTEM_ACTOR } from "../../app/actor.ts";
import { recordBackup, startAuditedBackup } from "../../app/backup/backup_runs.ts";
import { restoreArchive, verifyArchive } from "../../app/backup/restore.ts";
import { defaultBackupName, type Manifest } from "../../domain/backup/archive_format.ts";
import { assertCanConfirm, confirm } from "../_confirm.ts";
import { CliError } from "../_errors.ts";
import { BUSINESS_ENV, DATABASE_ENV, describe } from "../_help.ts";
import {
  byteSize,
  outputFormat,
  printNote,
  printRows,
  printText,
  withFormatOptions,
} from "../_output.ts";
import { progressBar, withActivity } from "../_progress.ts";
import { cliConfig, databaseLabel, withRuntime } from "../_runtime.ts";
import { run } from "../_transport.ts";
import { registerStatus } from "./status.ts";
import { completeMove, planMove } from "./_move.ts";

/**
 * Where archives go without `--out`: a folder of their own in the current directory (the
 * project's, under `deno task`), which .gitignore covers (an archive holds password hashes:
 * never commit one). Made on first use, open to its owner only.
 */
const DEFAULT_DIR = "backups";

interface BackupOptions {
  out?: string;
  json?: boolean;
  format?: string;
}

interface RestoreOptions {
  force?: boolean;
  move?: boolean;
  yes?: boolean;
  json?: boolean;
  format?: string;
}

interface Summary {
  file: string;
  tables: number;
  rows: number;
  files: number;
  bytes: number;
  seconds: number;
  schemaVersion: string;
}

function summarize(file: string, manifest: Manifest, bytes: number, seconds: number): Summary {
  return {
    file,
    tables: manifest.tables.length,
    rows: manifest.tables.reduce((n, t) => n + t.rows, 0),
    files: manifest.files.length,
    bytes,
    seconds: Math.round(seconds * 100) / 100,
    schemaVersion: manifest.migrations.at(-1) ?? "",
  };
}

const COLUMNS = [
  { header: "FILE", value: (s: Summary) => s.file },
  { header: "TABLES", value: (s: Summary) => s.tables, align: "right" as const },
  { header: "ROWS", value: (s: Summary) => s.rows, align: "right" as const },
  { header: "FILES", value: (s: Summary) => s.files, align: "right" as const },
  { header: "BYTES", value: (s: Summary) => s.bytes, align: "right" as const },
  { header: "SECONDS", value: (s: Summary) => s.seconds, align: "right" as const },
  { header: "SCHEMA", value: (s: Summary) => s.schemaVersion },
];

function print(summary: Summary, format: ReturnType<typeof outputFormat>, line: string): void {
  if (format === "table") printText(line);
  else printRows([summary], COLUMNS, format, { json: summary });
}

/** Writes `stream` to `file.partial`, then renames it to `file`; the bytes written. */
async function writeAtomically(
  file: string,
  stream: ReadableStream<Uint8Array>,
  onBytes?: (bytes: number) => void,
): Promise<number> {
  const partial = `${file}.partial`;
  let bytes = 0;
  try {
    const out = await Deno.open(partial, {
      write: true,
      create: true,
      truncate: true,
      mode: 0o600,
    });
    await stream.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          bytes += chunk.byteLength;
          onBytes?.(bytes);
          controller.enqueue(chunk);
        },
      }),
    ).pipeTo(out.writable);
  } catch (error) {
    await Deno.remove(partial).catch(() => {});
    throw error;
  }
  return bytes;
}

async function openArchive(file: string): Promise<ReadableStream<Uint8Array>> {
  return (await Deno.open(file, { read: true })).readable;
}

export function registerBackupCommands(program: Command): void {
  const backup = withFormatOptions(
    program.command("backup")
      .description(
        "Write one consistent archive of the whole shop (tables, files, schema version, " +
          "checksums); works while the server runs (through it, the login must hold every " +
          "permission). Audited. Keep it private: it holds password hashes",
      )
      .option(
        "--out <file>",
        `where to write it (default: ${DEFAULT_DIR}/shop-<UTC yyyymmdd-hhmmss>.backup)`,
      ),
  ).action(async (options: BackupOptions) => {
    const format = outputFormat(options);
    const started = performance.now();
    if (options.out === undefined) await Deno.mkdir(DEFAULT_DIR, { recursive: true, mode: 0o700 });
    const file = resolve(options.out ?? `${DEFAULT_DIR}/${defaultBackupName(new Date())}`);
    const dir = file.slice(0, file.lastIndexOf("/")) || "/";
    if (!(await Deno.stat(dir).then((s) => s.isDirectory, () => false))) {
      throw new CliError(`Cannot write ${file}: the directory ${dir} does not exist`);
    }
    const summary = await run<Summary>({
      direct: async (deps) => {
        const bar = progressBar("Backing up");
        let backupRun;
        let bytes;
        try {
          backupRun = await startAuditedBackup(
            deps,
            SYSTEM_ACTOR,
            { action: "backup.created", location: file },
            (p) => bar?.update(p.done, p.total),
          );
          bytes = await writeAtomically(`${file}`, backupRun.stream);
          await backupRun.done;
        } finally {
          bar?.stop();
        }
        const manifest = await backupRun.done;
        await Deno.rename(`${file}.partial`, file);
        const seconds = (performance.now() - started) / 1000;
        await recordBackup(deps, SYSTEM_ACTOR, backupRun.id, manifest, {
          location: file,
          bytes,
          seconds,
        });
        return summarize(file, manifest, bytes, seconds);
      },
      server: async (api) => {
        const location = `${hostname()}:${file}`;
        const bytes = await withActivity(`Backing up through ${api.server}`, async () => {
          const response = await api.download("/backup", { query: { location } });
          return await writeAtomically(file, response.body!);
        });
        // Checked before it takes the final name: a stream cut short is no backup.
        const manifest = await verifyArchive(() => openArchive(`${file}.partial`), file)
          .catch(async (error) => {
            await Deno.remove(`${file}.partial`).catch(() => {});
            throw new CliError(
              `The server's archive is incomplete (${error.message}): nothing was written`,
            );
          });
        await Deno.rename(`${file}.partial`, file);
        return summarize(file, manifest, bytes, (performance.now() - started) / 1000);
      },
    });
    print(
      summary,
      format,
      `Backup written to ${summary.file}: ${summary.tables} tables, ${summary.rows} rows, ` +
        `${summary.files} files, ${byteSize(summary.bytes)} in ${summary.seconds.toFixed(1)} s ` +
        `(schema ${summary.schemaVersion}). Keep it private: it holds password hashes.`,
    );
  });
  describe(backup, {
    examples: [
      "deno task ops backup",
      "deno task ops backup --out /backups/shop-nightly.backup --json",
      "0 2 * * * cd /srv/shop && deno task ops backup --out /backups/shop-$(date +\\%a).backup",
    ],
    env: BUSINESS_ENV,
  });

  const restore = withFormatOptions(
    program.command("restore")
      .description(
        "Restore an archive of `ops backup` into the database and files directory " +
          "DATABASE_URL/DATA_DIR/FILES_DIR name (either engine); refuses a non-empty target " +
          "unless --force",
      )
      .argument("<file>", "the archive")
      .option("--force", "replace whatever the target holds (asks first; --yes in scripts)")
      .option("-y, --yes", "do not ask before replacing (with --force)")
      .option(
        "--move",
        "then make the target the shop's database: write its DATABASE_URL/DATA_DIR/FILES_DIR " +
          "into shop.env and mark the embedded DATA_DIR left behind as moved (DATA_DIR/MOVED)",
      ),
  ).action(async (path: string, options: RestoreOptions) => {
    const format = outputFormat(options);
    const started = performance.now();
    const file = isAbsolute(path) ? path : resolve(path);
    if (options.force) assertCanConfirm({ yes: options.yes, command: "ops restore --force" });
    const stat = await Deno.stat(file).catch(() => undefined);
    if (!stat?.isFile) throw new CliError(`Cannot read ${file}: no such file`);
    const target = cliConfig();
    const move = options.move ? await planMove(target) : undefined;
    const manifest = await withActivity(
      `Checking ${file}`,
      () => verifyArchive(() => openArchive(file), file),
    );
    const bar = progressBar("Restoring");
    let result;
    try {
      result = await withRuntime(
        // --force may replace an old copy the shop moved away from (going back to it).
        { create: true, requireMigrated: false, allowMoved: options.force },
        (deps) =>
          restoreArchive(deps, () => openArchive(file), {
            label: file,
            verified: manifest,
            force: options.force,
            confirmReplace: () =>
              confirm(
                `Replace everything in ${databaseLabel(deps.config)} and FILES_DIR ` +
                  `"${deps.config.filesDir}" with ${file}?`,
                { yes: options.yes, command: "ops restore --force" },
              ),
            onProgress: (done, total) => bar?.update(done, total),
          }),
      );
    } finally {
      bar?.stop();
    }
    const summary = summarize(
      file,
      result.manifest,
      stat.size,
      (performance.now() - started) / 1000,
    );
    const migrated = result.applied.length > 0
      ? `, then applied ${result.applied.length} newer migration(s)`
      : "";
    print(
      summary,
      format,
      `Restored ${file}: ${summary.tables} tables, ${summary.rows} rows, ${summary.files} ` +
        `files in ${summary.seconds.toFixed(1)} s (schema ${summary.schemaVersion}${migrated})` +
        (result.replaced ? "; the previous contents were replaced." : "."),
    );
    if (move) {
      for (const note of await completeMove(move, target, new Date())) printNote(note);
    }
  });
  describe(restore, {
    examples: [
      "deno task ops restore shop.backup --force --yes   # replace the embedded database",
      "DATABASE_URL=postgres://postgres@127.0.0.1:5432/shop deno task ops restore shop.backup",
      "DATABASE_URL=postgres://postgres@127.0.0.1:5432/shop deno task ops restore move.backup --move",
    ],
    env: DATABASE_ENV,
  });

  registerStatus(program);
}
