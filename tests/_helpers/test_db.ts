/**
 * An isolated, migrated and seeded database per test file:
 *  - with `TEST_DATABASE_URL` (or `DATABASE_URL`): a fresh PostgreSQL database cloned from a
 *    template that is migrated once per migration set (named by a hash of the migrations and
 *    seeds, built under an advisory lock so parallel test files build it once);
 *  - otherwise: a fresh in-memory PGlite (the embedded default).
 */
import { Kysely, sql } from "kysely";
import { PostgresDialect } from "../../app/db/postgres_dialect.ts";
import postgres from "postgres";
import { openDatabase } from "../../app/db/connect.ts";
import type { Database } from "../../app/db/database.ts";
import { migrateToLatest } from "../../app/db/migrate.ts";
import { runSeeds } from "../../app/seed.ts";

export interface TestDatabase {
  db: Kysely<Database>;
  kind: "postgres" | "embedded";
  /** Connection URL of this test's own database (PostgreSQL only). */
  url: string | undefined;
  close(): Promise<void>;
}

export function testServerUrl(): string | undefined {
  return Deno.env.get("TEST_DATABASE_URL") || Deno.env.get("DATABASE_URL") || undefined;
}

async function schemaFingerprint(): Promise<string> {
  const root = new URL("../../", import.meta.url);
  const files: string[] = [];
  async function walk(dir: URL, match: (name: string) => boolean) {
    for await (const entry of Deno.readDir(dir)) {
      const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
      if (entry.isDirectory) await walk(url, match);
      else if (match(entry.name)) files.push(url.pathname);
    }
  }
  await walk(new URL("migrations/", root), (n) => n.endsWith(".ts"));
  await walk(new URL("app/", root), (n) => /seed.*\.ts$/.test(n) || n === "seed.ts");
  await walk(new URL("domain/", root), (n) => n === "permissions.ts" || n === "modules.ts");
  files.sort();
  const hash = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(
      (await Promise.all(files.map((f) => Deno.readTextFile(f)))).join("\0"),
    ),
  );
  return Array.from(new Uint8Array(hash).slice(0, 6), (b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function ensureTemplate(admin: postgres.Sql, serverUrl: string): Promise<string> {
  const template = `shop_test_tpl_${await schemaFingerprint()}`;
  // A session-level advisory lock on one reserved connection: CREATE DATABASE cannot run
  // inside a transaction, and parallel test files must build the template only once.
  const conn = await admin.reserve();
  try {
    await conn`SELECT pg_advisory_lock(hashtext('shop_test_template'))`;
    const exists = await conn`SELECT 1 FROM pg_database WHERE datname = ${template}`;
    if (exists.length === 0) {
      const building = `${template}_build`;
      await conn.unsafe(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await conn.unsafe(`CREATE DATABASE "${building}"`);
      const client = postgres(withDatabase(serverUrl, building), { max: 1, onnotice: () => {} });
      const db = new Kysely<Database>({ dialect: new PostgresDialect({ postgres: client }) });
      try {
        await migrateToLatest(db);
        await runSeeds(db);
      } finally {
        await db.destroy();
      }
      await conn.unsafe(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
    }
  } finally {
    await conn`SELECT pg_advisory_unlock(hashtext('shop_test_template'))`.catch(() => {});
    conn.release();
  }
  return template;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = testServerUrl();
  if (!serverUrl) {
    const handle = await openDatabase({ inMemory: true });
    await migrateToLatest(handle.db);
    await runSeeds(handle.db);
    return { db: handle.db, kind: "embedded", url: undefined, close: () => handle.close() };
  }
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  const template = await ensureTemplate(admin, serverUrl);
  const name = `shop_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  for (let attempt = 1;; attempt++) {
    try {
      await admin.unsafe(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
      break;
    } catch (error) {
      // Another file may be cloning the same template at this instant (55006): retry.
      if (attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
  const url = withDatabase(serverUrl, name);
  const handle = await openDatabase({ databaseUrl: url, poolSize: 20 });
  return {
    db: handle.db,
    kind: "postgres",
    url,
    async close() {
      await handle.close();
      await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
      await admin.end();
    },
  };
}

export { sql };
