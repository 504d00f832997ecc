/** Archives written in the test process (the same code `ops backup` runs), and doctored ones. */
import { sql } from "kysely";
import { startBackup } from "../../app/backup/backup.ts";
import { ArchiveWriter, type PartWriter, readArchive } from "../../app/backup/archive_stream.ts";
import type { AppDeps } from "../../app/deps.ts";
import { type Manifest, parseManifest } from "../../domain/backup/archive_format.ts";
import type { TestApp } from "../_helpers/test_app.ts";
import { type BulkCounts, bulkStatements } from "./_bulk.ts";

export async function writeArchive(deps: AppDeps, path: string): Promise<Manifest> {
  const run = startBackup(deps);
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  await run.stream.pipeTo(file.writable);
  return await run.done;
}

export async function addBulk(t: TestApp, counts: BulkCounts, tag: string, employee: string) {
  for (const statement of bulkStatements(counts, tag, employee)) {
    await sql.raw(statement).execute(t.deps.db);
  }
}

/** A copy of `source` whose manifest `edit` changed (every checksum right). */
export async function rewriteArchive(
  source: string,
  target: string,
  edit: (manifest: Manifest) => Manifest,
): Promise<void> {
  const writer = new ArchiveWriter();
  const file = await Deno.open(target, { write: true, create: true, truncate: true });
  const written = writer.readable.pipeTo(file.writable);
  let part: PartWriter | undefined;
  const manifest = parseManifest(
    await readArchive((await Deno.open(source)).readable, {
      start: async (header) => {
        part = await writer.part(header);
        return true;
      },
      data: (_header, bytes) => part!.write(bytes.slice()),
      end: async () => {
        await part!.end();
      },
    }),
  );
  await writer.manifest(edit(manifest));
  await written;
}

/** A copy of `source` with one byte changed at `at` (0..1: where in the file). */
export async function corruptCopy(source: string, target: string, at: number): Promise<void> {
  const bytes = await Deno.readFile(source);
  const index = Math.floor(bytes.length * at);
  bytes[index] = bytes[index]! ^ 0x5a;
  await Deno.writeFile(target, bytes);
}

export async function truncatedCopy(source: string, target: string, keep: number) {
  const bytes = await Deno.readFile(source);
  await Deno.writeFile(target, bytes.subarray(0, Math.floor(bytes.length * keep)));
}
