/**
 * The reverse move (API §16): a shop on PostgreSQL, served by the real server and filled
 * through its API, is backed up with `ops backup` on the database directly (one REPEATABLE READ
 * snapshot on a connection of its own) while four clerks keep selling, and restored into an
 * embedded data directory: every table row for row, every file byte for byte.
 */
import { assert, assertEquals, assertMatch } from "../_helpers/assert.ts";
import { removeDir, startServer } from "../_helpers/processes.ts";
import { onPostgres } from "../_helpers/query_plans.ts";
import { emptyPostgres, opsWithin } from "./_places.ts";
import { within } from "../_helpers/within.ts";
import { ADMIN_EMAIL, assertConsistent, fillShop, readContents, Shop, writeLoad } from "./_shop.ts";
import { assertFilesOnDisk, assertSameContents } from "./_compare.ts";

Deno.test({
  name: "a PostgreSQL shop backed up under write load restores into the embedded engine, equal",
  ignore: !onPostgres,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const source = await emptyPostgres();
    const work = await Deno.makeTempDir({ prefix: "shop-backup-pg-" });
    const sourceFiles = `${work}/source-files`;
    const sourceEnv = { DATABASE_URL: source.url, FILES_DIR: sourceFiles };
    const server = await startServer({
      dataDir: `${work}/source`,
      env: { ...sourceEnv, DEV_BYPASS: "true" },
    });
    try {
      const registered = await fetch(`${server.url}/v1/auth/register`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          email: ADMIN_EMAIL,
          password: "a long owner password",
          firstName: "Ada",
          lastName: "Admin",
        }),
        signal: AbortSignal.timeout(20_000),
      });
      assertEquals(registered.status, 201, await registered.text());
      const shop = new Shop(server.url, { "X-Dev-User": ADMIN_EMAIL });
      const filled = await within(fillShop(shop), 30_000, "filling the shop");

      const archive = `${work}/shop.backup`;
      let release!: () => void;
      const stop = new Promise<void>((resolve) => (release = resolve));
      const load = writeLoad(shop, filled, 4, stop);
      const backup = await opsWithin(["backup", "--out", archive], {
        dataDir: `${work}/source`,
        env: sourceEnv,
      }).finally(release);
      const sales = await within(load, 30_000, "the write load");
      assertEquals(backup.code, 0, backup.stderr);
      assertMatch(backup.stdout, /^Backup written to .*: \d+ tables, \d+ rows, 2 files/);
      assert(sales > 0, "sales were made while the backup ran");
      const contents = await readContents(archive);
      assertConsistent(contents, filled);
      await assertFilesOnDisk(contents, sourceFiles);

      const where = { dataDir: `${work}/target`, env: { FILES_DIR: `${work}/target-files` } };
      const restore = await opsWithin(["restore", archive], where);
      assertEquals(restore.code, 0, restore.stderr);
      const again = `${work}/again.backup`;
      const second = await opsWithin(["backup", "--out", again], where);
      assertEquals(second.code, 0, second.stderr);
      assertSameContents(await readContents(again), contents, [
        "backup.restored",
        "backup.created",
      ]);
      await assertFilesOnDisk(contents, `${work}/target-files`);
    } finally {
      server.kill("SIGTERM");
      await within(server.status, 20_000, "the server's stop").catch(() => server.kill("SIGKILL"));
      await source.drop();
      await removeDir(work);
    }
  },
});
