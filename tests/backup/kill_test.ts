/**
 * kill -9 in the middle (API §16, issue 22): `ops restore --force` killed while it loads
 * leaves the target as it was (its one transaction never committed; the files directory is
 * swapped only just before COMMIT), and `ops backup` killed while it writes leaves the source
 * intact and no archive under the final name (it writes `FILE.partial`).
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { createTestApp } from "../_helpers/test_app.ts";
import { childEnv, removeDir } from "../_helpers/processes.ts";
import { onPostgres } from "../_helpers/query_plans.ts";
import postgres from "postgres";
import { opsWithin } from "./_places.ts";
import { within } from "../_helpers/within.ts";
import { addBulk, writeArchive } from "./_archives.ts";
import { newTarget } from "./_target.ts";
import { readContents } from "./_shop.ts";
import { assertFilesOnDisk } from "./_compare.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

function spawnOps(args: string[], where: { dataDir: string; env: Record<string, string> }) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "cli/main.ts", ...args],
    cwd: ROOT,
    env: childEnv(where.dataDir, where.env),
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
}

/** Polls `ready` every 20 ms until it holds (at most `ms`). */
async function until(ready: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await ready())) {
    if (performance.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

async function stagingDirs(filesDir: string): Promise<boolean> {
  const parent = filesDir.slice(0, filesDir.lastIndexOf("/"));
  for await (const entry of Deno.readDir(parent)) {
    if (entry.name.startsWith("target-files.restore-")) return true;
  }
  return false;
}

Deno.test({
  name: "kill -9 of a restore leaves the target as it was; of a backup, the source intact",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const t = await createTestApp();
    const work = await Deno.makeTempDir({ prefix: "shop-backup-kill-" });
    const target = await newTarget(work);
    try {
      const small = `${work}/small.backup`;
      await Deno.mkdir(`${t.deps.config.filesDir}/member`, { recursive: true });
      await Deno.writeFile(`${t.deps.config.filesDir}/member/a.png`, new Uint8Array([1, 2]));
      await addBulk(t, { accounts: 100, products: 100, lines: 400 }, "k", "9003");
      const smallManifest = await writeArchive(t.deps, small);
      await addBulk(t, { accounts: 5_000, products: 5_000, lines: 40_000 }, "l", "9004");
      await Deno.writeFile(`${t.deps.config.filesDir}/member/b.png`, new Uint8Array([3, 4]));
      const big = `${work}/big.backup`;
      const bigManifest = await writeArchive(t.deps, big);
      const accounts = (m: typeof bigManifest) => m.tables.find((x) => x.name === "accounts")!.rows;

      const first = await opsWithin(["restore", small], target.where);
      assertEquals(first.code, 0, first.stderr);
      assertEquals(await target.accounts(), accounts(smallManifest));

      // The restore of the big archive, killed while it loads.
      const restoring = spawnOps(["restore", big, "--force", "--yes"], target.where);
      if (onPostgres) {
        const client = postgres(target.where.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
        try {
          await until(
            async () => {
              const rows = await client`SELECT 1 FROM pg_stat_activity WHERE
              application_name = 'shop-backup' AND query LIKE 'COPY%FROM STDIN' LIMIT 1`;
              return rows.length > 0;
            },
            40_000,
            "the restore's COPY",
          );
        } finally {
          await client.end();
        }
      } else {
        await until(() => stagingDirs(target.filesDir), 40_000, "the restore's staging");
        await new Promise((resolve) => setTimeout(resolve, 1500));
      }
      restoring.kill("SIGKILL");
      const killed = await within(restoring.status, 10_000, "the killed restore");
      assert(!killed.success);
      assertEquals(await target.accounts(), accounts(smallManifest), "the target is unchanged");
      await assertFilesOnDisk(await readContents(small), target.filesDir);

      // The next restore works (a stale lock, a staging directory left behind).
      const again = await opsWithin(["restore", big, "--force", "--yes"], target.where);
      assertEquals(again.code, 0, again.stderr);
      assertEquals(await target.accounts(), accounts(bigManifest));

      // A backup of it, killed while it writes: no archive under the final name.
      const out = `${work}/killed.backup`;
      const backingUp = spawnOps(["backup", "--out", out], target.where);
      await until(() => exists(`${out}.partial`), 40_000, "the backup's partial file");
      backingUp.kill("SIGKILL");
      await within(backingUp.status, 10_000, "the killed backup");
      assert(!(await exists(out)), "no archive under the final name");
      const complete = await opsWithin(["backup", "--out", out], target.where);
      assertEquals(complete.code, 0, complete.stderr);
      const contents = await readContents(out);
      assertEquals(contents.tables.get("accounts")!.length, accounts(bigManifest));
    } finally {
      await target.drop();
      await t.close();
      await removeDir(work);
    }
  },
});
