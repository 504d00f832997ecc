/**
 * PostgreSQL going away and coming back (API §1.1, §15): every request is answered within
 * 5 s with 503 `unavailable` and `Retry-After`, `/health` says the database is unreachable,
 * and the same process recovers when the database returns, without a restart. The app talks
 * to its database through a TCP proxy the test stops and starts.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { openDatabase } from "../../app/db/connect.ts";
import { createDeps } from "../../app/create_deps.ts";
import { createMemoryLogger } from "../../app/logger.ts";
import { createApp } from "../../server/app.ts";
import { createTestDatabase, testServerUrl } from "../_helpers/test_db.ts";
import { api, createUserWithPermissions, type TestApp, testConfig } from "../_helpers/test_app.ts";

/** Forwards 127.0.0.1:<port> to the database; `down()` refuses or swallows connections. */
class TcpProxy {
  #listener: Deno.TcpListener | undefined;
  readonly #open = new Set<Deno.Conn>();
  #mode: "forward" | "blackhole" = "forward";
  port = 0;

  constructor(private readonly target: { hostname: string; port: number }) {}

  start(): void {
    this.#mode = "forward";
    this.#listener = Deno.listen({ hostname: "127.0.0.1", port: this.port });
    this.port = (this.#listener.addr as Deno.NetAddr).port;
    this.#accept(this.#listener);
  }

  async #accept(listener: Deno.TcpListener) {
    try {
      for await (const client of listener) this.#handle(client);
    } catch {
      // Listener closed.
    }
  }

  async #handle(client: Deno.Conn) {
    this.#open.add(client);
    if (this.#mode === "blackhole") return; // Accepted, never answered.
    let server: Deno.Conn;
    try {
      server = await Deno.connect(this.target);
    } catch {
      this.#close(client);
      return;
    }
    this.#open.add(server);
    const pipe = (from: Deno.Conn, to: Deno.Conn) =>
      from.readable.pipeTo(to.writable).catch(() => {}).finally(() => {
        this.#close(from);
        this.#close(to);
      });
    await Promise.all([pipe(client, server), pipe(server, client)]);
  }

  #close(conn: Deno.Conn) {
    if (!this.#open.delete(conn)) return;
    try {
      conn.close();
    } catch {
      // Already closed by its pipe.
    }
  }

  /** Cuts every connection; then refuses new ones, or (blackhole) accepts and ignores them. */
  down(mode: "refuse" | "blackhole"): void {
    for (const conn of [...this.#open]) this.#close(conn);
    if (mode === "refuse") {
      this.#listener?.close();
      this.#listener = undefined;
    } else {
      this.#mode = "blackhole";
    }
  }

  up(): void {
    for (const conn of [...this.#open]) this.#close(conn);
    if (this.#listener) this.#mode = "forward";
    else this.start();
  }

  stop(): void {
    this.down("refuse");
  }
}

/**
 * A new test database reached through a started proxy, and a pool of `poolSize` over the
 * proxy; `close()` stops the proxy and closes the pool and the database.
 */
async function behindProxy(poolSize: number) {
  const database = await createTestDatabase();
  const target = new URL(database.url!);
  const proxy = new TcpProxy({ hostname: target.hostname, port: Number(target.port || 5432) });
  proxy.start();
  const viaProxy = new URL(database.url!);
  viaProxy.port = String(proxy.port);
  const handle = await openDatabase({ databaseUrl: viaProxy.toString(), poolSize });
  return {
    proxy,
    handle,
    async close() {
      proxy.stop();
      await handle.close().catch(() => {});
      await database.close();
    },
  };
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

Deno.test({
  name: "while PostgreSQL is unreachable requests get 503 within 5 s, and the app recovers",
  ignore: !testServerUrl(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const { proxy, handle, close } = await behindProxy(4);
    const deps = createDeps({
      config: testConfig(),
      db: handle.db,
      dbKind: "postgres",
      logger: createMemoryLogger(),
    });
    const app = createApp(deps);
    try {
      const user = await createUserWithPermissions({ deps } as TestApp, ["settings.view"]);
      assertEquals((await api(app, "GET", "/v1/health")).status, 200);
      assertEquals((await api(app, "GET", "/v1/locations", { token: user.token })).status, 200);

      for (const mode of ["refuse", "blackhole"] as const) {
        proxy.down(mode);
        const health = await timed(() => api(app, "GET", "/v1/health"));
        assertEquals(health.result.status, 503, `${mode}: ${health.result.text}`);
        assertEquals(health.result.body, { status: "unavailable", database: "unreachable" });
        assertEquals(health.result.headers.get("Retry-After"), "5");
        assert(health.ms < 5000, `${mode}: /health took ${health.ms} ms`);

        const list = await timed(() => api(app, "GET", "/v1/locations", { token: user.token }));
        assertEquals(list.result.status, 503, `${mode}: ${list.result.text}`);
        assertEquals(list.result.body.code, "unavailable");
        assertEquals(list.result.headers.get("Content-Type"), "application/problem+json");
        assert(list.result.headers.get("Retry-After"));
        assert(list.ms < 5000, `${mode}: the list took ${list.ms} ms`);

        proxy.up();
        const back = await api(app, "GET", "/v1/health");
        assertEquals(back.status, 200, `${mode}: after recovery ${back.text}`);
        assertEquals(
          (await api(app, "GET", "/v1/locations", { token: user.token })).status,
          200,
        );
      }
    } finally {
      await close();
    }
  },
});

Deno.test({
  name:
    "a transaction whose connection drops fails with a connection error and the process survives",
  ignore: !testServerUrl(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const { proxy, handle, close } = await behindProxy(2);
    try {
      const failure = await handle.db.transaction().execute(async (trx) => {
        await trx.selectFrom("modules").select("slug").execute();
        proxy.down("refuse");
        await new Promise((resolve) => setTimeout(resolve, 100));
        await trx.selectFrom("modules").select("slug").execute();
        return "committed";
      }).catch((error: { code?: string }) => error.code);
      assertEquals(failure, "CONNECTION_CLOSED");
      // Give a crash from a stray write on the dead connection its chance to happen.
      await new Promise((resolve) => setTimeout(resolve, 200));
      proxy.up();
      const rows = await handle.db.transaction().execute((trx) =>
        trx.selectFrom("modules").select("slug").execute()
      );
      assertEquals(rows.length, 14);
    } finally {
      await close();
    }
  },
});
