/**
 * Who may download the whole shop (issue 42, item 4; API §3, §16): `GET /v1/backup` reads every
 * domain, so it needs every permission (settings.admin alone, or all but one, → 403), and every
 * download is audited with its actor before its first byte and again once complete. `ops
 * restore` has no user to check (it works on the database's own credentials) but audits itself
 * in the restored database.
 */
import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  withFreshApp,
} from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import { PERMISSIONS } from "../../domain/auth/permissions.ts";
import { parseManifest } from "../../domain/backup/archive_format.ts";
import { readArchive } from "../../app/backup/archive_stream.ts";
import { restoreArchive } from "../../app/backup/restore.ts";
import { createAdmin } from "../auth/_auth_helpers.ts";
import { writeArchive } from "./_archives.ts";

let t: TestApp;

withTestApp((app) => {
  t = app;
});

const ALL = PERMISSIONS.map((p) => p.id);

function auditOf(action: string) {
  return t.deps.db.selectFrom("audit_log")
    .select(["actor_id", "actor_email", "entity_type", "entity_id", "details"])
    .where("action", "=", action).orderBy("at").execute();
}

Deno.test("settings.admin alone, or every permission but one, gets 403 forbidden, audited", async () => {
  const settings = await createUserWithPermissions(t, ["settings.admin"]);
  const allButOne = await createUserWithPermissions(t, ALL.filter((p) => p !== "vault.admin"));
  for (const user of [settings, allButOne]) {
    const res = await api(t.app, "GET", "/v1/backup", { token: user.token });
    assertEquals(res.status, 403, res.text);
    assertEquals(res.body.code, "forbidden");
    assertStringIncludes(res.body.detail, "every permission");
  }
  assertEquals((await auditOf("backup.downloaded")).length, 0, "nothing was streamed");
  const denied = await auditOf("backup.denied");
  assertEquals(denied.map((d) => d.actor_id), [settings.id, allButOne.id]);
  assertEquals((denied[1]!.details as { missing: string[] }).missing, ["vault.admin"]);
});

Deno.test("an admin gets the archive; the download is audited with its actor, then its size", async () => {
  const admin = await createAdmin(t);
  const res = await t.app.request("/v1/backup?location=office-pc%3A%2Fbackups%2Fshop.backup", {
    headers: { Authorization: `Bearer ${admin.token}` },
  });
  assertEquals(res.status, 200);
  const bytes = new Uint8Array(await res.arrayBuffer());
  let auditRows = "";
  const decoder = new TextDecoder();
  const manifest = parseManifest(
    await readArchive(ReadableStream.from([bytes]), {
      data(header, chunk) {
        if (header.kind === "table" && header.name === "audit_log") {
          auditRows += decoder.decode(chunk, { stream: true });
        }
      },
    }),
  );
  assert(manifest.tables.some((table) => table.name === "users"));

  const [downloaded] = await auditOf("backup.downloaded");
  assert(downloaded, "the download is audited");
  assertEquals(downloaded.actor_id, admin.id);
  assertEquals(downloaded.actor_email, admin.email);
  assertEquals(downloaded.entity_type, "backup");
  assertEquals(downloaded.details, {
    location: "office-pc:/backups/shop.backup",
    engine: t.deps.dbKind,
  });
  // Written before the first byte: the archive holds the entry of its own download.
  assertStringIncludes(auditRows, downloaded.entity_id!);
  const completed = await auditOf("backup.completed");
  assertEquals(completed.length, 1);
  assertEquals(completed[0]!.actor_id, admin.id);
  assertEquals(completed[0]!.entity_id, downloaded.entity_id);
  const details = completed[0]!.details as Record<string, unknown>;
  assertEquals(details.tables, manifest.tables.length);
  assertEquals(details.bytes, bytes.byteLength);
  assertEquals(details.location, "office-pc:/backups/shop.backup");
  const status = await api(t.app, "GET", "/v1/status", { token: admin.token });
  assertEquals(status.body.lastBackup.bytes, bytes.byteLength);
});

Deno.test("a restore is audited in the restored database, by the system, naming the archive", async () => {
  const work = await Deno.makeTempDir({ prefix: "shop-backup-access-" });
  try {
    const archive = `${work}/shop.backup`;
    const manifest = await writeArchive(t.deps, archive);
    await withFreshApp({}, async (target) => {
      await restoreArchive(target.deps, () => Deno.open(archive).then((f) => f.readable), {
        label: archive,
      });
      const entries = await target.deps.db.selectFrom("audit_log")
        .select(["actor_id", "actor_email", "details"])
        .where("action", "=", "backup.restored").execute();
      assertEquals(entries.length, 1);
      assertEquals(entries[0]!.actor_id, null);
      assertEquals(entries[0]!.actor_email, "system (ops)");
      const details = entries[0]!.details as Record<string, unknown>;
      assertEquals(details.archive, archive);
      assertEquals(details.archiveCreatedAt, manifest.createdAt);
      assertEquals(details.tables, manifest.tables.length);
      assertEquals(details.replaced, false);
      // The archive's own entries came along.
      const downloads = await target.deps.db.selectFrom("audit_log").select("id")
        .where("action", "=", "backup.downloaded").execute();
      assertEquals(downloads.length, (await auditOf("backup.downloaded")).length);
    });
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});
