/**
 * Start-up and development comfort (API §16, §2): an unreachable PostgreSQL is one line and
 * exit 1; the development signing secret survives restarts; DEV_BYPASS and "no user yet" are
 * said at start-up; logs read as lines on a terminal; `GET /` and `/docs` point the way in.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_helpers/assert.ts";
import { childEnv, removeDir, startServer } from "../_helpers/processes.ts";
import { createTestApp } from "../_helpers/test_app.ts";
import { loadConfig } from "../../app/config.ts";
import { devSecretPath, redactDatabaseUrl } from "../../app/bootstrap.ts";
import { createLogger, resolveLogFormat } from "../../app/logger.ts";
import { preparedPlace } from "../cli/_ops.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const ignore = Deno.build.os === "windows";

/** A TCP port on which nothing listens (bound, then closed again). */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Runs `main.ts` to its exit (it is expected not to get far) and collects its output. */
async function runMain(
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const dataDir = await Deno.makeTempDir({ prefix: "shop-startup-" });
  const started = performance.now();
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "main.ts"],
      cwd: ROOT,
      env: childEnv(dataDir, { PORT: "0", ...env }),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    const output = await child.output();
    clearTimeout(timer);
    const decoder = new TextDecoder();
    return {
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
      ms: performance.now() - started,
    };
  } finally {
    await removeDir(dataDir);
  }
}

function logEntries(lines: string[]): Array<Record<string, unknown>> {
  return lines.flatMap((line) => {
    try {
      return [JSON.parse(line)];
    } catch {
      return [];
    }
  });
}

Deno.test({
  name:
    "an unreachable PostgreSQL at start-up exits 1 with one line: the URL without password, the cause, the fix",
  ignore,
  async fn() {
    const port = closedPort();
    const result = await runMain({
      DATABASE_URL: `postgres://shop:s3cret-pw@127.0.0.1:${port}/shop`,
    });
    assertEquals(result.code, 1, result.stderr);
    assert(result.ms < 20_000, `took ${result.ms} ms`);
    const lines = result.stderr.trim().split("\n");
    assertEquals(lines.length, 1, result.stderr);
    const line = lines[0]!;
    assertStringIncludes(line, `postgres://shop@127.0.0.1:${port}/shop`);
    assert(!result.stderr.includes("s3cret-pw") && !result.stdout.includes("s3cret-pw"));
    assertMatch(line, /ECONNREFUSED|refused/);
    assertStringIncludes(line, "start PostgreSQL");
    assertStringIncludes(line, "DATABASE_URL");
    assert(!/\bat .*\.ts:\d+/.test(result.stderr), "no stack trace");
  },
});

Deno.test({
  name: "a PostgreSQL database that does not exist is one line naming createdb",
  ignore: ignore || !Deno.env.get("TEST_DATABASE_URL"),
  async fn() {
    const url = new URL(Deno.env.get("TEST_DATABASE_URL")!);
    url.pathname = "/shop_missing_startup_test";
    const result = await runMain({ DATABASE_URL: url.href });
    assertEquals(result.code, 1, result.stderr);
    const lines = result.stderr.trim().split("\n");
    assertEquals(lines.length, 1, result.stderr);
    assertStringIncludes(lines[0]!, "does not exist");
    assertStringIncludes(lines[0]!, "createdb shop_missing_startup_test");
  },
});

Deno.test("database URLs are shown without their password", () => {
  assertEquals(
    redactDatabaseUrl("postgres://app:pa%40ss@db.internal:5433/shop?sslmode=require&password=x"),
    "postgres://app@db.internal:5433/shop?sslmode=require",
  );
  assertEquals(redactDatabaseUrl("postgresql://app@host/db"), "postgresql://app@host/db");
});

Deno.test({
  name:
    "development without JWT_SECRET keeps its secret in DATA_DIR (0600): a token survives a restart; the first start says how to create the first user, DEV_BYPASS is warned about",
  ignore,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "shop-secret-" });
    const env = { JWT_SECRET: "", AUTH_RATE_LIMIT: "off" };
    try {
      const first = await startServer({ dataDir, env });
      let token: string;
      try {
        const entries = logEntries(first.lines);
        const listening = entries.find((e) => e["msg"] === "listening")!;
        assertEquals(listening["docs"], `${first.url}/docs`);
        // The migrations of a new database: counted, not listed.
        const migrated = entries.find((e) => e["msg"] === "migrations applied")!;
        assert(Number(migrated["count"]) > 20, JSON.stringify(migrated));
        assertMatch(String(migrated["latest"]), /^\d{8}_\d{6}_\w+$/);
        assertEquals(migrated["migrations"], undefined);
        assert(
          entries.some((e) => e["level"] === "warn" && String(e["msg"]).includes("JWT_SECRET")),
          "no warning about JWT_SECRET",
        );
        // The hint follows the listening line; wait for it a moment.
        let hint: Record<string, unknown> | undefined;
        for (let i = 0; i < 50 && !hint; i++) {
          hint = logEntries(first.lines).find((e) => String(e["msg"]).startsWith("No user yet"));
          if (!hint) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        assert(hint, "no first-user hint");
        assertEquals(hint["docs"], `${first.url}/docs`);
        assertStringIncludes(String(hint["register"]), "/v1/auth/register");
        // A new shop is not set up yet: the next hint names `ops setup`.
        const setup = logEntries(first.lines).find((e) =>
          String(e["msg"]).startsWith("The shop is not set up yet")
        );
        assert(setup, "no setup hint");
        assertStringIncludes(String(setup["msg"]), "(the store's name, a location)");
        assertEquals(setup["setup"], "deno task ops setup");
        assert(!entries.some((e) => String(e["msg"]).includes("DEV_BYPASS")));

        const credentials = { email: "owner@example.test", password: "owner password 1" };
        const register = await fetch(`${first.url}/v1/auth/register`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ ...credentials, firstName: "Olive", lastName: "Owner" }),
        });
        const registered = await register.json();
        assertEquals(register.status, 201, JSON.stringify(registered));
        assertEquals(registered.user.roles.map((r: { slug: string }) => r.slug), ["admin"]);
        const login = await fetch(`${first.url}/v1/auth/login`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(credentials),
        });
        token = (await login.json()).accessToken;
        assertEquals(login.status, 200);
        // Named and given a location (as `ops setup` does), the shop is set up: no hint next time.
        for (
          const [method, path, body] of [
            ["PATCH", "/v1/store", { name: "Harmony Music" }],
            ["POST", "/v1/locations", { name: "Main Street" }],
          ] as const
        ) {
          const response = await fetch(`${first.url}${path}`, {
            method,
            headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
            body: JSON.stringify(body),
          });
          assert(response.ok, `${method} ${path}: ${response.status} ${await response.text()}`);
        }
      } finally {
        first.kill("SIGTERM");
        await first.status;
      }

      const file = devSecretPath(dataDir);
      const stat = await Deno.stat(file);
      assertEquals((stat.mode ?? 0) & 0o777, 0o600);
      const secret = (await Deno.readTextFile(file)).trim();
      assert(new TextEncoder().encode(secret).length >= 32);

      const second = await startServer({ dataDir, env: { ...env, DEV_BYPASS: "true" } });
      try {
        const me = await fetch(`${second.url}/v1/auth/me`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        const body = await me.json();
        assertEquals(me.status, 200, JSON.stringify(body));
        assertEquals(body.email, "owner@example.test");
        // Hints come before any request's log line: once that is in, so would they be.
        for (let i = 0; i < 50 && !second.lines.some((l) => l.includes('"/v1/auth/me"')); i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const entries = logEntries(second.lines);
        assert(
          entries.some((e) => e["level"] === "warn" && String(e["msg"]).includes("DEV_BYPASS")),
          "no DEV_BYPASS warning",
        );
        assert(!entries.some((e) => String(e["msg"]).startsWith("No user yet")));
        assert(!entries.some((e) => String(e["msg"]).startsWith("The shop is not set up")));
        assert(![...first.lines, ...second.lines].some((l) => l.includes(secret)));
      } finally {
        second.kill("SIGTERM");
        await second.status;
      }
    } finally {
      await removeDir(dataDir);
    }
  },
});

Deno.test({
  name: "LOG_FORMAT=text writes readable lines; the listening line points at /docs",
  ignore,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "shop-logfmt-" });
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "main.ts"],
      cwd: ROOT,
      env: childEnv(dataDir, {
        PORT: "0",
        LOG_FORMAT: "text",
        MIGRATE_ON_START: "false",
      }),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    let text = "";
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    try {
      while (!/listening .*\n/.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
    } finally {
      child.kill("SIGTERM");
      await reader.cancel().catch(() => {});
      await child.status;
      await removeDir(dataDir);
    }
    const line = text.split("\n").find((l) => l.includes("listening"));
    assert(line, text);
    assertMatch(
      line,
      /^\d\d:\d\d:\d\d\.\d{3} INFO +listening url=http:\/\/\S+ docs=http:\S+\/docs /,
    );
    assert(!text.split("\n").some((l) => l.startsWith("{")), "a JSON line in text mode");
  },
});

Deno.test({
  name:
    "a port in use is one line naming the port and its holder, exit 1, before any data directory is made",
  ignore,
  async fn() {
    const holder = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const { port } = holder.addr as Deno.NetAddr;
    const parent = await Deno.makeTempDir({ prefix: "shop-port-" });
    try {
      const dataDir = `${parent}/data`;
      const result = await runMain({ PORT: String(port), DATA_DIR: dataDir });
      assertEquals(result.code, 1, result.stderr);
      assertEquals(result.stderr.trim().split("\n").length, 1, result.stderr);
      assertStringIncludes(
        result.stderr,
        `Cannot listen on 127.0.0.1:${port}: the port is already in use by pid ${Deno.pid} (`,
      );
      assertStringIncludes(result.stderr, "set PORT to a free port (PORT=0 picks one)");
      assert(!/\bat .*\.ts:\d+/.test(result.stderr), "no stack trace");
      assertEquals(await Deno.stat(dataDir).catch(() => undefined), undefined, "nothing created");
    } finally {
      holder.close();
      await removeDir(parent);
    }
  },
});

Deno.test({
  name: "in production a missing SMTP_URL is a warning at start-up",
  ignore,
  async fn() {
    const { dataDir } = await preparedPlace();
    const server = await startServer({ dataDir, env: { APP_ENV: "production" } });
    try {
      let warning: Record<string, unknown> | undefined;
      for (let i = 0; i < 100 && !warning; i++) {
        warning = logEntries(server.lines).find((e) => String(e["msg"]).startsWith("SMTP_URL"));
        if (!warning) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assertEquals(warning?.["level"], "warn", JSON.stringify(warning));
      assertStringIncludes(String(warning?.["msg"]), "no email goes out");
    } finally {
      server.kill("SIGTERM");
      await server.status;
      await removeDir(dataDir);
    }
  },
});

Deno.test("log lines: JSON off a terminal or with LOG_FORMAT=json, readable text on a terminal", () => {
  assertEquals(resolveLogFormat("auto", true), "text");
  assertEquals(resolveLogFormat("auto", false), "json");
  assertEquals(resolveLogFormat("json", true), "json");
  assertEquals(resolveLogFormat("text", false), "text");
  assertEquals(loadConfig({}).logFormat, "auto");
  assertEquals(loadConfig({ LOG_FORMAT: "json" }).logFormat, "json");

  const at = new Date(2026, 10, 21, 15, 4, 5, 123);
  const clock = { now: () => at };
  const lines: string[] = [];
  const text = createLogger("info", (l) => lines.push(l), clock, { format: "text" });
  text.info("request", {
    requestId: "r1",
    method: "GET",
    path: "/v1/health",
    status: 200,
    durationMs: 1.5,
    userId: undefined,
  });
  text.warn("email given up", { to: "a@b.test", error: "550 mailbox unavailable" });
  text.error("unhandled error", { stack: "Error: boom\n    at f (x.ts:1:1)" });
  text.debug("not shown");
  assertEquals(lines, [
    "15:04:05.123 INFO  GET /v1/health 200 1.5ms requestId=r1",
    '15:04:05.123 WARN  email given up to=a@b.test error="550 mailbox unavailable"',
    "15:04:05.123 ERROR unhandled error\n  stack:\n    Error: boom\n        at f (x.ts:1:1)",
  ]);

  const json: string[] = [];
  createLogger("info", (l) => json.push(l), clock).info("listening", { url: "http://x" });
  assertEquals(JSON.parse(json[0]!), {
    time: at.toISOString(),
    level: "info",
    msg: "listening",
    url: "http://x",
  });
});

Deno.test("an unknown LOG_FORMAT stops start-up naming it", () => {
  let message = "";
  try {
    loadConfig({ LOG_FORMAT: "xml" });
  } catch (error) {
    message = (error as Error).message;
  }
  assertStringIncludes(message, "LOG_FORMAT");
});

Deno.test("GET / points at the reference: a browser is sent to /docs, other clients get JSON links", async () => {
  const t = await createTestApp();
  try {
    const browser = await t.app.request("/", { headers: { Accept: "text/html,*/*" } });
    assertEquals(browser.status, 302);
    assertEquals(browser.headers.get("Location"), "/docs");

    const client = await t.app.request("/");
    assertEquals(client.status, 200);
    const body = await client.json();
    assertEquals(body.docs, "/docs");
    assertEquals(body.openapi, "/v1/openapi.json");
    assertEquals(body.health, "/v1/health");

    const spec = await (await t.app.request("/v1/openapi.json")).json();
    const tags = spec.tags.map((tag: { name: string }) => tag.name);
    assertEquals(tags[0], "Auth", "the reference opens with authentication");
    assertEquals(tags.slice(1), [...tags.slice(1)].sort());
  } finally {
    await t.close();
  }
});
