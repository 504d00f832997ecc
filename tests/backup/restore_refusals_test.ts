/**
 * `ops restore` refuses what it must (API §16), as a child process, and a refusal changes
 * nothing: a damaged byte or a truncated archive (the message names the part), an archive whose
 * schema is newer than the code, a non-empty target without --force (exit 1 naming --force),
 * --force without --yes off a terminal (exit 2); with --force --yes it replaces everything.
 * Then `ops status` reports the target.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_helpers/assert.ts";
import { createTestApp, type TestApp } from "../_helpers/test_app.ts";
import { removeDir } from "../_helpers/processes.ts";
import { opsWithin } from "./_places.ts";
import { addBulk, corruptCopy, rewriteArchive, truncatedCopy, writeArchive } from "./_archives.ts";
import { newTarget, type Target } from "./_target.ts";
import { readContents } from "./_shop.ts";
import { assertFilesOnDisk } from "./_compare.ts";

let t: TestApp;
let work: string;
let target: Target;
const archives = { a: "", b: "" };
let accountsA = 0;
let accountsB = 0;

Deno.test.beforeAll(async () => {
  t = await createTestApp();
  work = await Deno.makeTempDir({ prefix: "shop-restore-refusals-" });
  const filesDir = t.deps.config.filesDir;
  await Deno.mkdir(`${filesDir}/member`, { recursive: true });
  await Deno.writeFile(`${filesDir}/member/a.png`, new Uint8Array([1, 2, 3, 0, 255]));
  await addBulk(t, { accounts: 300, products: 200, lines: 2000 }, "r", "9001");
  archives.a = `${work}/a.backup`;
  accountsA = (await writeArchive(t.deps, archives.a)).tables
    .find((x) => x.name === "accounts")!.rows;
  await addBulk(t, { accounts: 200, products: 100, lines: 400 }, "s", "9002");
  await Deno.writeFile(`${filesDir}/member/b.png`, new Uint8Array([9, 8, 7]));
  archives.b = `${work}/b.backup`;
  accountsB = (await writeArchive(t.deps, archives.b)).tables
    .find((x) => x.name === "accounts")!.rows;
  target = await newTarget(work);
});

Deno.test.afterAll(async () => {
  await target?.drop();
  await t?.close();
  await removeDir(work);
});

const options = { sanitizeResources: false, sanitizeOps: false };

function restore(file: string, ...flags: string[]) {
  return opsWithin(["restore", file, ...flags], target.where);
}

Deno.test(
  "a damaged byte is refused before anything is opened, naming the part",
  options,
  async () => {
    for (const at of [0.3, 0.6, 0.95]) {
      const bad = `${work}/bad-${at}.backup`;
      await corruptCopy(archives.a, bad, at);
      const result = await restore(bad);
      assertEquals(result.code, 1, result.stderr);
      assertMatch(
        result.stderr,
        /^error: Cannot restore .*: (table|file) "[^"]+" is damaged|the manifest is damaged|a part header is damaged \(after (table|file) "[^"]+"\)/,
      );
      assertStringIncludes(result.stderr, "nothing was changed");
      assertEquals(result.stderr.trim().split("\n").length, 1, "one line, no stack trace");
    }
    assertEquals(await target.accounts(), undefined, "the target was not touched");
    assertEquals(await Deno.stat(target.filesDir).catch(() => undefined), undefined);
  },
);

Deno.test("a truncated archive is refused, naming where it ends", options, async () => {
  for (const keep of [0.5, 0.999]) {
    const cut = `${work}/cut-${keep}.backup`;
    await truncatedCopy(archives.a, cut, keep);
    const result = await restore(cut);
    assertEquals(result.code, 1, result.stderr);
    assertMatch(result.stderr, /^error: Cannot restore .*: (it is truncated|.* is damaged)/);
  }
  assertEquals(await target.accounts(), undefined);
});

Deno.test("an archive whose schema is newer than the code is refused", options, async () => {
  const newer = `${work}/newer.backup`;
  await rewriteArchive(archives.a, newer, (m) => ({
    ...m,
    migrations: [...m.migrations, "29990101_000000_from_the_future"],
  }));
  const result = await restore(newer);
  assertEquals(result.code, 1, result.stderr);
  assertStringIncludes(result.stderr, "its schema is newer than this code");
  assertStringIncludes(result.stderr, "29990101_000000_from_the_future");
  assertEquals(await target.accounts(), undefined);
});

Deno.test(
  "an empty target takes the archive; a non-empty one needs --force and --yes",
  options,
  async () => {
    const first = await restore(archives.a);
    assertEquals(first.code, 0, first.stderr);
    assertEquals(await target.accounts(), accountsA);
    await assertFilesOnDisk(await readContents(archives.a), target.filesDir);

    const again = await restore(archives.b);
    assertEquals(again.code, 1, again.stderr);
    assertMatch(again.stderr, /^error: The target is not empty .*--force/);

    const unconfirmed = await restore(archives.b, "--force");
    assertEquals(unconfirmed.code, 2, unconfirmed.stderr);
    assertStringIncludes(unconfirmed.stderr, "--yes");

    const bad = `${work}/bad-b.backup`;
    await corruptCopy(archives.b, bad, 0.5);
    const refused = await restore(bad, "--force", "--yes");
    assertEquals(refused.code, 1, refused.stderr);
    assertEquals(await target.accounts(), accountsA, "a refused archive changed nothing");
    await assertFilesOnDisk(await readContents(archives.a), target.filesDir);

    const replaced = await restore(archives.b, "--force", "--yes");
    assertEquals(replaced.code, 0, replaced.stderr);
    assertStringIncludes(replaced.stdout, "the previous contents were replaced");
    assertEquals(await target.accounts(), accountsB);
    await assertFilesOnDisk(await readContents(archives.b), target.filesDir);
    assert(accountsB > accountsA);
  },
);

Deno.test("ops status shows the target's engine, schema and size", options, async () => {
  const result = await opsWithin(["status", "--json"], target.where);
  assertEquals(result.code, 0, result.stderr);
  const status = JSON.parse(result.stdout);
  assertEquals(status.engine, target.where.env.DATABASE_URL ? "postgres" : "embedded");
  assertEquals(status.pendingMigrations, 0);
  assert(status.databaseBytes > 0);
  assertEquals(status.vault, { initialized: false, locked: true });
  assertEquals(status.outbox, { pending: 0, failed: 0 });
  const table = await opsWithin(["status"], target.where);
  assertEquals(table.code, 0, table.stderr);
  assertMatch(table.stdout, /^ITEM\s+VALUE\nserver\s+not running \(configured: http/);
  assertMatch(table.stdout, /^database +(PostgreSQL|embedded), \d+\.\d (KiB|MiB|GiB)$/m);
  assertMatch(table.stdout, /last backup\s+never/);

  // A backup, shown as people read it: the store's time, a size in KiB/MiB.
  const backup = await opsWithin(["backup", "--out", `${work}/status.backup`], target.where);
  assertEquals(backup.code, 0, backup.stderr);
  const after = await opsWithin(["status"], target.where);
  assertMatch(
    after.stdout,
    new RegExp(
      "^last backup +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d \\(America/New_York\\), " +
        `\\d+\\.\\d (KiB|MiB), ${work}/status\\.backup$`,
      "m",
    ),
  );
});
