/** Comparing archives and files directories (round trips). */
import { assertEquals } from "../_helpers/assert.ts";
import type { ArchiveContents } from "./_shop.ts";

/**
 * Every table row for row (as COPY text: the same on both engines), the same files; the audit
 * log may hold, besides every entry of `expected`'s, exactly entries of the `addedAudit`
 * actions (a restore and a backup audit themselves: `backup.restored`, `backup.created`).
 */
export function assertSameContents(
  actual: ArchiveContents,
  expected: ArchiveContents,
  addedAudit: readonly string[] = [],
): void {
  assertEquals(actual.migrations, expected.migrations, "schema version");
  assertEquals([...actual.tables.keys()].sort(), [...expected.tables.keys()].sort(), "tables");
  for (const [table, rows] of expected.tables) {
    assertEquals(actual.columns.get(table), expected.columns.get(table), `columns of ${table}`);
    let actualRows = actual.tables.get(table);
    if (table === "audit_log" && actualRows) {
      const before = new Set(rows);
      const action = expected.columns.get(table)!.indexOf("action");
      const added = actualRows.filter((row) => !before.has(row));
      assertEquals(
        added.map((row) => row.split("\t")[action]).sort(),
        [...addedAudit].sort(),
        "the audit entries added",
      );
      actualRows = actualRows.filter((row) => before.has(row));
    }
    assertEquals(actualRows, rows, `rows of ${table}`);
  }
  assertEquals([...actual.files.keys()].sort(), [...expected.files.keys()].sort(), "files");
  for (const [name, bytes] of expected.files) {
    assertEquals(actual.files.get(name), bytes, `file ${name}`);
  }
}

/** The archive's files are in `dir`, byte for byte (and nothing else is). */
export async function assertFilesOnDisk(contents: ArchiveContents, dir: string): Promise<void> {
  const found: string[] = [];
  async function walk(path: string, prefix: string): Promise<void> {
    for await (const entry of Deno.readDir(path)) {
      const key = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory) await walk(`${path}/${entry.name}`, key);
      else found.push(key);
    }
  }
  await walk(dir, "");
  assertEquals(found.sort(), [...contents.files.keys()].sort(), `files in ${dir}`);
  for (const [name, bytes] of contents.files) {
    assertEquals(await Deno.readFile(`${dir}/${name}`), bytes, `file ${name}`);
  }
}
