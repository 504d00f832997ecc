/** The `ops` CLI as a user runs it: a child process on an embedded data directory of its own. */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_helpers/assert.ts";
import { removeDir, runOps } from "../_helpers/processes.ts";

let dataDir: string;

Deno.test.beforeAll(async () => {
  dataDir = await Deno.makeTempDir({ prefix: "shop-ops-" });
});
Deno.test.afterAll(async () => {
  await removeDir(dataDir);
});

Deno.test("ops --help, and --help of a command group, exit 0 with usage on stdout", async () => {
  const top = await runOps(["--help"], { dataDir });
  assertEquals(top.code, 0);
  assertStringIncludes(top.stdout, "Usage: ops");
  for (const command of ["serve", "migrate", "seed", "modules"]) {
    assertStringIncludes(top.stdout, command);
  }
  const group = await runOps(["migrate", "--help"], { dataDir });
  assertEquals(group.code, 0);
  assertStringIncludes(group.stdout, "status");
  const leaf = await runOps(["modules", "license", "--help"], { dataDir });
  assertEquals(leaf.code, 0);
  assertStringIncludes(leaf.stdout, "--grant");
});

Deno.test("usage errors exit 2: unknown command, unknown option, missing argument, no subcommand", async () => {
  const unknown = await runOps(["frobnicate"], { dataDir });
  assertEquals(unknown.code, 2);
  assertStringIncludes(unknown.stderr, "unknown command 'frobnicate'");
  assertEquals((await runOps(["migrate", "status", "--bogus"], { dataDir })).code, 2);
  assertEquals((await runOps(["modules", "license"], { dataDir })).code, 2);
  assertEquals((await runOps(["modules"], { dataDir })).code, 2);
  const both = await runOps(["modules", "license", "vault", "--grant", "--revoke"], { dataDir });
  assertEquals(both.code, 2);
  assertStringIncludes(both.stderr, "--grant or --revoke");
});

Deno.test("migrate status --json lists pending migrations, migrate up applies them, status shows them applied", async () => {
  const before = await runOps(["migrate", "status", "--json"], { dataDir });
  assertEquals(before.code, 0, before.stderr);
  const pending = JSON.parse(before.stdout) as { name: string; applied: boolean }[];
  assert(pending.length > 0);
  assert(pending.every((m) => !m.applied));

  const seedTooEarly = await runOps(["seed"], { dataDir });
  assertEquals(seedTooEarly.code, 1);
  assertStringIncludes(seedTooEarly.stderr, "ops migrate up");

  const up = await runOps(["migrate", "up"], { dataDir });
  assertEquals(up.code, 0, up.stderr);
  assertStringIncludes(up.stdout, pending[0]!.name);

  const after = await runOps(["migrate", "status", "--json"], { dataDir });
  const applied = JSON.parse(after.stdout) as { name: string; executedAt: string | null }[];
  assertEquals(applied.map((m) => m.name), pending.map((m) => m.name));
  assert(applied.every((m) => m.executedAt !== null && !Number.isNaN(Date.parse(m.executedAt))));

  const table = await runOps(["migrate", "status"], { dataDir });
  assertMatch(table.stdout, /^MIGRATION\s+APPLIED AT$/m);
  const again = await runOps(["migrate"], { dataDir });
  assertEquals(again.code, 0);
  assertStringIncludes(again.stdout, "up to date");
});

Deno.test("ops seed is idempotent and modules license grants and revokes a licence", async () => {
  // Runs after the migrations test above (same data directory).
  for (let run = 0; run < 2; run++) {
    const seed = await runOps(["seed"], { dataDir });
    assertEquals(seed.code, 0, seed.stderr);
  }
  const list = await runOps(["modules", "list", "--json"], { dataDir });
  assertEquals(list.code, 0, list.stderr);
  const modules = JSON.parse(list.stdout) as { slug: string; licensed: boolean; core: boolean }[];
  assertEquals(modules.length, 14);
  assertEquals(modules.filter((m) => m.core).length, 5);

  const revoked = await runOps(["modules", "license", "vault", "--revoke", "--json"], { dataDir });
  assertEquals(revoked.code, 0, revoked.stderr);
  assertEquals(JSON.parse(revoked.stdout), {
    ...JSON.parse(revoked.stdout),
    slug: "vault",
    licensed: false,
    enabled: false,
  });
  const table = await runOps(["modules", "list"], { dataDir });
  assertMatch(table.stdout, /^vault\s+Vault\s+no\s+no\s+no$/m);

  const granted = await runOps(["modules", "license", "vault", "--grant"], { dataDir });
  assertEquals(granted.code, 0);
  assertStringIncludes(granted.stdout, '"vault" is now licensed');

  const core = await runOps(["modules", "license", "accounts", "--revoke"], { dataDir });
  assertEquals(core.code, 1);
  assertStringIncludes(core.stderr, "core");
  const missing = await runOps(["modules", "license", "nope", "--grant"], { dataDir });
  assertEquals(missing.code, 1);
  assertStringIncludes(missing.stderr, 'Module "nope" does not exist');
});

Deno.test("invalid configuration is a failure (exit 1) with the variable named", async () => {
  const result = await runOps(["migrate", "status"], { dataDir, env: { PORT: "not-a-port" } });
  assertEquals(result.code, 1);
  assertStringIncludes(result.stderr, "PORT");
});
