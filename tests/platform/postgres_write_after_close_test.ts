/**
 * postgres.js 3.4.9 batches small writes behind a `setImmediate` and arms it only while its
 * timer variable is empty; closing a connection cancelled that timer without emptying the
 * variable (and kept the unsent bytes). A connection closed with a write pending could then
 * never send again: each reconnect's startup message stayed in the buffer until the connect
 * timeout, and every query routed to that connection failed with CONNECT_TIMEOUT, for good
 * (the process marked the database unreachable every few seconds after a restart). The
 * project runs postgres.js from `vendor/postgres` with the fix (see its PATCHES.md).
 *
 * Here the socket is closed in the same tick as a query's write, before the batched write
 * runs: the client must then reconnect and answer the next query.
 */
import net from "node:net";
import postgres from "postgres";
import { assert, assertEquals } from "../_helpers/assert.ts";
import { testServerUrl } from "../_helpers/test_db.ts";

Deno.test({
  name: "a connection closed while a write is batched reconnects and answers the next query",
  ignore: !testServerUrl(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const target = new URL(testServerUrl()!);
    const sockets: net.Socket[] = [];
    // `socket` (postgres.js's documented custom socket) is missing from its type definitions.
    const sql = postgres({
      max: 1,
      fetch_types: false,
      connect_timeout: 2,
      onnotice: () => {},
      user: decodeURIComponent(target.username) || "postgres",
      database: target.pathname.slice(1) || "postgres",
      // Our own sockets, so the test can close one at the moment it chooses.
      socket: () =>
        new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect(Number(target.port || 5432), target.hostname);
          socket.once("connect", () => resolve(socket)).once("error", reject);
          sockets.push(socket);
        }),
    } as postgres.Options<Record<string, never>>);
    try {
      assertEquals((await sql.unsafe("SELECT 1 AS n"))[0]?.n, 1);
      // The query's bytes wait for the batched write (a `setImmediate`), and the server's
      // close is handled first, as when its FIN arrives in the same turn of the event loop.
      // postgres.js learns of the close from the socket's "close" event, so the test emits it
      // at that moment, then drops the real socket.
      const lost = sql.unsafe("SELECT 2 AS n").then(() => "answered", (e) => e.code as string);
      for (let i = 0; i < 5; i++) await Promise.resolve(); // the query is written, not sent
      const socket = sockets.at(-1)!;
      socket.emit("close", false);
      socket.destroy();
      assertEquals(await lost, "CONNECTION_CLOSED");

      const started = performance.now();
      const next = await sql.unsafe("SELECT 3 AS n").then((rows) => rows[0]?.n, (e) => e.code);
      assertEquals(next, 3, "the next query on a new connection");
      assert(performance.now() - started < 1_500, "answered without waiting for a timeout");
      assertEquals(sockets.length, 2);
    } finally {
      await sql.end({ timeout: 0 });
    }
  },
});
