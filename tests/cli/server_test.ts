// deno-lint-ignore-file no-explicit-any
/**
 * `ops` while the real server (`main.ts`, a child on a free port) holds the embedded database:
 * the first user registered through it, `ops login`, `whoami`, the business commands going
 * through its API with the stored login, the refusals naming the fix, `logout`; then, the
 * server stopped, an unreachable server and a rate limit as one line each.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_helpers/assert.ts";
import {
  embeddedRunTest,
  removeDir,
  type ServerProcess,
  startServer,
} from "../_helpers/processes.ts";
import { ops, type OpsPlace, preparedPlace, withDataDir } from "./_ops.ts";

const OWNER = "owner@shop.test";
const PASSWORD = "a long enough password";

let place: OpsPlace;
let server: ServerProcess;
/**
 * The CLI's environment: nothing in it names the server (it listens on a port of its own, not
 * the configured 8000): `ops` finds it by the embedded database's lock, which names its URL.
 */
const env: Record<string, string> = {};

embeddedRunTest.beforeAll(async () => {
  place = await preparedPlace();
  // A shop with no user yet (the template has an admin): the first one registers.
  await withDataDir(place.dataDir, async ({ db }) => {
    await db.deleteFrom("user_roles").execute();
    await db.deleteFrom("users").execute();
  });
  server = await startServer({ dataDir: place.dataDir });
});
embeddedRunTest.afterAll(async () => {
  server.kill("SIGTERM");
  await server.status;
  await removeDir(place.dataDir);
});

async function storedToken(): Promise<string> {
  return JSON.parse(await Deno.readTextFile(`${place.configDir}/credentials.json`)).token;
}

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${await storedToken()}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json().catch(() => undefined);
  assert(response.ok, `${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

embeddedRunTest(
  "with no user yet, `ops user create` registers the first one through the server (Admin)",
  async () => {
    const created = await ops(
      place,
      [
        "user",
        "create",
        "--email",
        OWNER,
        "--first",
        "Olive",
        "--last",
        "Owner",
        "--role",
        "admin",
        "--password-stdin",
      ],
      { env, stdin: `${PASSWORD}\n` },
    );
    assertEquals(created.code, 0, created.stderr);
    assertEquals(created.stdout, `Created ${OWNER} (Olive Owner), employee 0001, roles: Admin.\n`);
    assertStringIncludes(created.stderr, "the shop's first user (Admin)");
    assertStringIncludes(created.stderr, `ops login --server ${server.url} --email ${OWNER}`);
  },
);

embeddedRunTest(
  "ops login stores the token (0600); whoami names the server, the user and the roles",
  async () => {
    // No --server: the server holding the embedded database.
    const login = await ops(place, ["login", "--email", OWNER, "--password-stdin"], {
      env,
      stdin: `${PASSWORD}\n`,
    });
    assertEquals(login.code, 0, login.stderr);
    assertMatch(
      login.stdout,
      /^Logged in to http:\/\/127\.0\.0\.1:\d+ as owner@shop\.test \(roles: Admin\) until \d{4}-\d\d-\d\d \d\d:\d\d \([\w/]+\)\./,
    );
    assertEquals((await Deno.stat(`${place.configDir}/credentials.json`)).mode! & 0o777, 0o600);

    const whoami = await ops(place, ["whoami", "--json"], { env });
    assertEquals(whoami.code, 0, whoami.stderr);
    const who = JSON.parse(whoami.stdout);
    assertEquals([who.server, who.email, who.roles, who.token], [
      server.url,
      OWNER,
      ["admin"],
      "stored login",
    ]);
    const table = await ops(place, ["whoami"], { env });
    assertMatch(table.stdout, /^User: {4}owner@shop\.test \(Olive Owner\)$/m);
  },
);

embeddedRunTest(
  "business commands go through the server with the stored login while it holds the database",
  async () => {
    const location = await call("POST", "/locations", { name: "Main Street" });
    const register = await call("POST", "/registers", { name: "Front", locationId: location.id });
    await call("POST", "/drawers/open", { registerId: register.id, openingBalance: "100.00" });
    const sale = await call("POST", "/transactions", {
      locationId: location.id,
      registerId: register.id,
      items: [{ description: "Metronome", quantity: 2, unitPrice: "12.50" }],
    });
    await call("POST", `/transactions/${sale.id}/payments`, {
      method: "cash",
      amount: "25.00",
      tendered: "30.00",
    });
    await call("POST", `/transactions/${sale.id}/complete`, {});

    const csv = await ops(
      place,
      ["report", "daily", "--location", "Main Street", "--format", "csv"],
      { env },
    );
    assertEquals(csv.code, 0, csv.stderr);
    assert(csv.stdout.startsWith("section,item,count,amount\r\n"));
    assertStringIncludes(csv.stdout, "\r\nsales,Total,,25.00\r\n");
    assertStringIncludes(csv.stdout, "\r\npayments,cash,1,25.00\r\n");
    const table = await ops(place, ["report", "daily", "--location", "main street"], { env });
    assertEquals(table.code, 0, table.stderr);
    assertMatch(table.stdout, /^Daily report: Main Street, \d{4}-\d\d-\d\d/);
    assertMatch(table.stdout, /^Total\s+25\.00$/m);
    const z = await ops(
      place,
      ["report", "z", "--register", "front", "--location", "Main Street"],
      {
        env,
      },
    );
    assertEquals(z.code, 0, z.stderr);
    assertMatch(z.stdout, /^X report of register Front, cashier Olive Owner: opened /);
    const drawers = await ops(place, ["drawers", "list", "--register", "Front", "--json"], { env });
    assertEquals(drawers.code, 0, drawers.stderr);
    assertEquals(
      JSON.parse(drawers.stdout).data.map((s: any) => [s.register.name, s.cashier.name, s.status]),
      [["Front", "Olive Owner", "open"]],
    );

    const disabled = await ops(place, ["modules", "disable", "vault", "--json"], { env });
    assertEquals(disabled.code, 0, disabled.stderr);
    assertEquals(JSON.parse(disabled.stdout).enabled, false);
    const list = await ops(place, ["modules", "list", "--format", "csv"], { env });
    assertStringIncludes(list.stdout, "\r\nvault,Vault,no,yes,no\r\n");
    assertEquals((await ops(place, ["modules", "enable", "vault"], { env })).code, 0);

    const staff = await ops(
      place,
      [
        "user",
        "create",
        "--email",
        "bo@shop.test",
        "--first",
        "Bo",
        "--last",
        "Ek",
        "--role",
        "Sales Associate",
      ],
      { env },
    );
    assertEquals(staff.code, 0, staff.stderr);
    assertStringIncludes(staff.stdout, "roles: Sales Associate.");
    assertMatch(
      staff.stdout,
      /^Password link \(works once, valid until \d{4}-\d\d-\d\d \d\d:\d\d \([\w/]+\)\):\nhttp:\/\/127\.0\.0\.1:\d+\/reset-password\?token=\S+$/m,
    );
    const link = await ops(place, ["user", "reset-link", "--email", "BO@shop.test", "--json"], {
      env,
    });
    assertEquals(link.code, 0, link.stderr);
    assertMatch(JSON.parse(link.stdout).url, /\/reset-password\?token=/);
    const badRole = await ops(place, [
      "user",
      "create",
      "--email",
      "x@shop.test",
      "--first",
      "X",
      "--last",
      "Y",
      "--role",
      "boss",
    ], { env });
    assertEquals(badRole.code, 2);
    assertStringIncludes(
      badRole.stderr,
      'Unknown role "boss": the roles are admin, instructor, manager, sales-associate (Sales Associate)',
    );

    const status = await ops(place, ["status"], { env });
    assertEquals(status.code, 0, status.stderr);
    assertMatch(status.stdout, new RegExp(`^server +${server.url} \\(running`, "m"));
    assertMatch(status.stdout, /^database +embedded, \d+\.\d (KiB|MiB)$/m);

    const lessons = await ops(place, ["lessons", "generate"], { env });
    assertEquals(lessons.code, 0, lessons.stderr);
    assertEquals(
      lessons.stdout,
      "Nothing to generate for the default window: no active enrollment has a lesson in it " +
        "(enroll students in a schedule slot first).\n",
    );
  },
);

embeddedRunTest(
  "ops setup goes through the server with the stored login: it finds the location and register by name; a re-run changes nothing",
  async () => {
    const args = [
      "setup",
      "--store-name",
      "Harmony Music",
      "--timezone",
      "America/Chicago",
      "--currency",
      "usd",
      "--tax-rate",
      "goods=8.25",
      "--tax-rate",
      "service=0",
      "--location",
      "main street",
      "--register",
      "Front",
    ];
    const first = await ops(place, args, { env });
    assertEquals(first.code, 0, first.stderr);
    assertEquals(
      first.stdout,
      "Store name: My Shop → Harmony Music\n" +
        "Time zone: America/New_York → America/Chicago\n" +
        "Tax on goods: 0.00 % → 8.25 %\n" +
        'Set up: "Harmony Music" (America/Chicago, USD, tax 8.25 % on goods and 0.00 % on ' +
        'services), location "Main Street", register "Front"\n',
    );
    const again = await ops(place, [...args, "--json"], { env });
    assertEquals(again.code, 0, again.stderr);
    assertEquals(JSON.parse(again.stdout).changes, []);
    assertEquals((await call("GET", "/locations")).data.length, 1);
    assertEquals((await call("GET", "/registers")).data.length, 1);
    assertEquals((await call("GET", "/config")).taxRates, { goods: "8.25", service: "0.00" });

    const report = await ops(place, ["report", "daily"], { env });
    assertEquals(report.code, 0, report.stderr);
    assertMatch(report.stdout, /^Daily report: Main Street, /);
  },
);

embeddedRunTest(
  "database-only commands refuse while the server holds the database, naming the fix",
  async () => {
    for (
      const args of [["modules", "license", "vault", "--revoke", "--yes"], ["migrate", "status"]]
    ) {
      const refused = await ops(place, args, { env });
      assertEquals(refused.code, 1);
      assertStringIncludes(
        refused.stderr,
        `in use by another process (pid ${server.pid}, the server at ${server.url}): `,
      );
      assertStringIncludes(refused.stderr, "stop that process first");
    }
  },
);

embeddedRunTest(
  "a refused token names `ops login` (or OPS_TOKEN when that is the one refused)",
  async () => {
    const path = `${place.configDir}/credentials.json`;
    const original = await Deno.readTextFile(path);
    await Deno.writeTextFile(path, original.replace(/"token": "([^"]+)"/, '"token": "$1x"'));
    try {
      const expired = await ops(place, ["modules", "list"], { env });
      assertEquals(expired.code, 1);
      assertEquals(
        expired.stderr,
        `error: Your login to ${server.url} has expired or was revoked (unauthenticated): run ` +
          `\`ops login --server ${server.url} --email ${OWNER}\`\n`,
      );
    } finally {
      await Deno.writeTextFile(path, original);
    }
    const badEnv = await ops(place, ["whoami"], {
      env: { ...env, OPS_SERVER: server.url, OPS_TOKEN: "nope" },
    });
    assertEquals(badEnv.code, 1);
    assertStringIncludes(badEnv.stderr, "refused OPS_TOKEN");
  },
);

embeddedRunTest(
  "ops logout forgets the login; then whoami and a held database name `ops login`",
  async () => {
    const logout = await ops(place, ["logout"], { env });
    assertEquals(logout.stdout, `Logged out of ${server.url} (${OWNER}).\n`);
    const whoami = await ops(place, ["whoami"], { env });
    assertEquals(whoami.code, 1);
    assertStringIncludes(whoami.stderr, "Not logged in: run `ops login");
    const held = await ops(place, ["modules", "list"], { env });
    assertEquals(held.code, 1);
    assertStringIncludes(
      held.stderr,
      `A running server (pid ${server.pid}) holds the embedded database`,
    );
    assertStringIncludes(held.stderr, `run \`ops login --server ${server.url} --email E\``);
    assertEquals(held.stderr.trimEnd().split("\n").length, 1);
  },
);

embeddedRunTest(
  "a server that cannot be reached is one line naming the URL tried and OPS_SERVER",
  async () => {
    server.kill("SIGTERM");
    assertEquals((await server.status).code, 0);
    const url = server.url;
    const unreachable = await ops(place, ["modules", "list"], {
      env: { OPS_SERVER: url, OPS_TOKEN: "t" },
    });
    assertEquals(unreachable.code, 1);
    assertEquals(
      unreachable.stderr,
      `error: Cannot reach the server at ${url} (connection refused): start it, or set OPS_SERVER ` +
        "to its URL (or log in to it with `ops login --server URL`)\n",
    );
    // The server gone, the same command works on the database directly again.
    const direct = await ops(place, ["modules", "list", "--json"]);
    assertEquals(direct.code, 0, direct.stderr);
    assertEquals(JSON.parse(direct.stdout).length, 14);
  },
);

embeddedRunTest("a rate-limited login says when to retry (Retry-After)", async () => {
  const stub = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, () =>
    Response.json(
      { type: "about:blank", title: "Too Many Requests", status: 429, code: "rate_limited" },
      {
        status: 429,
        headers: { "Retry-After": "120", "Content-Type": "application/problem+json" },
      },
    ));
  try {
    const url = `http://127.0.0.1:${stub.addr.port}`;
    const limited = await ops(place, [
      "login",
      "--server",
      url,
      "--email",
      OWNER,
      "--password-stdin",
    ], {
      stdin: "whatever\n",
    });
    assertEquals(limited.code, 1);
    assertMatch(
      limited.stderr,
      new RegExp(`^error: Rate limited by ${url}: retry in 2 minutes \\(at \\d\\d:\\d\\d\\)\\n$`),
    );
  } finally {
    await stub.shutdown();
  }
});
