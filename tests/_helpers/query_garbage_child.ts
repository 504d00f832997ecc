/**
 * Child process of `tests/platform/query_garbage_test.ts`, run with `--trace-gc-nvp`: sends
 * QUERIES 25-row queries, 10 at a time, through the app's database handle (`openDatabase`:
 * pool, connection slots, reachability watch, postgres.js) to DATABASE_URL's server, then
 * exits. V8 prints one line per garbage collection on stdout; the test reads them.
 */
import { sql } from "kysely";
import { openDatabase } from "../../app/db/connect.ts";

const databaseUrl = Deno.env.get("DATABASE_URL")!;
const queries = Number(Deno.env.get("QUERIES") ?? 10_000);
const { db, close } = await openDatabase({ databaseUrl, poolSize: 4 });
let sent = 0;
await Promise.all(Array.from({ length: 10 }, async () => {
  while (sent++ < queries) {
    // 25 rows of a dozen text columns, about the size of a list page.
    await sql`SELECT g AS id, md5(g::text) AS a, md5((g + 1)::text) AS b, md5((g + 2)::text) AS c,
        md5((g + 3)::text) AS d, md5((g + 4)::text) AS e, md5((g + 5)::text) AS f,
        now() AS at, g * 1.5 AS amount, ARRAY[g, g + 1] AS list
      FROM generate_series(1, 25) AS g`.execute(db);
  }
}));
await close();
