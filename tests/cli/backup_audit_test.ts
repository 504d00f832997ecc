/**
 * `ops backup` on the database directly is audited (issue 42, item 4; API §16), as a child
 * process: on PostgreSQL with TEST_DATABASE_URL, else on a prepared embedded data directory.
 * Without `--out` it writes into `backups/`, which .gitignore covers.
 */
import { assert, assertEquals, assertMatch } from "../_helpers/assert.ts";
import type { TestApp } from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import { removeDir } from "../_helpers/processes.ts";
import type { Db } from "../../app/db/database.ts";
import { ops, type OpsPlace, preparedPlace, withDataDir } from "./_ops.ts";

let t: TestApp;

withTestApp((app) => {
  t = app;
});

function backupAudit(db: Db) {
  return db.selectFrom("audit_log")
    .select(["action", "actor_id", "actor_email", "entity_type", "entity_id", "details"])
    .where("action", "like", "backup.%").orderBy("at").execute();
}

/** Where `ops` backs up: the test database on PostgreSQL, else a prepared data directory. */
async function backupPlace(): Promise<{ place: OpsPlace; env: Record<string, string> }> {
  if (t.database.url) {
    const dataDir = await Deno.makeTempDir({ prefix: "shop-cli-" });
    return {
      place: { dataDir, configDir: "/nonexistent" },
      env: { DATABASE_URL: t.database.url },
    };
  }
  return { place: await preparedPlace(), env: {} };
}

Deno.test("`ops backup` writes audit entries with its actor, where and how big", async () => {
  const { place, env } = await backupPlace();
  try {
    const file = `${place.dataDir}/nightly.backup`;
    const result = await ops(place, ["backup", "--out", file, "--json"], { env });
    assertEquals(result.code, 0, result.stderr);
    const summary = JSON.parse(result.stdout);
    const entries = t.database.url
      ? await backupAudit(t.deps.db)
      : await withDataDir(place.dataDir, (deps) => backupAudit(deps.db));
    assertEquals(entries.map((e) => e.action), ["backup.created", "backup.completed"]);
    for (const entry of entries) {
      assertEquals(entry.actor_id, null);
      assertEquals(entry.actor_email, "system (ops)");
      assertEquals(entry.entity_type, "backup");
      assertEquals(entry.entity_id, entries[0]!.entity_id);
    }
    assertEquals(entries[0]!.details, {
      location: file,
      engine: t.database.url ? "postgres" : "embedded",
    });
    const completed = entries[1]!.details as Record<string, unknown>;
    assertEquals(completed.location, file);
    assertEquals(completed.tables, summary.tables);
    assertEquals(completed.rows, summary.rows);
    assertEquals(completed.bytes, summary.bytes);
  } finally {
    await removeDir(place.dataDir);
  }
});

Deno.test("`ops backup` without --out writes into backups/ (made, owner only), which .gitignore covers", async () => {
  const { place, env } = await backupPlace();
  try {
    const result = await ops(place, ["backup", "--json"], { env, cwd: place.dataDir });
    assertEquals(result.code, 0, result.stderr);
    const file = JSON.parse(result.stdout).file;
    assertMatch(file, /\/backups\/shop-\d{8}-\d{6}\.backup$/);
    assertEquals(file, `${await Deno.realPath(place.dataDir)}/backups/${file.split("/").at(-1)}`);
    assert((await Deno.stat(file)).isFile);
    assertEquals((await Deno.stat(`${place.dataDir}/backups`)).mode! & 0o777, 0o700);
  } finally {
    await removeDir(place.dataDir);
  }
  const ignored = (await Deno.readTextFile(new URL("../../.gitignore", import.meta.url)))
    .split("\n").map((line) => line.trim());
  assert(ignored.includes("backups/"), ".gitignore does not cover backups/");
});
