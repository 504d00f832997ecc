/**
 * The move of README "Moving to PostgreSQL", as a shop owner does it in the shop's directory
 * (`deno task …` there: `./shop.env`, `./data`): `ops backup`, then `ops restore --move` into
 * PostgreSQL (into another embedded directory without TEST_DATABASE_URL). Afterwards a shell
 * without DATABASE_URL reaches the new database, from `ops` and from the server alike, because
 * both read `shop.env`, which the move wrote; and the old `./data`, marked as moved, is refused
 * in one line by every command and the server that would open it.
 */
import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import { type CliResult, removeDir, runOps, startServer } from "../_helpers/processes.ts";
import { onPostgres } from "../_helpers/query_plans.ts";
import { preparedPlace } from "../cli/_ops.ts";
import { openDatabase } from "../../app/db/connect.ts";
import postgres from "postgres";
import { emptyPostgres } from "./_places.ts";

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test({
  name: "after `ops restore --move` the server and every ops command use the new database; " +
    "the old ./data refuses in one line",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const shopDir = await Deno.makeTempDir({ prefix: "shop-move-" });
    const place = await preparedPlace();
    await Deno.rename(place.dataDir, `${shopDir}/data`);
    const pg = onPostgres ? await emptyPostgres() : undefined;
    const inShop = (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
      runOps(args, { shopDir, env: { OPS_CONFIG_DIR: `${shopDir}/ops-config`, ...env } });
    // Where the shop goes (relative paths, as typed in the shop's directory).
    const target: Record<string, string> = pg
      ? { DATABASE_URL: pg.url, FILES_DIR: "moved-files" }
      : { DATA_DIR: "moved-data", FILES_DIR: "moved-files" };
    // The old copy, named explicitly (an override in the environment wins over shop.env).
    const oldCopy: Record<string, string> = pg ? { DATABASE_URL: "" } : { DATA_DIR: "./data" };
    const usersNamed = async (email: string): Promise<number> => {
      if (pg) {
        const client = postgres(pg.url, { max: 1, onnotice: () => {} });
        try {
          const [row] = await client`SELECT count(*)::int AS n FROM users WHERE email = ${email}`;
          return row!.n as number;
        } finally {
          await client.end();
        }
      }
      const handle = await openDatabase({ dataDir: `${shopDir}/moved-data` });
      try {
        return (await handle.db.selectFrom("users").select("id").where("email", "=", email)
          .execute()).length;
      } finally {
        await handle.close();
      }
    };
    try {
      const backup = await inShop(["backup", "--out", "move.backup"]);
      assertEquals(backup.code, 0, backup.stderr);

      const moved = await inShop(["restore", "move.backup", "--move"], target);
      assertEquals(moved.code, 0, moved.stderr);
      assertStringIncludes(moved.stderr, "shop.env now sets");
      assertStringIncludes(moved.stderr, "MOVED file keeps the server and ops from opening it");
      const settings = await Deno.readTextFile(`${shopDir}/shop.env`);
      assertEquals((await Deno.stat(`${shopDir}/shop.env`)).mode! & 0o777, 0o600);
      assertStringIncludes(settings, `\nFILES_DIR=${shopDir}/moved-files\n`);
      assertStringIncludes(
        settings,
        pg ? `\nDATABASE_URL=${pg.url}\n` : `\nDATA_DIR=${shopDir}/moved-data\n`,
      );
      assert(await exists(`${shopDir}/data/MOVED`), "the old copy is marked");

      // A shell with no location in its environment: the new database.
      const created = await inShop([
        "user",
        "create",
        "--email",
        "late@shop.test",
        "--first",
        "Late",
        "--last",
        "Clerk",
        "--role",
        "sales-associate",
      ]);
      assertEquals(created.code, 0, created.stderr);
      assertEquals(await usersNamed("late@shop.test"), 1);

      // Whatever would open the old copy refuses, in one line naming the fix.
      const refused = await inShop(["modules", "list"], oldCopy);
      assertEquals(refused.code, 1, refused.stderr);
      assertEquals(refused.stderr.trim().split("\n").length, 1, refused.stderr);
      assertStringIncludes(refused.stderr, 'DATA_DIR "./data" is an old copy: the shop moved to ');
      assertStringIncludes(refused.stderr, "data/MOVED");
      assertStringIncludes(refused.stderr, pg ? "DATABASE_URL" : `DATA_DIR=${shopDir}/moved-data`);
      assert(pg === undefined || !refused.stderr.includes(new URL(pg.url).password || "\0"));
      const oldServer = await startServer({ shopDir, env: oldCopy }).then(
        (s) => {
          s.kill("SIGKILL");
          return "it started";
        },
        (error: Error) => error.message,
      );
      assertStringIncludes(oldServer, "exited (code 1)");
      assertStringIncludes(oldServer, "is an old copy: the shop moved to");

      // The server reads shop.env too: it serves the new database.
      const server = await startServer({ shopDir });
      try {
        const listening = server.lines.map((l) => JSON.parse(l)).find((e) => e.msg === "listening");
        assertEquals(listening.database, pg ? "postgres" : "embedded");
        const status = await inShop(["status", "--json"]);
        if (pg) {
          // On PostgreSQL directly: the running server as it reports itself.
          assertEquals(status.code, 0, status.stderr);
          const found = JSON.parse(status.stdout);
          assertEquals(found.engine, "postgres");
          assertEquals(found.servers.map((s: { url: string }) => s.url), [server.url]);
          assertEquals(found.servers[0].pid, server.pid);
        } else {
          // The server holds moved-data: `ops` goes to it, at the URL its lock names.
          assertEquals(status.code, 1);
          assertStringIncludes(status.stderr, `ops login --server ${server.url} `);
        }
      } finally {
        server.kill("SIGTERM");
        await server.status;
      }
    } finally {
      await pg?.drop();
      await removeDir(shopDir);
    }
  },
});
