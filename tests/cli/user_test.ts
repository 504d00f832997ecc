/**
 * `ops user …` and `ops login` on the database directly: the same use cases as the HTTP routes
 * (in-process), and the commands as child processes (on PostgreSQL with TEST_DATABASE_URL,
 * else on a prepared embedded data directory).
 */
import { assert, assertEquals, assertMatch, assertRejects } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import { removeDir } from "../_helpers/processes.ts";
import { createUserDirect, resetLinkDirect } from "../../cli/commands/user.ts";
import { loginCommand } from "../../cli/commands/login.ts";
import { currentSession } from "../../cli/_credentials.ts";
import { UsageError } from "../../cli/_errors.ts";
import { ConflictError } from "../../domain/errors.ts";
import { openRegistration, PASSWORD, uniqueEmail } from "../auth/_auth_helpers.ts";
import { ops, type OpsPlace, preparedPlace } from "./_ops.ts";

let t: TestApp;

withTestApp((app) => {
  t = app;
}, { env: { AUTH_RATE_LIMIT: "off" } });

Deno.test("createUserDirect() takes roles by slug or name and gives a working link, audited as ops", async () => {
  const email = uniqueEmail("cli");
  const result = await createUserDirect(t.deps, {
    email,
    first: "Cli",
    last: "User",
    role: ["viewer", "Technician"],
  });
  assertEquals(result.user.roles.map((r) => r.slug).sort(), ["technician", "viewer"]);
  assert(result.resetLink);
  const token = new URL(result.resetLink.url).searchParams.get("token");
  const reset = await api(t.app, "POST", "/v1/auth/reset-password", {
    body: { token, newPassword: "from the cli link" },
  });
  assertEquals(reset.status, 204);
  await assertRejects(
    () => createUserDirect(t.deps, { email, first: "A", last: "B" }),
    ConflictError,
  );
  const unknown = await assertRejects(
    () => createUserDirect(t.deps, { email: uniqueEmail(), first: "A", last: "B", role: ["nope"] }),
    UsageError,
  );
  assertMatch(unknown.message, /^Unknown role "nope": the roles are admin, instructor, manager, /);
  await assertRejects(
    () => createUserDirect(t.deps, { email: "not-an-email", first: "A", last: "B" }),
    UsageError,
    "--email",
  );
  const audit = await t.deps.db.selectFrom("audit_log").selectAll()
    .where("entity_id", "=", result.user.id).where("action", "=", "user.created").execute();
  assertEquals(audit[0]?.actor_email, "system (ops)");
  const link = await resetLinkDirect(t.deps, email.toUpperCase());
  assertMatch(link.url, /^http:\/\/shop\.test\/reset-password\?token=/);
});

Deno.test("loginCommand() logs in over HTTP and stores the token with mode 0600", async () => {
  const email = uniqueEmail("login");
  await openRegistration(t);
  await api(t.app, "POST", "/v1/auth/register", {
    body: { email, password: PASSWORD, firstName: "L", lastName: "I" },
  });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, t.app.fetch);
  const dir = await Deno.makeTempDir({ prefix: "shop-ops-config-" });
  const previous = Deno.env.get("OPS_CONFIG_DIR");
  Deno.env.set("OPS_CONFIG_DIR", dir);
  try {
    const url = `http://127.0.0.1:${server.addr.port}`;
    const result = await loginCommand(
      { server: `${url}/`, email },
      () => Promise.resolve(PASSWORD),
    );
    assertEquals(result.path, `${dir}/credentials.json`);
    assertEquals((await Deno.stat(result.path)).mode! & 0o777, 0o600);
    const session = await currentSession();
    assertEquals([session.server, session.source, session.email], [url, "stored", email]);
    const me = await api(t.app, "GET", "/v1/auth/me", { token: session.token });
    assertEquals(me.body.email, email);
    await assertRejects(
      () => loginCommand({ server: url, email }, () => Promise.resolve("wrong password")),
      Error,
      "invalid_credentials",
    );
  } finally {
    if (previous === undefined) Deno.env.delete("OPS_CONFIG_DIR");
    else Deno.env.set("OPS_CONFIG_DIR", previous);
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("`ops user create --password-stdin` and `ops user reset-link` work as processes", async () => {
  let place: OpsPlace;
  let env: Record<string, string> = {};
  if (t.database.url) {
    place = { dataDir: await Deno.makeTempDir({ prefix: "shop-cli-" }), configDir: "/nonexistent" };
    env = { DATABASE_URL: t.database.url };
  } else {
    place = await preparedPlace();
  }
  try {
    const email = uniqueEmail("proc");
    const created = await ops(place, [
      "user",
      "create",
      "--email",
      email,
      "--first",
      "Pro",
      "--last",
      "Cess",
      "--role",
      "admin",
      "--password-stdin",
      "--json",
    ], { env, stdin: `${PASSWORD}\n` });
    assertEquals(created.code, 0, created.stderr);
    const body = JSON.parse(created.stdout);
    assertEquals(body.user.email, email);
    assertEquals(body.user.roles.map((r: { slug: string }) => r.slug), ["admin"]);
    assertEquals(body.resetLink, undefined);
    if (t.database.url) {
      const login = await api(t.app, "POST", "/v1/auth/login", {
        body: { email, password: PASSWORD },
      });
      assertEquals(login.status, 200, "the password read from stdin works");
    }
    const link = await ops(place, ["user", "reset-link", "--email", email, "--format", "csv"], {
      env,
    });
    assertEquals(link.code, 0, link.stderr);
    assertMatch(
      link.stdout,
      /^email,url,expiresAt\r\n\S+,http\S+\/reset-password\?token=\S+,\d{4}-/,
    );
    const unknown = await ops(place, ["user", "reset-link", "--email", "nobody@example.test"], {
      env,
    });
    assertEquals(unknown.code, 1);
    const badEmail = await ops(place, [
      "user",
      "create",
      "--email",
      "x",
      "--first",
      "A",
      "--last",
      "B",
    ], {
      env,
    });
    assertEquals(badEmail.code, 2);
    const dup = await ops(place, [
      "user",
      "create",
      "--email",
      email,
      "--first",
      "A",
      "--last",
      "B",
    ], {
      env,
    });
    assertEquals(dup.code, 1);
    assertMatch(dup.stderr, /^error: A user with email "\S+" already exists\n$/);
  } finally {
    await removeDir(place.dataDir);
  }
});
