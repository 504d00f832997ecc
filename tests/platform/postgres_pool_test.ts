/**
 * The PostgreSQL pool queues queries for a free connection (app/db/connection_slots.ts)
 * instead of letting postgres.js pipeline them onto busy ones, and runs page queries on
 * connections that plan every run for its values (app/db/connect.ts).
 */
import { sql } from "kysely";
import { assert, assertEquals } from "../_helpers/assert.ts";
import { openDatabase } from "../../app/db/connect.ts";
import { paginate } from "../../app/db/pagination.ts";
import type { Db } from "../../app/db/database.ts";
import { createTestDatabase, testServerUrl } from "../_helpers/test_db.ts";

Deno.test({
  name: "a slow query holds up no query behind it while another connection is free",
  ignore: !testServerUrl(),
  async fn() {
    const database = await createTestDatabase();
    const handle = await openDatabase({ databaseUrl: database.url!, poolSize: 2 });
    try {
      // Both connections open and idle.
      await Promise.all([sql`SELECT 1`.execute(handle.db), sql`SELECT 1`.execute(handle.db)]);
      const slow = sql`SELECT pg_sleep(1.5)`.execute(handle.db);
      const started = performance.now();
      const quick = await Promise.all(
        Array.from({ length: 6 }, async () => {
          await sql`SELECT 1`.execute(handle.db);
          return performance.now() - started;
        }),
      );
      // Pipelined, some of them would have waited behind pg_sleep for 1.5 s.
      assert(Math.max(...quick) < 1_000, `slowest quick query: ${Math.max(...quick)} ms`);
      await slow;
    } finally {
      await handle.close();
      await database.close();
    }
  },
});

Deno.test({
  name: "page queries are planned for their values on every run, other statements may keep a plan",
  ignore: !testServerUrl(),
  async fn() {
    const database = await createTestDatabase();
    const handle = await openDatabase({ databaseUrl: database.url!, poolSize: 2 });
    const planCacheMode = sql<string>`current_setting('plan_cache_mode')`.as("mode");
    // A one-row list of the setting, paged as every list is.
    const listOfMode = (db: Db) =>
      paginate(
        db.selectNoFrom(planCacheMode),
        { page: 1, limit: 10, q: undefined, sort: "mode", order: "asc" },
        { sortColumns: { mode: "mode" }, tieBreaker: "mode", map: (row) => row.mode },
      );
    try {
      const plain = await handle.db.selectNoFrom(planCacheMode).executeTakeFirstOrThrow();
      assertEquals(plain.mode, "auto");
      assertEquals((await listOfMode(handle.db)).data, ["force_custom_plan"]);
      // In a transaction every statement runs on the transaction's connection.
      const inTransaction = await handle.db.transaction().execute(listOfMode);
      assertEquals(inTransaction.data, ["auto"]);
    } finally {
      await handle.close();
      await database.close();
    }
  },
});

Deno.test({
  name: "every pool's sessions run without JIT and without parallel workers",
  ignore: !testServerUrl(),
  async fn() {
    const database = await createTestDatabase();
    const handle = await openDatabase({ databaseUrl: database.url!, poolSize: 2 });
    const settings = (db: Db) =>
      db.selectNoFrom([
        sql<string>`current_setting('jit')`.as("jit"),
        sql<string>`current_setting('max_parallel_workers_per_gather')`.as("workers"),
      ]);
    try {
      // The server's default is two workers per Gather; a 0 sent as a number would be left
      // out of the startup message by postgres.js, and the sessions would keep it.
      const plain = await settings(handle.db).executeTakeFirstOrThrow();
      assertEquals(plain, { jit: "off", workers: "0" });
      // Page queries run on the other pool (connect.ts).
      const page = await paginate(
        settings(handle.db),
        { page: 1, limit: 10, q: undefined, sort: "jit", order: "asc" },
        {
          sortColumns: { jit: "jit" },
          tieBreaker: "workers",
          map: ({ jit, workers }) => ({ jit, workers }),
        },
      );
      assertEquals(page.data, [{ jit: "off", workers: "0" }]);
    } finally {
      await handle.close();
      await database.close();
    }
  },
});
