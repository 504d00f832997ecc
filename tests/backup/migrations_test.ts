/**
 * Every migration has a `down`: a populated database migrated all the way down and up again
 * has the same schema, and with its backup restored the same data. An archive one migration
 * older than the code restores too: the missing migration is applied after loading.
 */
import { sql } from "kysely";
import { assertEquals } from "../_helpers/assert.ts";
import { createTestApp, type TestApp } from "../_helpers/test_app.ts";
import { removeDir } from "../_helpers/processes.ts";
import { migrateDown, migrateToLatest, migrationStatus } from "../../app/db/migrate.ts";
import { restoreArchive } from "../../app/backup/restore.ts";
import { migrations } from "../../migrations/mod.ts";
import { addBulk, writeArchive } from "./_archives.ts";
import { readContents } from "./_shop.ts";
import { assertSameContents } from "./_compare.ts";

/** Tables, columns, constraints and indexes of the public schema, as text. */
async function schemaOf(t: TestApp): Promise<string[]> {
  const result = await sql<{ line: string }>`
    SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' ||
           is_nullable || ' ' || coalesce(column_default, '') AS line
      FROM information_schema.columns WHERE table_schema = 'public'
    UNION ALL
    SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' ||
           pg_get_constraintdef(oid)
      FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    UNION ALL
    SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
    ORDER BY 1`.execute(t.deps.db);
  return result.rows.map((r) => r.line);
}

Deno.test({
  name: "all the way down and up again: the same schema, and the backup restores the same data",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const t = await createTestApp();
    const work = await Deno.makeTempDir({ prefix: "shop-backup-migrations-" });
    try {
      const deps = t.deps;
      await addBulk(t, { accounts: 200, products: 200, lines: 1000 }, "m", "9005");
      const before = await schemaOf(t);
      const archive = `${work}/before.backup`;
      await writeArchive(deps, archive);

      while ((await migrateDown(t.deps.db)).length > 0) { /* one step at a time */ }
      const left = await sql<{ name: string }>`
        SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`
        .execute(t.deps.db);
      assertEquals(left.rows.map((r) => r.name), ["kysely_migration", "kysely_migration_lock"]);

      await migrateToLatest(t.deps.db);
      assertEquals(await schemaOf(t), before, "the same schema after down and up");
      const result = await restoreArchive(deps, () => Deno.open(archive).then((f) => f.readable), {
        label: archive,
      });
      assertEquals(result.applied, []);
      const after = `${work}/after.backup`;
      await writeArchive(deps, after);
      assertSameContents(await readContents(after), await readContents(archive), [
        "backup.restored",
      ]);

      // One migration older than the code: restored, then migrated.
      const last = Object.keys(migrations).at(-1)!;
      await migrateDown(t.deps.db);
      const older = `${work}/older.backup`;
      const manifest = await writeArchive(deps, older);
      assertEquals(manifest.migrations.includes(last), false);
      await migrateToLatest(t.deps.db);
      const restored = await restoreArchive(deps, () => Deno.open(older).then((f) => f.readable), {
        label: older,
        force: true,
      });
      assertEquals(restored.applied, [last]);
      assertEquals((await migrationStatus(t.deps.db)).every((m) => m.executedAt !== null), true);
      assertEquals(await schemaOf(t), before);
      const again = `${work}/again.backup`;
      await writeArchive(deps, again);
      const expected = await readContents(archive);
      // Each restore audited itself (the older archive holds the first one's entry).
      assertSameContents(await readContents(again), expected, [
        "backup.restored",
        "backup.restored",
      ]);
    } finally {
      await t.close();
      await removeDir(work);
    }
  },
});
