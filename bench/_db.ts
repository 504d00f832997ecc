/**
 * The bench database: a throwaway `shop_bench_<random>` on BENCH_DATABASE_URL's server,
 * migrated and seeded, and the context scenarios seed through (users with tokens, deps).
 */
import type { Kysely } from "kysely";
import { postgresClient, postgresTarget } from "../app/db/postgres_client.ts";
import { loadConfig } from "../app/config.ts";
import { createDeps } from "../app/create_deps.ts";
import type { AppDeps } from "../app/deps.ts";
import type { Database } from "../app/db/database.ts";
import { createMemoryLogger } from "../app/logger.ts";
import { createTokenSigner, signingSecret } from "../app/auth/tokens.ts";
import { systemIds } from "../app/ids.ts";
import type { Permission } from "../domain/auth/permissions.ts";
import type { SeedContext } from "./scenarios/_scenario.ts";

/** The local server's Unix socket directory (Debian's, as libpq uses it by default). */
const LOCAL_SOCKET_DIR = "/var/run/postgresql";

/**
 * The local server over its Unix socket when it has one, as a server on the same machine
 * would be configured (README, "PostgreSQL"; app/db/postgres_client.ts), otherwise over TCP.
 * BENCH_DATABASE_URL overrides it (e.g. `postgres://postgres@127.0.0.1:5432/postgres` to
 * measure over loopback TCP). pgbench connects the same way (bench/_pgbench.ts).
 */
function defaultServerUrl(): string {
  try {
    Deno.statSync(`${LOCAL_SOCKET_DIR}/.s.PGSQL.5432`);
    return `postgres://postgres@localhost/postgres?host=${LOCAL_SOCKET_DIR}`;
  } catch {
    return "postgres://postgres@127.0.0.1:5432/postgres";
  }
}

export const SERVER_URL = Deno.env.get("BENCH_DATABASE_URL") ?? defaultServerUrl();

/** How the bench reaches PostgreSQL, for the report. */
export function serverTransport(): string {
  const socketDir = postgresTarget(SERVER_URL).socketDir;
  return socketDir ? `PostgreSQL over the Unix socket in ${socketDir}` : "PostgreSQL over TCP";
}
export const JWT_SECRET = "bench-secret-that-is-at-least-32-bytes-long";

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export interface BenchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
  /** Keeps the database and lets go of the connection that created it. */
  keep(): Promise<void>;
}

/**
 * A database seeded by an earlier size bench (`BENCH_SCALE_KEEP=1`), to measure again (the
 * size bench) or to run the scenarios over (e.g. sale completion over a million past sales).
 */
export const EXISTING_DATABASE_URL = Deno.env.get("BENCH_SCALE_DATABASE_URL") || undefined;

/**
 * Creates an empty database on the server; `drop()` removes it (also with open sessions). With
 * `existingUrl` (by default BENCH_SCALE_DATABASE_URL), that database instead, which `drop()`
 * leaves alone.
 */
export async function createBenchDatabase(
  serverUrl = SERVER_URL,
  existingUrl = EXISTING_DATABASE_URL,
): Promise<BenchDatabase> {
  if (existingUrl) {
    const name = new URL(existingUrl).pathname.slice(1);
    return {
      name,
      url: existingUrl,
      drop: () => Promise.resolve(),
      keep: () => Promise.resolve(),
    };
  }
  const admin = postgresClient(serverUrl, { max: 1, onnotice: () => {} });
  const name = `shop_bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  try {
    await admin.unsafe(`CREATE DATABASE "${name}"`);
  } catch (error) {
    await admin.end();
    throw error;
  }
  return {
    name,
    url: withDatabase(serverUrl, name),
    async drop() {
      await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
      await admin.end();
    },
    async keep() {
      // Left open, this connection would keep the process from exiting.
      await admin.end();
    },
  };
}

export function seedContext(
  db: Kysely<Database>,
  dataDir: string,
  engine: SeedContext["engine"] = "postgres",
): SeedContext {
  const signer = createTokenSigner(signingSecret(JWT_SECRET), systemIds);
  let deps: AppDeps | undefined;
  let n = 0;
  return {
    db,
    engine,
    deps() {
      deps ??= createDeps({
        config: loadConfig({ APP_ENV: "test", JWT_SECRET, DATA_DIR: dataDir }),
        db,
        dbKind: engine,
        logger: createMemoryLogger(),
      });
      return deps;
    },
    async createUser(permissions: readonly Permission[]) {
      const id = crypto.randomUUID();
      const roleId = crypto.randomUUID();
      // Past the users already there (a database seeded by an earlier run, BENCH_SCALE_KEEP).
      if (n === 0) {
        const row = await db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirst();
        n = Number(row?.n ?? 0);
      }
      n++;
      await db.transaction().execute(async (trx) => {
        await trx.insertInto("users").values({
          id,
          email: `bench${n}-${id.slice(0, 8)}@example.test`,
          first_name: "Bench",
          last_name: `User ${n}`,
          employee_number: String(9000 + n),
        }).execute();
        await trx.insertInto("roles").values({
          id: roleId,
          slug: `bench-${roleId}`,
          name: `Bench ${n}`,
        }).execute();
        if (permissions.length > 0) {
          await trx.insertInto("role_permissions")
            .values(permissions.map((permission) => ({ role_id: roleId, permission }))).execute();
        }
        await trx.insertInto("user_roles").values({ user_id: id, role_id: roleId }).execute();
      });
      const token = await signer.sign(
        { userId: id, type: "access", version: 0 },
        24 * 3600,
        new Date(),
      );
      return { id, token };
    },
  };
}
