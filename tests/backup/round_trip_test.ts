/**
 * The round trip of API §16 as a shop owner does it: an embedded shop served by the running
 * server, filled through its API, is backed up with `ops backup` (through the server: it holds
 * the database) while four clerks keep selling; the archive is one consistent snapshot; it is
 * restored with `ops restore` into PostgreSQL (the documented move; into another embedded
 * directory without TEST_DATABASE_URL) and everything is there: every table row for row, every
 * file byte for byte.
 */
import { assert, assertEquals, assertMatch } from "../_helpers/assert.ts";
import { removeDir, startServer } from "../_helpers/processes.ts";
import { onPostgres } from "../_helpers/query_plans.ts";
import { embeddedSource, emptyPostgres, loginToken, opsWithin } from "./_places.ts";
import { within } from "../_helpers/within.ts";
import { ADMIN_EMAIL, assertConsistent, fillShop, readContents, Shop, writeLoad } from "./_shop.ts";
import { assertFilesOnDisk, assertSameContents } from "./_compare.ts";

Deno.test({
  name: "an embedded shop backed up under write load restores into the other engine, equal",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dataDir = await embeddedSource();
    const work = await Deno.makeTempDir({ prefix: "shop-backup-rt-" });
    const server = await startServer({ dataDir, env: { DEV_BYPASS: "true" } });
    const target = onPostgres ? await emptyPostgres() : undefined;
    try {
      const shop = new Shop(server.url, { "X-Dev-User": ADMIN_EMAIL });
      const filled = await within(fillShop(shop), 30_000, "filling the shop");
      const token = await loginToken(server.url);

      // The backup through the server while four workers sell.
      const archive = `${work}/shop.backup`;
      let release!: () => void;
      const stop = new Promise<void>((resolve) => (release = resolve));
      const load = writeLoad(shop, filled, 4, stop);
      const backup = await opsWithin(["backup", "--out", archive], {
        dataDir,
        env: { OPS_SERVER: server.url, OPS_TOKEN: token },
      }).finally(release);
      const sales = await within(load, 30_000, "the write load");
      assertEquals(backup.code, 0, backup.stderr);
      assertMatch(
        backup.stdout,
        /^Backup written to .*shop\.backup: \d+ tables, \d+ rows, 2 files/,
      );
      assert(sales > 0, "sales were made while the backup ran");
      const contents = await readContents(archive);
      assertConsistent(contents, filled);
      await assertFilesOnDisk(contents, `${dataDir}/files`);
      // The vault's entries are in it as ciphertext only.
      for (const [table, rows] of contents.tables) {
        assert(!rows.some((row) => row.includes("hunter2")), `a secret in clear in ${table}`);
      }
      assertEquals(contents.tables.get("vault_entries")!.length, 1);

      // Restore into the other engine.
      const filesDir = `${work}/files`;
      const where: { dataDir: string; env: Record<string, string> } = target
        ? { dataDir: `${work}/unused`, env: { DATABASE_URL: target.url, FILES_DIR: filesDir } }
        : { dataDir: `${work}/data`, env: { FILES_DIR: filesDir } };
      const restore = await opsWithin(["restore", archive], where);
      assertEquals(restore.code, 0, restore.stderr);
      assertMatch(restore.stdout, /^Restored .*: \d+ tables, \d+ rows, 2 files/);

      // The target as an archive of its own: the same rows, the same files.
      const again = `${work}/again.backup`;
      const second = await opsWithin(["backup", "--out", again], where);
      assertEquals(second.code, 0, second.stderr);
      const restored = await readContents(again);
      assertSameContents(restored, contents, ["backup.restored", "backup.created"]);
      await assertFilesOnDisk(contents, filesDir);
    } finally {
      server.kill("SIGTERM");
      await within(server.status, 20_000, "the server's stop").catch(() => server.kill("SIGKILL"));
      await target?.drop();
      await removeDir(dataDir);
      await removeDir(work);
    }
  },
});
