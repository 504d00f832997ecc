/**
 * The target of a restore test: a new PostgreSQL database (with TEST_DATABASE_URL) or a new
 * embedded data directory, with a FILES_DIR of its own; how many accounts it holds.
 */
import postgres from "postgres";
import { openDatabase } from "../../app/db/connect.ts";
import { onPostgres } from "../_helpers/query_plans.ts";
import { emptyPostgres } from "./_places.ts";

export interface Target {
  where: { dataDir: string; env: Record<string, string> };
  filesDir: string;
  /** Accounts in the target; undefined when it has no schema (nothing was ever restored). */
  accounts(): Promise<number | undefined>;
  drop(): Promise<void>;
}

export async function newTarget(work: string): Promise<Target> {
  const filesDir = `${work}/target-files`;
  if (onPostgres) {
    const database = await emptyPostgres();
    return {
      where: {
        dataDir: `${work}/unused`,
        env: { DATABASE_URL: database.url, FILES_DIR: filesDir },
      },
      filesDir,
      async accounts() {
        const client = postgres(database.url, { max: 1, onnotice: () => {} });
        try {
          const [exists] = await client`SELECT to_regclass('public.accounts') IS NOT NULL AS ok`;
          if (!exists?.ok) return undefined;
          const [row] = await client`SELECT count(*)::int AS n FROM accounts`;
          return row!.n as number;
        } finally {
          await client.end();
        }
      },
      drop: () => database.drop(),
    };
  }
  const dataDir = `${work}/target`;
  return {
    where: { dataDir, env: { FILES_DIR: filesDir } },
    filesDir,
    async accounts() {
      if (!(await Deno.stat(`${dataDir}/pgdata/PG_VERSION`).catch(() => undefined))) {
        return undefined;
      }
      const handle = await openDatabase({ dataDir });
      try {
        const row = await handle.db.selectFrom("accounts").select((eb) =>
          eb.fn.countAll<number>().as("n")
        ).executeTakeFirstOrThrow();
        return Number(row.n);
      } finally {
        await handle.close();
      }
    },
    drop: () => Promise.resolve(),
  };
}
