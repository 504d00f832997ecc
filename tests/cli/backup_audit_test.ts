/**
 * `ops backup` on the database directly is audited (issue 42, item 4; API §16), as a child
 * process: on PostgreSQL with TEST_DATABASE_URL, else on a prepared embedded data directory.
 */
import { assertEquals } from "../_helpers/assert.ts";
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

Deno.test("`ops backup` writes audit entries with its actor, where and how big", async () => {
  let place: OpsPlace;
  let env: Record<string, string> = {};
  if (t.database.url) {
    place = { dataDir: await Deno.makeTempDir({ prefix: "shop-cli-" }), configDir: "/nonexistent" };
    env = { DATABASE_URL: t.database.url };
  } else {
    place = await preparedPlace();
  }
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
