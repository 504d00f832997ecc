/** `ops user …` and `ops login`: the same use cases as the HTTP routes. */
import { assert, assertEquals, assertMatch, assertRejects } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import { createUserCommand, resetLinkCommand } from "../../cli/commands/user.ts";
import { loginCommand } from "../../cli/commands/login.ts";
import { serverSession } from "../../cli/_credentials.ts";
import { BadInputError, ConflictError, ValidationError } from "../../domain/errors.ts";
import { PASSWORD, uniqueEmail } from "./_auth_helpers.ts";

let t: TestApp;

withTestApp((app) => {
  t = app;
}, { env: { AUTH_RATE_LIMIT: "off" } });

Deno.test("createUserCommand() creates a user with roles by slug and a reset link, audited as ops", async () => {
  const email = uniqueEmail("cli");
  const result = await createUserCommand(t.deps, {
    email,
    first: "Cli",
    last: "User",
    role: ["viewer", "technician"],
  });
  assertEquals(result.user.roles.map((r) => r.slug).sort(), ["technician", "viewer"]);
  assert(result.resetLink);
  const token = new URL(result.resetLink.url).searchParams.get("token");
  const reset = await api(t.app, "POST", "/v1/auth/reset-password", {
    body: { token, newPassword: "from the cli link" },
  });
  assertEquals(reset.status, 204);
  await assertRejects(
    () => createUserCommand(t.deps, { email, first: "A", last: "B" }),
    ConflictError,
  );
  await assertRejects(
    () =>
      createUserCommand(t.deps, { email: uniqueEmail(), first: "A", last: "B", role: ["nope"] }),
    BadInputError,
  );
  await assertRejects(
    () => createUserCommand(t.deps, { email: "not-an-email", first: "A", last: "B" }),
    ValidationError,
  );
  const audit = await t.deps.db.selectFrom("audit_log").selectAll()
    .where("entity_id", "=", result.user.id).where("action", "=", "user.created").execute();
  assertEquals(audit[0]?.actor_email, "system (ops)");
  const link = await resetLinkCommand(t.deps, email.toUpperCase());
  assertMatch(link.url, /^http:\/\/shop\.test\/reset-password\?token=/);
});

async function ops(args: string[], env: Record<string, string>, stdin?: string) {
  const command = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "cli/main.ts", ...args],
    cwd: new URL("../../", import.meta.url).pathname,
    env: { LOG_LEVEL: "error", BCRYPT_COST: "4", ...env },
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const child = command.spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const output = await child.output();
  return {
    code: output.code,
    stdout: new TextDecoder().decode(output.stdout),
    stderr: new TextDecoder().decode(output.stderr),
  };
}

Deno.test("`ops user create --password-stdin` and `ops user reset-link` work as processes", async () => {
  let env: Record<string, string>;
  let dataDir: string | undefined;
  if (t.database.url) {
    env = { DATABASE_URL: t.database.url };
  } else {
    dataDir = await Deno.makeTempDir({ prefix: "shop-cli-" });
    env = { DATA_DIR: dataDir };
    const migrated = await ops(["migrate", "up"], env);
    assertEquals(migrated.code, 0, migrated.stderr);
    const seeded = await ops(["seed"], env);
    assertEquals(seeded.code, 0, seeded.stderr);
  }
  try {
    const email = uniqueEmail("proc");
    const created = await ops(
      [
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
      ],
      env,
      `${PASSWORD}\n`,
    );
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
    const link = await ops(["user", "reset-link", "--email", email], env);
    assertEquals(link.code, 0, link.stderr);
    assertMatch(link.stdout, /reset-password\?token=/);
    const unknown = await ops(["user", "reset-link", "--email", "nobody@example.test"], env);
    assertEquals(unknown.code, 1);
    const usage = await ops(["user", "create", "--first", "A", "--last", "B"], env);
    assertEquals(usage.code, 2);
    const dup = await ops(["user", "create", "--email", email, "--first", "A", "--last", "B"], env);
    assertEquals(dup.code, 1);
  } finally {
    if (dataDir) await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});

Deno.test("loginCommand() logs in over HTTP and stores the token with mode 0600", async () => {
  const email = uniqueEmail("login");
  await api(t.app, "POST", "/v1/auth/register", {
    body: { email, password: PASSWORD, firstName: "L", lastName: "I" },
  });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, t.app.fetch);
  const dir = await Deno.makeTempDir({ prefix: "shop-ops-config-" });
  const previous = Deno.env.get("OPS_CONFIG_DIR");
  Deno.env.set("OPS_CONFIG_DIR", dir);
  try {
    const url = `http://127.0.0.1:${server.addr.port}`;
    const result = await loginCommand({ server: url, email }, () => Promise.resolve(PASSWORD));
    assertEquals(result.path, `${dir}/credentials.json`);
    assertEquals((await Deno.stat(result.path)).mode! & 0o777, 0o600);
    const session = await serverSession();
    assertEquals(session.server, url);
    const me = await api(t.app, "GET", "/v1/auth/me", { token: session.token });
    assertEquals(me.body.email, email);
    await assertRejects(() =>
      loginCommand({ server: url, email }, () => Promise.resolve("wrong password"))
    );
  } finally {
    if (previous === undefined) Deno.env.delete("OPS_CONFIG_DIR");
    else Deno.env.set("OPS_CONFIG_DIR", previous);
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
