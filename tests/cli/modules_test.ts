/** `ops modules list|enable|disable|license` on the database directly, as child processes. */
import { assertEquals, assertMatch, assertStringIncludes } from "../_helpers/assert.ts";
import { embeddedRunTest, removeDir } from "../_helpers/processes.ts";
import { ops, type OpsPlace, preparedPlace } from "./_ops.ts";

let place: OpsPlace;

embeddedRunTest.beforeAll(async () => {
  place = await preparedPlace();
});
embeddedRunTest.afterAll(async () => {
  await removeDir(place.dataDir);
});

embeddedRunTest(
  "modules list prints an aligned table of the 14 modules, without colour when piped",
  async () => {
    const list = await ops(place, ["modules", "list"]);
    assertEquals(list.code, 0, list.stderr);
    const lines = list.stdout.trimEnd().split("\n");
    assertMatch(lines[0]!, /^SLUG\s+NAME\s+CORE\s+LICENSED\s+ENABLED$/);
    assertEquals(lines.length, 15);
    assertMatch(list.stdout, /^accounts\s+Accounts\s+yes\s+yes\s+yes$/m);
    assertMatch(list.stdout, /^vault\s+Vault\s+no\s+yes\s+yes$/m);
    // Columns line up: every row's second column starts where the header's does.
    const at = lines[0]!.indexOf("NAME");
    for (const line of lines.slice(1)) assertEquals(line[at - 1], " ", line);
    assertEquals(list.stdout.includes("\x1b["), false, "no colour when stdout is not a terminal");
  },
);

embeddedRunTest(
  "a licence change needs --yes without a terminal; revoke disables, grant + enable restores",
  async () => {
    const refused = await ops(place, ["modules", "license", "vault", "--revoke"]);
    assertEquals(refused.code, 2);
    assertStringIncludes(refused.stderr, "add --yes");

    const revoked = await ops(place, [
      "modules",
      "license",
      "vault",
      "--revoke",
      "--yes",
      "--json",
    ]);
    assertEquals(revoked.code, 0, revoked.stderr);
    assertEquals(JSON.parse(revoked.stdout).licensed, false);
    assertEquals(JSON.parse(revoked.stdout).enabled, false);
    const notLicensed = await ops(place, ["modules", "enable", "vault"]);
    assertEquals(notLicensed.code, 1);
    assertStringIncludes(notLicensed.stderr, 'Module "vault" is not licensed');

    const granted = await ops(place, ["modules", "license", "vault", "--grant", "--yes"]);
    assertEquals(granted.code, 0, granted.stderr);
    assertEquals(
      granted.stdout,
      'Module "vault" is now licensed, disabled. Turn it on with `ops modules enable vault`.\n',
    );
    const enabled = await ops(place, ["modules", "enable", "vault", "--format", "csv"]);
    assertEquals(enabled.code, 0, enabled.stderr);
    assertEquals(enabled.stdout, "SLUG,NAME,CORE,LICENSED,ENABLED\r\nvault,Vault,no,yes,yes\r\n");
    const disabled = await ops(place, ["modules", "disable", "vault"]);
    assertEquals(disabled.stdout, 'Module "vault" is now licensed, disabled.\n');
  },
);

embeddedRunTest(
  "modules refuse to turn a core module off (exit 1); a missing slug is usage (exit 2)",
  async () => {
    const core = await ops(place, ["modules", "disable", "accounts"]);
    assertEquals(core.code, 1);
    assertEquals(core.stderr, 'error: Module "accounts" is core and always on\n');
    const noSlug = await ops(place, ["modules", "enable"]);
    assertEquals(noSlug.code, 2);
  },
);
