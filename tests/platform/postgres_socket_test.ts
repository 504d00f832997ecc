/**
 * DATABASE_URL may name a Unix-domain socket directory as libpq does (`?host=/dir`): the app
 * then connects over `<dir>/.s.PGSQL.<port>` (app/db/postgres_client.ts).
 */
import { sql } from "kysely";
import { assertEquals } from "../_helpers/assert.ts";
import { openDatabase } from "../../app/db/connect.ts";
import { withTransaction } from "../../app/db/transaction.ts";
import { postgresTarget } from "../../app/db/postgres_client.ts";
import { createTestDatabase, testServerUrl } from "../_helpers/test_db.ts";

Deno.test("postgresTarget() takes a socket directory out of the URL and leaves the rest", () => {
  const cases: Array<[string, { url: string; socketDir?: string }]> = [
    ["postgres://u@db:5432/shop", { url: "postgres://u@db:5432/shop" }],
    ["postgres://u@db/shop?sslmode=require", { url: "postgres://u@db/shop?sslmode=require" }],
    // A host name (not a path) in `host` is not a socket: left to postgres.js as it was.
    ["postgres://u@db/shop?host=other", { url: "postgres://u@db/shop?host=other" }],
    [
      "postgres://u@localhost/shop?host=/var/run/postgresql",
      { url: "postgres://u@localhost/shop", socketDir: "/var/run/postgresql" },
    ],
    [
      "postgresql://u:p@localhost:5433/shop?host=%2Ftmp%2F&sslmode=disable",
      { url: "postgresql://u:p@localhost:5433/shop?sslmode=disable", socketDir: "/tmp" },
    ],
  ];
  for (const [input, expected] of cases) assertEquals(postgresTarget(input), expected, input);
});

/** The server's first socket directory, or undefined when it listens on none we can reach. */
async function socketDirectory(serverUrl: string): Promise<string | undefined> {
  const handle = await openDatabase({ databaseUrl: serverUrl, poolSize: 1 });
  try {
    const { rows } = await sql<{ dirs: string; port: number }>`
      SELECT current_setting('unix_socket_directories') AS dirs,
        current_setting('port')::int AS port`.execute(handle.db);
    const dir = rows[0]!.dirs.split(",")[0]?.trim();
    if (!dir?.startsWith("/")) return undefined;
    const port = rows[0]!.port;
    const found = await Deno.stat(`${dir}/.s.PGSQL.${port}`).catch(() => undefined);
    return found ? dir : undefined;
  } finally {
    await handle.close();
  }
}

Deno.test({
  name: "a DATABASE_URL naming a socket directory serves queries and transactions over it",
  ignore: !testServerUrl(),
  async fn() {
    const database = await createTestDatabase();
    const tcp = new URL(database.url!);
    const dir = await socketDirectory(tcp.toString());
    if (!dir) {
      await database.close();
      console.log("the server has no reachable Unix socket: nothing to check");
      return;
    }
    tcp.searchParams.set("host", dir);
    const handle = await openDatabase({ databaseUrl: tcp.toString(), poolSize: 2 });
    try {
      // A client on a Unix socket has no client address.
      const { rows } = await sql<{ over_socket: boolean }>`
        SELECT inet_client_addr() IS NULL AS over_socket`.execute(handle.db);
      assertEquals(rows[0]!.over_socket, true);
      const committed = await withTransaction(handle.db, async (trx) => {
        await sql`CREATE TABLE socket_probe (n int)`.execute(trx);
        await sql`INSERT INTO socket_probe VALUES (1), (2)`.execute(trx);
        return (await sql<{ n: number }>`SELECT sum(n)::int AS n FROM socket_probe`.execute(trx))
          .rows[0]!.n;
      });
      assertEquals(committed, 3);
    } finally {
      await handle.close();
      await database.close();
    }
  },
});
