/** The `ops` CLI as a user runs it: a child process on an embedded data directory of its own. */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_helpers/assert.ts";
import { embeddedRunTest, removeDir } from "../_helpers/processes.ts";
import { newPlace, ops, opsAll, type OpsPlace } from "./_ops.ts";

let place: OpsPlace;

embeddedRunTest.beforeAll(async () => {
  place = await newPlace();
});
embeddedRunTest.afterAll(async () => {
  await removeDir(place.dataDir);
});

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

embeddedRunTest(
  "ops --help, and --help of a group and a command, exit 0 with EXAMPLES and ENVIRONMENT",
  async () => {
    const [top, group, leaf] = await Promise.all([
      ops(place, ["--help"]),
      ops(place, ["migrate", "--help"]),
      ops(place, ["modules", "license", "--help"]),
    ]);
    assertEquals(top.code, 0);
    assertStringIncludes(top.stdout, "Usage: ops");
    for (const command of ["serve", "migrate", "seed", "modules", "login", "whoami", "logout"]) {
      assertStringIncludes(top.stdout, command);
    }
    assertStringIncludes(top.stdout, "Environment:");
    assertStringIncludes(top.stdout, "DATABASE_URL");
    assertEquals(group.code, 0);
    assertStringIncludes(group.stdout, "status");
    assertEquals(leaf.code, 0);
    assertStringIncludes(leaf.stdout, "--grant");
    assertMatch(leaf.stdout, /Examples:\n {2}\$ deno task ops modules license vault/);
    assertMatch(leaf.stdout, /Environment:\n {2}DATABASE_URL .*\n {2}DATA_DIR /);
  },
);

embeddedRunTest(
  "usage errors exit 2 on one line: unknown command or option, a typo'd option, a bad format",
  async () => {
    const { unknown, noSubcommand, both, typo, missing, format, clash } = await opsAll(
      place,
      {
        unknown: ["frobnicate"],
        noSubcommand: ["modules"],
        both: ["modules", "license", "vault", "--grant", "--revoke"],
        typo: ["user", "create", "--emial", "a@b.test", "--first", "A", "--last", "B"],
        missing: ["user", "create", "--first", "A", "--last", "B"],
        format: ["migrate", "status", "--format", "xml"],
        clash: ["modules", "list", "--json", "--format", "csv"],
      },
    );
    for (const result of [unknown, noSubcommand, both, typo, missing, format, clash]) {
      assertEquals(result.code, 2, result.stderr);
    }
    assertStringIncludes(unknown.stderr, "unknown command 'frobnicate'");
    assertStringIncludes(both.stderr, "--grant or --revoke");
    // A typo'd option is reported as unknown (with the suggestion), not as the required one missing.
    assertEquals(
      typo.stderr,
      "error: unknown option '--emial' (Did you mean --email?) (run `ops user create --help`)\n",
    );
    assertStringIncludes(missing.stderr, "required option '--email <email>' not specified");
    assertStringIncludes(format.stderr, "Allowed choices are table, json, csv");
    for (const result of [unknown, both, typo, missing, format, clash]) {
      assertEquals(result.stderr.trimEnd().split("\n").length, 1, result.stderr);
    }
  },
);

embeddedRunTest(
  "no command creates a database: a missing one is one line naming the fix (exit 1)",
  async () => {
    const results = await Promise.all(
      [["migrate", "status"], ["report", "daily", "--location", "x"]]
        .map((args) => ops(place, args)),
    );
    for (const result of results) {
      assertEquals(result.code, 1, result.stderr);
      assertStringIncludes(result.stderr, "There is no database in DATA_DIR");
      assertStringIncludes(result.stderr, "ops migrate up");
      assertEquals(result.stderr.trimEnd().split("\n").length, 1);
    }
    assertEquals(await exists(`${place.dataDir}/pgdata`), false);
  },
);

embeddedRunTest(
  "migrate up creates the database; an unmigrated one is refused naming the fix; seed",
  async () => {
    const up = await ops(place, ["migrate", "up", "--json"]);
    assertEquals(up.code, 0, up.stderr);
    const applied = JSON.parse(up.stdout).applied as string[];
    assert(applied.length > 0);
    assertStringIncludes(up.stderr, "Creating the embedded database");

    const csv = await ops(place, ["migrate", "status", "--format", "csv"]);
    const lines = csv.stdout.trimEnd().split("\r\n");
    assertEquals(lines[0], "MIGRATION,APPLIED AT (UTC)");
    assertEquals(lines.slice(1).map((l) => l.split(",")[0]), applied);
    assert(lines.slice(1).every((l) => !Number.isNaN(Date.parse(l.split(",")[1]!))));

    // Revert one: a business command then names `ops migrate up` (and `seed` refuses too).
    const down = await ops(place, ["migrate", "down", "--yes"]);
    assertEquals(down.code, 0, down.stderr);
    assertEquals(down.stdout, `reverted ${applied.at(-1)}\n`);
    const refused = await ops(place, ["modules", "list"]);
    assertEquals(refused.code, 1);
    assertMatch(refused.stderr, /has 1 pending migration\(s\): run `ops migrate up`/);
    const again = await ops(place, ["migrate"]);
    assertEquals(again.stdout, `applied ${applied.at(-1)}\n`);
    const seed = await ops(place, ["seed"]);
    assertEquals([seed.code, seed.stdout], [0, "Seeds applied.\n"], seed.stderr);
  },
);

embeddedRunTest(
  "migrate down asks: without a terminal it needs --yes (exit 2), refused before any work",
  async () => {
    const refused = await ops(place, ["migrate", "down"]);
    assertEquals(refused.code, 2);
    assertStringIncludes(refused.stderr, "`ops migrate down` asks for confirmation");
    assertStringIncludes(refused.stderr, "--yes");
  },
);

embeddedRunTest("invalid configuration is a failure (exit 1) with the variable named", async () => {
  const result = await ops(place, ["migrate", "status"], { env: { PORT: "not-a-port" } });
  assertEquals(result.code, 1);
  assertStringIncludes(result.stderr, "PORT");
});
