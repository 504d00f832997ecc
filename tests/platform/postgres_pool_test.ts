/**
 * The PostgreSQL pool queues queries for a free connection (app/db/connection_slots.ts)
 * instead of letting postgres.js pipeline them onto busy ones.
 */
import { sql } from "kysely";
import { assert } from "../_helpers/assert.ts";
import { openDatabase } from "../../app/db/connect.ts";
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
