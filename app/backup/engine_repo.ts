/**
 * The SQL of backups and restores, on one session of either engine: the catalog (tables,
 * columns, sequences, foreign keys), COPY in PostgreSQL's text format, and the statements of a
 * restore. PostgreSQL: a connection of its own (postgres.js, from DATABASE_URL) for COPY
 * streams. Embedded: PGlite's single session, held through the dialect
 * (app/db/pglite_dialect.ts `exclusivePGlite`), with COPY through `/dev/blob`.
 *
 * Nothing in here may use `deps.db` while it holds the PGlite session: that would wait for
 * itself (the session is the only one). Writers wait for the snapshot to finish instead.
 */
import type { Transaction as PGliteTransaction } from "@electric-sql/pglite";
import type postgres from "postgres";
import { postgresClient } from "../db/postgres_client.ts";
import { once } from "node:events";
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from "kysely";
import type { AppDeps } from "../deps.ts";
import { exclusivePGlite } from "../db/pglite_dialect.ts";
import type { SequenceEntry } from "../../domain/backup/archive_format.ts";

/** The same text on both engines: UTC times, ISO dates, hex bytea, shortest exact floats. */
const SESSION_SETTINGS = [
  "SET LOCAL TimeZone = 'UTC'",
  "SET LOCAL DateStyle = 'ISO, YMD'",
  "SET LOCAL IntervalStyle = 'postgres'",
  "SET LOCAL extra_float_digits = 1",
  "SET LOCAL bytea_output = 'hex'",
  "SET LOCAL statement_timeout = 0",
];

/**
 * Not part of a shop's data: the schema's bookkeeping (the manifest lists the migrations
 * instead) and the registry of the server processes running now (app/platform/cluster.ts).
 */
const NOT_BACKED_UP = new Set(["kysely_migration", "kysely_migration_lock", "server_processes"]);

type Row = Record<string, unknown>;

/** One transaction on one session of either engine. */
export interface Session {
  readonly engine: "postgres" | "embedded";
  query<R extends Row = Row>(text: string, params?: unknown[]): Promise<R[]>;
  /** The rows of `COPY … TO STDOUT` in text format, in chunks. */
  copyOut(text: string): AsyncIterable<Uint8Array>;
  /** A `COPY … FROM STDIN` fed chunk by chunk. */
  copyIn(text: string): Promise<{ write(bytes: Uint8Array): Promise<void>; end(): Promise<void> }>;
}

function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

// ------------------------------------------------------------------ the two engines

function pgliteSession(tx: PGliteTransaction): Session {
  return {
    engine: "embedded",
    async query<R extends Row>(text: string, params: unknown[] = []) {
      return (await tx.query<R>(text, params)).rows;
    },
    async *copyOut(text) {
      const result = await tx.query(text.replace(/TO STDOUT$/, "TO '/dev/blob'"));
      const blob = result.blob;
      if (blob) yield new Uint8Array(await blob.arrayBuffer());
    },
    copyIn(text) {
      const parts: Uint8Array[] = [];
      return Promise.resolve({
        write(bytes: Uint8Array) {
          parts.push(bytes);
          return Promise.resolve();
        },
        async end() {
          if (parts.length === 0) return;
          const blob = new Blob(parts as BlobPart[]);
          await tx.query(text.replace(/FROM STDIN$/, "FROM '/dev/blob'"), [], { blob });
        },
      });
    },
  };
}

function postgresSession(tx: postgres.TransactionSql): Session {
  return {
    engine: "postgres",
    async query<R extends Row>(text: string, params: unknown[] = []) {
      return (await tx.unsafe(text, params as postgres.ParameterOrJSON<never>[])) as unknown as R[];
    },
    async *copyOut(text) {
      const readable = await tx.unsafe(text).readable();
      try {
        for await (const chunk of readable) yield chunk as Uint8Array;
      } finally {
        // postgres.js 3.4.9 pauses its socket when the stream's buffer is full and resumes it
        // from the stream's `read()`; when the pause falls on the last CopyData before
        // CopyDone, the ended stream never reads again and the connection hangs for good.
        // Its `read()` only resumes the socket: calling it once more is always safe.
        (readable as unknown as { _read?: (size: number) => void })._read?.(0);
      }
    },
    async copyIn(text) {
      const writable = await tx.unsafe(text).writable();
      let failure: unknown;
      writable.on("error", (error: unknown) => (failure ??= error));
      return {
        async write(bytes: Uint8Array) {
          if (failure) throw failure;
          if (!writable.write(bytes)) await drained(writable);
          if (failure) throw failure;
        },
        async end() {
          if (failure) throw failure;
          const finished = Promise.race([once(writable, "finish"), once(writable, "close")]);
          writable.end();
          await finished;
          if (failure) throw failure;
        },
      };
    },
  };
}

/** Resolves when `writable` wants more (or has closed), leaving no listener behind. */
function drained(writable: import("node:stream").Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      writable.off("drain", done);
      writable.off("close", done);
      resolve();
    };
    writable.on("drain", done);
    writable.on("close", done);
  });
}

/** A connection of its own for COPY streams (the app's pool has no COPY). */
function ownPostgresClient(url: string | undefined): postgres.Sql {
  // Without the URL, postgres.js would connect to its default database, not the app's.
  if (!url) throw new Error("A PostgreSQL backup or restore needs DATABASE_URL (its own session)");
  return postgresClient(url, {
    max: 1,
    onnotice: () => {},
    connect_timeout: 10,
    connection: { application_name: "shop-backup" },
  });
}

/**
 * Runs `work` in one transaction on one session: PostgreSQL `isolation` (a connection of its
 * own), or the embedded engine's only session (every other query waits meanwhile).
 */
export async function withSession<T>(
  deps: Pick<AppDeps, "db" | "dbKind" | "config">,
  mode: "snapshot" | "write",
  work: (session: Session) => Promise<T>,
): Promise<T> {
  if (deps.dbKind === "postgres") {
    const client = ownPostgresClient(deps.config.databaseUrl);
    try {
      const begin = mode === "snapshot" ? "isolation level repeatable read read only" : "";
      return await client.begin(begin, async (tx) => {
        const session = postgresSession(tx);
        for (const setting of SESSION_SETTINGS) await session.query(setting);
        return await work(session);
      }) as T;
    } finally {
      await client.end({ timeout: 5 });
    }
  }
  return await deps.db.getExecutor().provideConnection(async (connection: DatabaseConnection) => {
    const pglite = exclusivePGlite(connection);
    if (!pglite) throw new Error("The embedded database's session is not available here");
    return await pglite.transaction(async (tx) => {
      const session = pgliteSession(tx);
      if (mode === "snapshot") {
        await session.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
      }
      for (const setting of SESSION_SETTINGS) await session.query(setting);
      return await work(session);
    });
  });
}

// ------------------------------------------------------------------ the catalog

export interface TableColumns {
  name: string;
  columns: string[];
}

/** Every table of the schema with its stored columns (generated ones are derived again). */
export async function listTables(session: Session): Promise<TableColumns[]> {
  const rows = await session.query<{ name: string; columns: string }>(`
    SELECT c.relname AS name,
           json_agg(a.attname::text ORDER BY a.attnum)::text AS columns
      FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                         AND a.attgenerated = ''
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
     GROUP BY c.relname
     ORDER BY c.relname`);
  return rows.filter((r) => !NOT_BACKED_UP.has(r.name))
    .map((r) => ({ name: r.name, columns: JSON.parse(r.columns) as string[] }));
}

export async function listAppliedMigrations(session: Session): Promise<string[]> {
  const exists = await session.query<{ ok: boolean }>(
    "SELECT to_regclass('public.kysely_migration') IS NOT NULL AS ok",
  );
  if (!exists[0]?.ok) return [];
  const rows = await session.query<{ name: string }>(
    "SELECT name FROM kysely_migration ORDER BY name",
  );
  return rows.map((r) => r.name);
}

export async function listSequences(session: Session): Promise<SequenceEntry[]> {
  const rows = await session.query<{ name: string; last_value: string | null }>(`
    SELECT sequencename AS name, last_value::text AS last_value
      FROM pg_sequences WHERE schemaname = 'public' ORDER BY sequencename`);
  return rows.map((r) => ({ name: r.name, lastValue: r.last_value }));
}

export function copyTableOut(session: Session, table: TableColumns): AsyncIterable<Uint8Array> {
  const columns = table.columns.map(ident).join(", ");
  return session.copyOut(`COPY ${ident(table.name)} (${columns}) TO STDOUT`);
}

export function copyTableIn(session: Session, table: TableColumns) {
  const columns = table.columns.map(ident).join(", ");
  return session.copyIn(`COPY ${ident(table.name)} (${columns}) FROM STDIN`);
}

// ------------------------------------------------------------------ restoring

/** Whether any table holds rows beyond the reference data that the seeds write. */
export async function countRowsBeyond(
  session: Session,
  seeded: ReadonlySet<string>,
): Promise<number> {
  const tables = (await listTables(session)).filter((t) => !seeded.has(t.name));
  if (tables.length === 0) return 0;
  const probes = tables.map((t) =>
    `(SELECT count(*) FROM (SELECT 1 FROM ${ident(t.name)} LIMIT 1) x)`
  );
  const rows = await session.query<{ n: string | number }>(`SELECT ${probes.join(" + ")} AS n`);
  return Number(rows[0]?.n ?? 0);
}

/** A table constraint: dropped while loading, added again after. */
export interface Constraint {
  table: string;
  name: string;
  definition: string;
}

/**
 * The constraints of the public tables of one kind: `foreign` keys, or the `keys` (unique,
 * primary-key and exclusion constraints) that the foreign keys lean on.
 */
export async function listConstraints(
  session: Session,
  kind: "foreign" | "keys",
): Promise<Constraint[]> {
  const types = kind === "foreign" ? "'f'" : "'p', 'u', 'x'";
  return await session.query<{ table: string; name: string; definition: string }>(`
    SELECT c.relname AS "table", k.conname AS name, pg_get_constraintdef(k.oid) AS definition
      FROM pg_constraint k
      JOIN pg_class c ON c.oid = k.conrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE k.contype IN (${types}) AND n.nspname = 'public'
     ORDER BY c.relname, k.conname`);
}

export async function dropConstraint(session: Session, constraint: Constraint): Promise<void> {
  await session.query(
    `ALTER TABLE ${ident(constraint.table)} DROP CONSTRAINT ${ident(constraint.name)}`,
  );
}

export async function addConstraint(session: Session, constraint: Constraint): Promise<void> {
  await session.query(
    `ALTER TABLE ${ident(constraint.table)} ADD CONSTRAINT ${ident(constraint.name)} ` +
      constraint.definition,
  );
}

export interface IndexDefinition {
  name: string;
  definition: string;
}

/** Indexes that back no constraint: dropped while loading, built again after (in bulk). */
export async function listPlainIndexes(session: Session): Promise<IndexDefinition[]> {
  return await session.query<{ name: string; definition: string }>(`
    SELECT i.relname AS name, pg_get_indexdef(i.oid) AS definition
      FROM pg_index x
      JOIN pg_class i ON i.oid = x.indexrelid
      JOIN pg_class t ON t.oid = x.indrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = 'public'
       AND NOT EXISTS (SELECT 1 FROM pg_constraint k
                        WHERE k.conindid = x.indexrelid AND k.conrelid = x.indrelid
                          AND k.contype IN ('p', 'u', 'x'))
     ORDER BY i.relname`) as IndexDefinition[];
}

export async function dropIndex(session: Session, index: IndexDefinition): Promise<void> {
  await session.query(`DROP INDEX ${ident(index.name)}`);
}

export async function createIndex(session: Session, index: IndexDefinition): Promise<void> {
  await session.query(index.definition);
}

/** More memory for building indexes in bulk, for this transaction only. */
export async function allowBulkIndexBuilds(session: Session): Promise<void> {
  const memory = session.engine === "postgres" ? "256MB" : "64MB";
  await session.query(`SET LOCAL maintenance_work_mem = '${memory}'`);
}

export async function truncateTables(session: Session, tables: readonly string[]): Promise<void> {
  if (tables.length === 0) return;
  await session.query(`TRUNCATE ${tables.map(ident).join(", ")}`);
}

export async function setSequence(session: Session, entry: SequenceEntry): Promise<void> {
  if (entry.lastValue === null) {
    await session.query(`ALTER SEQUENCE ${ident(entry.name)} RESTART`);
  } else {
    await session.query("SELECT setval($1::regclass, $2::bigint, true)", [
      ident(entry.name),
      entry.lastValue,
    ]);
  }
}

// ------------------------------------------------------------------ Kysely on a session

class SessionConnection implements DatabaseConnection {
  constructor(readonly session: Session) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const rows = await this.session.query(compiled.sql, [...compiled.parameters]);
    return { rows: rows as R[] };
  }

  // deno-lint-ignore require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("Streaming is not supported on a backup session");
  }
}

/** The session's one transaction is already open: Kysely's transactions join it. */
class SessionDriver implements Driver {
  constructor(readonly session: Session) {}
  init() {
    return Promise.resolve();
  }
  acquireConnection() {
    return Promise.resolve(new SessionConnection(this.session));
  }
  beginTransaction() {
    return Promise.resolve();
  }
  commitTransaction() {
    return Promise.resolve();
  }
  rollbackTransaction() {
    return Promise.resolve();
  }
  releaseConnection() {
    return Promise.resolve();
  }
  destroy() {
    return Promise.resolve();
  }
}

/** A Kysely on the session's transaction (for the migrator); nothing commits but the session. */
// deno-lint-ignore no-explicit-any
export function sessionKysely(session: Session): Kysely<any> {
  return new Kysely({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new SessionDriver(session),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}
