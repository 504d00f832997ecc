/**
 * The real server as a process on an embedded data directory (API §16): one process per
 * directory, stale locks taken over, graceful shutdown on SIGTERM/SIGINT, and no
 * acknowledged write lost to `kill -9`.
 */
import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import {
  embeddedRunTest,
  prepareDataDir,
  removeDir,
  runOps,
  startServer,
} from "../_helpers/processes.ts";

const ignore = Deno.build.os === "windows";

async function createLocation(url: string, email: string, name: string): Promise<string> {
  const res = await fetch(`${url}/v1/locations`, {
    method: "POST",
    headers: { "X-Dev-User": email, "Content-Type": "application/json" },
    body: JSON.stringify({ name }),
  });
  const body = await res.json();
  assertEquals(res.status, 201, JSON.stringify(body));
  return body.id;
}

async function locationIds(url: string, email: string): Promise<Set<string>> {
  const res = await fetch(`${url}/v1/locations?limit=100`, { headers: { "X-Dev-User": email } });
  const body = await res.json();
  assertEquals(res.status, 200, JSON.stringify(body));
  return new Set(body.data.map((l: { id: string }) => l.id));
}

embeddedRunTest({
  name: "a second process on the same data directory exits non-zero naming the holder's pid",
  ignore,
  async fn() {
    const { dataDir } = await prepareDataDir();
    const server = await startServer({ dataDir });
    try {
      const second = await runOps(["migrate", "status"], { dataDir });
      assertEquals(second.code, 1);
      assertStringIncludes(second.stderr, `pid ${server.pid}`);
      assertStringIncludes(second.stderr, "stop that process first");

      const otherServer = await startServer({ dataDir }).then(
        () => "started",
        (error: Error) => error.message,
      );
      assertStringIncludes(otherServer, "exited (code 1)");
      assertStringIncludes(otherServer, `pid ${server.pid}`);
    } finally {
      server.kill("SIGTERM");
      await server.status;
      await removeDir(dataDir);
    }
  },
});

embeddedRunTest({
  name: "a stale lock left by a dead process does not block the next start",
  ignore,
  async fn() {
    const { dataDir } = await prepareDataDir();
    try {
      const dead = new Deno.Command("true").spawn();
      await dead.status;
      await Deno.writeTextFile(`${dataDir}/server.lock`, `${dead.pid}\n`);
      const status = await runOps(["migrate", "status", "--json"], { dataDir });
      assertEquals(status.code, 0, status.stderr);
      await Deno.writeTextFile(`${dataDir}/server.lock`, `${dead.pid}\n`);
      const server = await startServer({ dataDir });
      server.kill("SIGTERM");
      assertEquals((await server.status).code, 0);
    } finally {
      await removeDir(dataDir);
    }
  },
});

embeddedRunTest({
  name:
    "SIGTERM lets an in-flight upload finish, answers new requests 503, exits 0 and frees the lock",
  ignore,
  async fn() {
    const { dataDir, adminEmail } = await prepareDataDir();
    try {
      const server = await startServer({ dataDir, env: { DEV_BYPASS: "true" } });
      assert(await Deno.stat(`${dataDir}/server.lock`).then(() => true, () => false));
      // A request whose body is still arriving when the signal comes.
      const encoder = new TextEncoder();
      let sendRest!: () => void;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode('{"name":'));
          sendRest = () => {
            controller.enqueue(encoder.encode('"Slow lane"}'));
            controller.close();
          };
        },
      });
      const inFlight = fetch(`${server.url}/v1/locations`, {
        method: "POST",
        headers: { "X-Dev-User": adminEmail, "Content-Type": "application/json" },
        body,
        duplex: "half",
      } as RequestInit);
      await new Promise((resolve) => setTimeout(resolve, 500));
      server.kill("SIGTERM");
      await new Promise((resolve) => setTimeout(resolve, 500));
      // While it drains, a new request is answered 503 and its connection closed.
      const late = await fetch(`${server.url}/v1/health`);
      assertEquals(late.status, 503);
      assertEquals(late.headers.get("Connection"), "close");
      assertEquals((await late.json()).code, "unavailable");
      sendRest();
      const response = await inFlight;
      assertEquals(response.status, 201);
      assertEquals((await response.json()).name, "Slow lane");
      const status = await server.status;
      assertEquals(status.code, 0);
      assert(server.lines.some((line) => line.includes('"stopped"')));
      assertEquals(await Deno.stat(`${dataDir}/server.lock`).then(() => true, () => false), false);

      // SIGINT behaves the same, and the directory reopens cleanly.
      const again = await startServer({ dataDir, env: { DEV_BYPASS: "true" } });
      const ids = await locationIds(again.url, adminEmail);
      assertEquals(ids.size, 1);
      again.kill("SIGINT");
      assertEquals((await again.status).code, 0);
    } finally {
      await removeDir(dataDir);
    }
  },
});

embeddedRunTest({
  name: "kill -9 loses no acknowledged write and the next start needs no repair",
  ignore,
  async fn() {
    const { dataDir, adminEmail } = await prepareDataDir();
    try {
      const acknowledged: string[] = [];
      for (let round = 0; round < 2; round++) {
        const server = await startServer({ dataDir, env: { DEV_BYPASS: "true" } });
        const ids = await Promise.all(
          Array.from(
            { length: 10 },
            (_, i) => createLocation(server.url, adminEmail, `Round ${round} #${i}`),
          ),
        );
        acknowledged.push(...ids);
        server.kill("SIGKILL");
        assertEquals((await server.status).signal, "SIGKILL");
        // The lock of the killed process is still there; the next start takes it over.
        assert(await Deno.stat(`${dataDir}/server.lock`).then(() => true, () => false));
      }
      const server = await startServer({ dataDir, env: { DEV_BYPASS: "true" } });
      try {
        const stored = await locationIds(server.url, adminEmail);
        assertEquals(acknowledged.filter((id) => !stored.has(id)), []);
        const health = await fetch(`${server.url}/v1/health`);
        assertEquals((await health.json()).status, "ok");
      } finally {
        server.kill("SIGTERM");
        assertEquals((await server.status).code, 0);
      }
    } finally {
      await removeDir(dataDir);
    }
  },
});
