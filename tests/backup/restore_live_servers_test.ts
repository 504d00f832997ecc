/**
 * `ops restore` into a database that a running server uses is refused up front, naming the
 * server's pid, and changes nothing; once the server is stopped the same restore goes through.
 * On PostgreSQL the live processes' registry says who uses it (before, the restore ran into
 * their locks and failed at random with "The record changed concurrently; retry"); on the
 * embedded engine the data directory's lock does.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_helpers/assert.ts";
import { createTestApp, type TestApp } from "../_helpers/test_app.ts";
import { removeDir, startServer } from "../_helpers/processes.ts";
import { onPostgres } from "../_helpers/query_plans.ts";
import { createAccount } from "../../app/accounts/accounts.ts";
import { opsWithin } from "./_places.ts";
import { writeArchive } from "./_archives.ts";
import { newTarget, type Target } from "./_target.ts";

let t: TestApp;
let work: string;
let target: Target;
let archive: string;

Deno.test.beforeAll(async () => {
  t = await createTestApp();
  work = await Deno.makeTempDir({ prefix: "shop-restore-live-" });
  await createAccount(t.deps, { name: "Grace Hopper" });
  archive = `${work}/shop.backup`;
  await writeArchive(t.deps, archive);
  target = await newTarget(work);
});

Deno.test.afterAll(async () => {
  await target?.drop();
  await t?.close();
  await removeDir(work);
});

Deno.test({
  name:
    "a restore into a database a running server uses is refused naming its pid; stopped, it goes through",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ dataDir: target.where.dataDir, env: target.where.env });
    let stopped = false;
    try {
      for (const flags of [[], ["--force", "--yes"]]) {
        const refused = await opsWithin(["restore", archive, ...flags], target.where);
        assertEquals(refused.code, 1, refused.stderr);
        assertEquals(refused.stderr.trim().split("\n").length, 1, refused.stderr);
        assertStringIncludes(refused.stderr, `pid ${server.pid}`);
        if (onPostgres) {
          assertMatch(
            refused.stderr,
            new RegExp(
              `^error: Cannot restore while a server process uses the target database: pid ` +
                `${server.pid} on \\S+ \\(up since .* UTC\\)\\. Stop them first`,
            ),
          );
          assertStringIncludes(refused.stderr, "nothing was changed");
        }
      }
      server.kill("SIGTERM");
      assertEquals((await server.status).code, 0);
      stopped = true;
      assertEquals(await target.accounts(), 0, "the server's database was left as it was");
    } finally {
      if (!stopped) {
        server.kill("SIGTERM");
        await server.status;
      }
    }
    const restored = await opsWithin(["restore", archive], target.where);
    assertEquals(restored.code, 0, restored.stderr);
    assertEquals(await target.accounts(), 1);
    assert(restored.stdout.startsWith("Restored "), restored.stdout);
  },
});
