/**
 * An isolated, migrated and seeded database per test file:
 *  - with `TEST_DATABASE_URL` (or `DATABASE_URL`): a fresh PostgreSQL database cloned from a
 *    template that is migrated once per migration set (named by a hash of the migrations and
 *    seeds, built under an advisory lock so parallel test files build it once);
 *  - otherwise: a fresh in-memory PGlite (the embedded default) loaded from a template tarball
 *    of the migrated and seeded data directory, kept in the temp dir per migration set (the
 *    same hash, and the PGlite version) so that no file pays for initdb and the migrations.
 */
import { Kysely, sql } from "kysely";
import { PostgresDialect } from "../../app/db/postgres_dialect.ts";
import type postgres from "postgres";
import { postgresClient } from "../../app/db/postgres_client.ts";
import { gunzipSync } from "node:zlib";
import {
  type DatabaseHandle,
  type NotificationListener,
  openDatabase,
  tarArchive,
} from "../../app/db/connect.ts";
import type { Database } from "../../app/db/database.ts";
import { migrateToLatest } from "../../app/db/migrate.ts";
import { runSeeds } from "../../app/seed.ts";
import { migrations } from "../../migrations/mod.ts";

export interface TestDatabase {
  db: Kysely<Database>;
  kind: "postgres" | "embedded";
  /** Connection URL of this test's own database (PostgreSQL only). */
  url: string | undefined;
  /** PostgreSQL only: its notifications (app/platform/cluster.ts). */
  listener?: NotificationListener;
  close(): Promise<void>;
}

export function testServerUrl(): string | undefined {
  return Deno.env.get("TEST_DATABASE_URL") || Deno.env.get("DATABASE_URL") || undefined;
}

/** Where a module's runtime imports of files (not `import type`) name them. */
const LOCAL_IMPORT =
  /(?:^|[;\s])(?:import|export)\s+(?!type\s)(?:[^;"'`]*?\sfrom\s*)?["'](\.{1,2}\/[^"']+)["']|\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

/**
 * A hash of what a migrated and seeded database is made of: the migrations and the seeds, each
 * with every file it imports at run time, so editing a seed's data (`domain/.../lookups.ts`)
 * invalidates the templates too.
 */
async function schemaFingerprint(): Promise<string> {
  const root = new URL("../../", import.meta.url);
  const sources = new Map<string, string>();
  async function visit(url: URL): Promise<void> {
    if (sources.has(url.href)) return;
    let text: string;
    try {
      text = await Deno.readTextFile(url);
    } catch {
      return; // Not a file (an import in a comment...): nothing it could change.
    }
    sources.set(url.href, text);
    const imports = Array.from(text.matchAll(LOCAL_IMPORT), (m) => m[1] ?? m[2] ?? "");
    await Promise.all(imports.map((specifier) => visit(new URL(specifier, url))));
  }
  async function walk(dir: URL, match: (name: string) => boolean) {
    for await (const entry of Deno.readDir(dir)) {
      const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
      if (entry.isDirectory) await walk(url, match);
      else if (match(entry.name)) await visit(url);
    }
  }
  await walk(new URL("migrations/", root), (n) => n.endsWith(".ts"));
  await walk(new URL("app/", root), (n) => /seed.*\.ts$/.test(n) || n === "seed.ts");
  await walk(new URL("domain/", root), (n) => n === "permissions.ts" || n === "modules.ts");
  await visit(new URL("app/db/migrate.ts", root));
  const files = [...sources.keys()].sort();
  const hash = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(
      files.map((f) => `${f.slice(root.href.length)}\0${sources.get(f)}`).join("\0"),
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
      const client = postgresClient(withDatabase(serverUrl, building), {
        max: 1,
        onnotice: () => {},
      });
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

/**
 * The embedded template's file: one per migration set and PGlite version (a data directory is
 * only good for the PGlite that wrote it).
 */
async function embeddedTemplatePath(): Promise<string> {
  const pglite = import.meta.resolve("@electric-sql/pglite");
  const version = /pglite@([^/]+)\//.exec(pglite)?.[1] ??
    Array.from(new TextEncoder().encode(pglite)).reduce((h, b) => (h * 31 + b) >>> 0, 7);
  const dir = (Deno.env.get("TMPDIR") || "/tmp").replace(/\/+$/, "");
  return `${dir}/shop-test-pglite-${await schemaFingerprint()}-${version}.tar.gz`;
}

/**
 * Opens the template; throws when it is unusable (partial, corrupt, another migration set). It
 * is gunzipped here, which checks its checksum: PGlite would gunzip it in a stream whose errors
 * nobody awaits, so a corrupt file would end the whole test process.
 */
async function openEmbeddedTemplate(gzipped: Uint8Array): Promise<DatabaseHandle> {
  const tar = gunzipSync(gzipped) as Uint8Array<ArrayBuffer>; // A Buffer, never shared.
  if (tar.length < 512) throw new Error("it is empty");
  const handle = await openDatabase({
    inMemory: true,
    loadDataDir: tarArchive(tar),
  });
  try {
    const applied = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`
      .execute(handle.db);
    const expected = Object.keys(migrations).sort().join(",");
    if (applied.rows.map((r) => r.name).join(",") !== expected) {
      throw new Error("its migrations are not this migration set's");
    }
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Other migration sets' templates (and leftovers of killed writers) older than a day. */
async function removeOldTemplates(keep: string): Promise<void> {
  const dir = keep.slice(0, keep.lastIndexOf("/") + 1);
  const dayAgo = Date.now() - 24 * 3600_000;
  for await (const entry of Deno.readDir(dir)) {
    const path = dir + entry.name;
    if (!entry.name.startsWith("shop-test-pglite-") || path === keep) continue;
    const { mtime } = await Deno.stat(path).catch(() => ({ mtime: null }));
    if (mtime && mtime.getTime() < dayAgo) await Deno.remove(path).catch(() => {});
  }
}

/**
 * A fresh in-memory database from the template; without a usable template, one migrated and
 * seeded here, which is then saved as the template (written to a file of its own and renamed
 * into place, so a reader never sees half of one). Parallel test files that find no template
 * each build and save one: the last rename wins, all are the same, and no file ever waits for
 * another (a lock would have a crashed holder to detect, and all test files of a run share one
 * process id).
 */
async function openEmbeddedTestDatabase(): Promise<DatabaseHandle> {
  const path = await embeddedTemplatePath();
  const tarball = await Deno.readFile(path).catch(() => undefined);
  if (tarball) {
    try {
      return await openEmbeddedTemplate(tarball);
    } catch (error) {
      console.error(`test_db: rebuilding the unusable template ${path} (${error})`);
    }
  }
  const handle = await openDatabase({ inMemory: true });
  try {
    await migrateToLatest(handle.db);
    await runSeeds(handle.db);
  } catch (error) {
    await handle.close();
    throw error;
  }
  const partial = `${path}.${crypto.randomUUID()}.partial`;
  try {
    const dump = await handle.dumpDataDir!();
    await Deno.writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
    await Deno.rename(partial, path);
    await removeOldTemplates(path);
  } catch (error) {
    // Only slower: the next file builds again.
    console.error(`test_db: could not save the template ${path} (${error})`);
    await Deno.remove(partial).catch(() => {});
  }
  return handle;
}

/**
 * The template's file (a gzipped tar of a migrated and seeded data directory), built first when
 * there is none: for tests that extract it into a data directory on disk rather than run
 * initdb, the migrations and the seeds again (~5 s of a child's start, 8 s of CPU).
 */
export async function embeddedTemplateFile(): Promise<string> {
  const path = await embeddedTemplatePath();
  const found = await Deno.stat(path).then(() => true, () => false);
  if (!found) await (await openEmbeddedTestDatabase()).close();
  return path;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = testServerUrl();
  if (!serverUrl) {
    const handle = await openEmbeddedTestDatabase();
    return { db: handle.db, kind: "embedded", url: undefined, close: () => handle.close() };
  }
  const admin = postgresClient(serverUrl, { max: 1, onnotice: () => {} });
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
    listener: handle.listener,
    async close() {
      await handle.close();
      await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
      await admin.end();
    },
  };
}

export { sql };
