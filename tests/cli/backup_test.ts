/**
 * `ops backup`, `ops restore` and `ops status` used wrongly: one line naming the fix and the
 * documented exit code (API §16: 1 failure, 2 usage), never a stack trace.
 */
import { assertEquals, assertMatch, assertStringIncludes } from "../_helpers/assert.ts";
import { removeDir } from "../_helpers/processes.ts";
import { newPlace, ops, type OpsPlace } from "./_ops.ts";

let place: OpsPlace;
Deno.test.beforeAll(async () => {
  place = await newPlace("shop-ops-backup-");
});
Deno.test.afterAll(async () => {
  await removeDir(place.dataDir);
});

function oneLine(stderr: string): string {
  const lines = stderr.trim().split("\n");
  assertEquals(lines.length, 1, stderr);
  return lines[0]!;
}

Deno.test("ops restore without a file is a usage error; a missing file is one line", async () => {
  const usage = await ops(place, ["restore"]);
  assertEquals(usage.code, 2, usage.stderr);
  const missing = await ops(place, ["restore", `${place.dataDir}/nope.backup`]);
  assertEquals(missing.code, 1, missing.stderr);
  assertMatch(oneLine(missing.stderr), /^error: Cannot read .*nope\.backup: no such file$/);
});

Deno.test("ops restore of a file that is no backup is refused and creates nothing", async () => {
  const file = `${place.dataDir}/notes.txt`;
  await Deno.writeTextFile(file, "not a backup at all\n");
  const result = await ops(place, ["restore", file]);
  assertEquals(result.code, 1, result.stderr);
  assertStringIncludes(oneLine(result.stderr), "nothing was changed");
  assertEquals(await Deno.stat(`${place.dataDir}/pgdata`).catch(() => undefined), undefined);
});

Deno.test("ops backup into a directory that does not exist, and with no database, fails in one line", async () => {
  const nowhere = await ops(place, ["backup", "--out", "/no/such/dir/shop.backup"]);
  assertEquals(nowhere.code, 1, nowhere.stderr);
  assertMatch(
    oneLine(nowhere.stderr),
    /^error: Cannot write .*: the directory \/no\/such\/dir does not exist$/,
  );
  const nothing = await ops(place, ["backup", "--out", `${place.dataDir}/x.backup`]);
  assertEquals(nothing.code, 1, nothing.stderr);
  assertStringIncludes(oneLine(nothing.stderr), "There is no database in DATA_DIR");
});

Deno.test("ops backup --help and ops status --help name their environment", async () => {
  const help = await ops(place, ["backup", "--help"]);
  assertEquals(help.code, 0, help.stderr);
  assertStringIncludes(help.stdout, "--out <file>");
  assertStringIncludes(help.stdout, "OPS_SERVER");
  const status = await ops(place, ["status", "--help"]);
  assertEquals(status.code, 0, status.stderr);
  assertStringIncludes(status.stdout, "--format <format>");
});
