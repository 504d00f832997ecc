/**
 * A transaction the driver gives up on (the database was found unreachable, app/db/
 * reachability.ts) must not keep its connection when the server answers after all: the
 * dialect ends it then (app/db/postgres_dialect.ts). Left pending, the connection sat idle in
 * a transaction that nobody would ever finish, one pool connection fewer until the server's
 * idle_in_transaction_session_timeout (60 s). Two ways in: given up before BEGIN answered (the
 * connection was still being opened), and given up mid-query (the probe got no answer in time).
 *
 * A gated TCP proxy in front of the real server holds a connection's opening for as long as
 * the test wants; a fake probe says whether the server can be reached.
 */
import { Kysely, sql } from "kysely";
import postgres from "postgres";
import { assertEquals, assertRejects } from "../_helpers/assert.ts";
import { DATABASE_UNREACHABLE, errorCode } from "../../app/db/db_errors.ts";
import { PostgresDialect } from "../../app/db/postgres_dialect.ts";
import { type Probe, Reachability } from "../../app/db/reachability.ts";
import { createTestDatabase, testServerUrl } from "../_helpers/test_db.ts";

/** Accepts connections at once but forwards nothing to `target` until `open()`. */
class GatedProxy {
  readonly #listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  readonly #links: Deno.Conn[] = [];
  #open!: () => void;
  readonly #opened = new Promise<void>((resolve) => (this.#open = resolve));

  constructor(readonly target: { hostname: string; port: number }) {
    void this.#accept();
  }

  get port(): number {
    return (this.#listener.addr as Deno.NetAddr).port;
  }

  open(): void {
    this.#open();
  }

  async #accept(): Promise<void> {
    for await (const client of this.#listener) {
      this.#links.push(client);
      void this.#opened.then(async () => {
        const server = await Deno.connect(this.target);
        this.#links.push(server);
        await Promise.all([
          client.readable.pipeTo(server.writable).catch(() => {}),
          server.readable.pipeTo(client.writable).catch(() => {}),
        ]);
      });
    }
  }

  close(): void {
    this.#listener.close();
    for (const link of this.#links) {
      try {
        link.close();
      } catch { /* already closed */ }
    }
  }
}

/** Unreachable until told otherwise. */
class SwitchProbe implements Probe {
  reachable = false;
  uptimeMs(): Promise<number> {
    return this.reachable
      ? Promise.resolve(3_600_000)
      : Promise.reject(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }));
  }
  reset(): Promise<void> {
    return Promise.resolve();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A Kysely handle over one postgres.js connection through `proxy`, watched by `probe`. */
function openThrough(proxy: GatedProxy, databaseUrl: string, probe: SwitchProbe) {
  const url = new URL(databaseUrl);
  url.port = String(proxy.port);
  const reachability = new Reachability(probe, { checkAfterMs: 100, probeTimeoutMs: 100 });
  const pool = postgres(url.toString(), { max: 1, onnotice: () => {} });
  return new Kysely<unknown>({
    dialect: new PostgresDialect({ postgres: pool, maxConnections: 1, reachability }),
  });
}

function proxyTo(databaseUrl: string): GatedProxy {
  const url = new URL(databaseUrl);
  return new GatedProxy({ hostname: url.hostname, port: Number(url.port || 5432) });
}

/** The pool's only connection serves a query, and no session is left in a transaction. */
async function assertConnectionBack(db: Kysely<unknown>): Promise<void> {
  const answer = await Promise.race([
    sql<{ n: number }>`SELECT 1 AS n`.execute(db).then((r) => r.rows[0]!.n),
    sleep(2_000).then(() => "still waiting after 2 s"),
  ]);
  assertEquals(answer, 1);
  const open = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND state LIKE 'idle in transaction%'`.execute(db);
  assertEquals(open.rows[0]!.n, 0, "no session left idle in a transaction");
}

/** Runs `fn` on a fresh database behind a closed proxy, with a probe saying unreachable. */
async function withProxiedDatabase(
  fn: (db: Kysely<unknown>, proxy: GatedProxy, probe: SwitchProbe) => Promise<void>,
): Promise<void> {
  const database = await createTestDatabase();
  const proxy = proxyTo(database.url!);
  const probe = new SwitchProbe();
  const db = openThrough(proxy, database.url!, probe);
  try {
    await fn(db, proxy, probe);
  } finally {
    await Promise.race([db.destroy(), sleep(1_000)]);
    proxy.close();
    await database.close();
  }
}

const withServer = { ignore: !testServerUrl(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "a transaction given up before BEGIN answered gives its connection back when it does",
  ...withServer,
  fn: () =>
    withProxiedDatabase(async (db, proxy, probe) => {
      // BEGIN waits on a connection being opened; the probe finds the server unreachable.
      const given = await assertRejects(() =>
        db.transaction().execute((trx) => sql`SELECT 1`.execute(trx))
      );
      assertEquals(errorCode(given), DATABASE_UNREACHABLE);

      // The server answers after all: the connection opens and BEGIN runs on it.
      probe.reachable = true;
      proxy.open();
      await sleep(300);
      await assertConnectionBack(db);
    }),
});

Deno.test({
  name: "a transaction given up mid-query gives its connection back when the query answers",
  ...withServer,
  fn: () =>
    withProxiedDatabase(async (db, proxy, probe) => {
      proxy.open();
      probe.reachable = true;
      await sql`SELECT 1`.execute(db); // The connection is open.
      // The probe stops answering while the transaction waits on a slow query.
      probe.reachable = false;
      const given = await assertRejects(() =>
        db.transaction().execute((trx) => sql`SELECT pg_sleep(0.6)`.execute(trx))
      );
      assertEquals(errorCode(given), DATABASE_UNREACHABLE);

      // The query answers: the server was there all along.
      await sleep(800);
      probe.reachable = true;
      await assertConnectionBack(db);
    }),
});
