/**
 * Opens the database: PostgreSQL through postgres.js when `DATABASE_URL` is set, otherwise
 * embedded PGlite in `DATA_DIR/pgdata`, guarded by a lock file so only one process opens it.
 * Both engines return dates as `YYYY-MM-DD` strings, numerics as strings, counts as numbers.
 */
import { Kysely, sql } from "kysely";
import { postgresClient } from "./postgres_client.ts";
import { PostgresDialect } from "./postgres_dialect.ts";
import { type Probe, Reachability } from "./reachability.ts";
import { isPageQuery, isPlannedOnce } from "./page_statements.ts";
import postgres from "postgres";
import { PGlite, types as pgliteTypes } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import type { Database } from "./database.ts";
import { SerializedPGliteDialect } from "./pglite_dialect.ts";
import { RequestTransactionDialect } from "./transaction.ts";
import { acquireDataDirLock, type DataDirLock } from "./data_dir_lock.ts";
import { assertNotMoved } from "./moved_marker.ts";

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** Embedded only: keep the database in memory (tests). */
  inMemory?: boolean;
  /**
   * Embedded and in memory only: start from this tarball of a data directory (from the handle's
   * `dumpDataDir()`) instead of an empty database. Tests use it to open a migrated template
   * without running initdb and the migrations again. Pass it gunzipped (`application/x-tar`):
   * PGlite gunzips in a stream whose errors it does not await, so a corrupt gzip would end the
   * process with an unhandled rejection instead of failing this call. PGlite only reads its
   * `type` and `arrayBuffer()`: a `Blob` will do, or `tarArchive(bytes)`, which skips copying
   * the bytes into a Blob and out again.
   */
  loadDataDir?: TarArchive;
  poolSize?: number;
  statementTimeoutMs?: number;
  /**
   * Embedded only: open a data directory whose shop moved away (`DATA_DIR/MOVED`,
   * moved_marker.ts) — `ops restore --force` replacing that old copy. Otherwise refused.
   */
  allowMoved?: boolean;
}

/** A tarball of a data directory, as PGlite reads one (`loadDataDir`). */
export type TarArchive = Pick<Blob, "type" | "arrayBuffer">;

/**
 * `bytes` as a `loadDataDir`, without a Blob: Deno copies a Blob's bytes in and out in 64 KiB
 * parts, which cost a third of opening the tests' 45 MB template (495 instead of 750 ms a
 * database, median of 8).
 */
export function tarArchive(bytes: Uint8Array<ArrayBuffer>): TarArchive {
  return {
    type: "application/x-tar",
    // The buffer itself when the view covers all of it (no copy), else a copy of the view.
    arrayBuffer: () =>
      Promise.resolve(
        bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
          ? bytes.buffer
          : bytes.slice().buffer,
      ),
  };
}

/** LISTEN on a connection of its own (PostgreSQL only: app/platform/cluster.ts). */
export interface NotificationListener {
  /**
   * Calls `onPayload` with each notification on `channel`, and `onListening` each time the
   * subscription is (re)established; resolves once it is in place.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onListening: () => void,
  ): Promise<{ stop(): Promise<void> }>;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: "postgres" | "embedded";
  /** PostgreSQL only: notifications between the processes sharing the database. */
  listener?: NotificationListener;
  close(): Promise<void>;
  /** Embedded only: records in the data directory's lock where this process (a server) listens. */
  announce?(url: string): Promise<void>;
  /**
   * Embedded only: a gzipped tarball of the data directory after a checkpoint (gunzipped, it is
   * a `loadDataDir`). Call it when no query is running.
   */
  dumpDataDir?(): Promise<Blob>;
}

const OID = { int8: 20, date: 1082, numeric: 1700 } as const;

/** 20 ms after the first failure, doubling up to 250 ms, with jitter so connections spread. */
export function reconnectDelaySeconds(failures: number): number {
  return (0.5 + Math.random() / 2) * Math.min(0.02 * 2 ** failures, 0.25);
}

/** See `idle_in_transaction_session_timeout` below: far above any pause the app makes. */
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;

/**
 * The driver's probe (reachability.ts): the server's uptime over a connection of its own,
 * opened when first needed and dropped after a failure (a new one next time) or when idle.
 */
class UptimeProbe implements Probe {
  readonly #url: string;
  #client: postgres.Sql | undefined;

  constructor(url: string) {
    this.#url = url;
  }

  async uptimeMs(): Promise<number> {
    this.#client ??= postgresClient(this.#url, {
      max: 1,
      connect_timeout: 2,
      idle_timeout: 10,
      onnotice: () => {},
      connection: { application_name: "shop-backoffice-probe" },
    });
    try {
      const [row] = await this.#client.unsafe(
        "SELECT (extract(epoch FROM now() - pg_postmaster_start_time()) * 1000)::float8 AS ms",
      );
      return Number(row?.ms);
    } catch (error) {
      // The server answered, though not the question (too many connections...): reachable.
      // Starting up or shutting down (57P03), or terminating our connection (57P0x): not.
      const answered = error instanceof postgres.PostgresError && !error.code.startsWith("57P");
      if (answered) return Number.POSITIVE_INFINITY;
      throw error;
    }
  }

  async reset(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    await client?.end({ timeout: 0 });
  }
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  return await openEmbedded(options);
}

function openPostgres(url: string, options: DatabaseOptions): DatabaseHandle {
  const poolSize = options.poolSize ?? 10;
  const poolOptions = (
    planCacheMode: "auto" | "force_custom_plan" | "force_generic_plan",
  ) => ({
    max: poolSize,
    // A request must be answered within 5 s when the server is down (503, never a hang).
    connect_timeout: 4,
    // postgres.js counts failed connects across the pool and waits up to 20 s before the next
    // one; after an outage of a few seconds, a request could then wait that long on a
    // connection to a server that is back. A refused connect costs nothing, so retry soon.
    backoff: reconnectDelaySeconds,
    idle_timeout: 60,
    onnotice: () => {},
    connection: {
      application_name: "shop-backoffice",
      plan_cache_mode: planCacheMode,
      // A transaction the app gave up on while the database seemed unreachable is never
      // touched again (postgres_dialect.ts); should its connection still be alive, the server
      // ends it rather than keep its locks.
      idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT_MS,
      // JIT compiles any statement planned above 100,000 (a page over a million rows, whose
      // LIMIT stops it early): tens of milliseconds that a page never pays back.
      jit: "off",
      // No parallel workers: a page is one of many requests at once, and the workers a plan
      // starts (two per Gather by default) compete with the other requests for the same
      // cores. The generic plan of an account search on 100,000 accounts (a Gather over both
      // trigram scans) answered 10 clients in 973 ms p50 with them and 196 ms without, and
      // one client in 84-89 ms with them and 40-44 ms without. A string: postgres.js leaves
      // out parameters whose value is falsy, so a 0 would never reach the server.
      max_parallel_workers_per_gather: "0",
      ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    },
    types: {
      date: {
        to: OID.date,
        from: [OID.date],
        serialize: (v: unknown) => String(v),
        parse: (v: string) => v,
      },
      int8: { to: OID.int8, from: [OID.int8], serialize: (v: unknown) => String(v), parse: Number },
    },
  });
  // postgres.js prepares named statements. Under `auto`, after five runs PostgreSQL may keep a
  // statement's generic plan instead of planning every run: planning was ~40% of its time
  // completing a sale. Lists take arbitrary filter and search values, and a generic plan made
  // for no value in particular can scan a whole table (an item search matching 5 lines
  // planned as a hash join over every transaction: 18 ms instead of 0.7 ms on 160,000 sales,
  // and growing with them), so page queries run on a second pool whose connections plan every
  // run for its values. All pools share DB_POOL_SIZE slots: at most that many queries run.
  // A list may declare that its page statement plans the same for any value (PageOptions.planOnce:
  // a search whose ids come from trigram indexes): planning it on every run cost four times
  // running it, so those run on a third pool whose sessions keep the plan made once.
  const client = postgresClient(url, poolOptions("auto"));
  const listClient = postgresClient(url, poolOptions("force_custom_plan"));
  const plannedOnceClient = postgresClient(url, poolOptions("force_generic_plan"));
  const db = new Kysely<Database>({
    dialect: new RequestTransactionDialect(
      new PostgresDialect({
        postgres: client,
        planPools: [
          { postgres: plannedOnceClient, matches: isPlannedOnce },
          { postgres: listClient, matches: isPageQuery },
        ],
        maxConnections: poolSize,
        reachability: new Reachability(new UptimeProbe(url)),
      }),
    ),
  });
  // One more connection, opened when first needed, outside DB_POOL_SIZE: it only listens.
  let listenClient: postgres.Sql | undefined;
  const listener: NotificationListener = {
    async listen(channel, onPayload, onListening) {
      listenClient ??= postgresClient(url, {
        max: 1,
        connect_timeout: 4,
        backoff: reconnectDelaySeconds,
        onnotice: () => {},
        connection: { application_name: "shop-backoffice-listen" },
      });
      const meta = await listenClient.listen(channel, onPayload, onListening);
      return { stop: () => meta.unlisten() };
    },
  };
  return {
    db,
    kind: "postgres",
    listener,
    async close() {
      await listenClient?.end({ timeout: 0 }).catch(() => {});
      await db.destroy();
    },
  };
}

async function openEmbedded(options: DatabaseOptions): Promise<DatabaseHandle> {
  let lock: DataDirLock | undefined;
  let dataPath: string | undefined;
  if (options.loadDataDir && !options.inMemory) {
    throw new Error("loadDataDir needs inMemory: it never writes over a data directory");
  }
  if (!options.inMemory) {
    const dataDir = options.dataDir ?? "./data";
    if (!options.allowMoved) await assertNotMoved(dataDir);
    await Deno.mkdir(dataDir, { recursive: true });
    lock = await acquireDataDirLock(dataDir);
    dataPath = `${dataDir.replace(/\/+$/, "")}/pgdata`;
  }
  try {
    const pglite = await PGlite.create(dataPath, {
      // A loaded data directory needs the extensions too: its catalog names them, and their
      // libraries are loaded from here (PGlite's own clone() passes them again likewise).
      // PGlite's type asks for a Blob, of which it reads these two members.
      loadDataDir: options.loadDataDir as Blob | undefined,
      extensions: { pg_trgm, btree_gist },
      parsers: {
        [pgliteTypes.INT8]: (v: string) => Number(v),
        [pgliteTypes.DATE]: (v: string) => v,
        [OID.numeric]: (v: string) => v,
      },
    });
    if (options.statementTimeoutMs) {
      await pglite.exec(`SET statement_timeout = ${Math.trunc(options.statementTimeoutMs)}`);
    }
    const db = new Kysely<Database>({
      dialect: new RequestTransactionDialect(new SerializedPGliteDialect({ pglite })),
    });
    return {
      db,
      kind: "embedded",
      announce: async (url) => await lock?.announce(url),
      async dumpDataDir() {
        await sql`CHECKPOINT`.execute(db);
        return await pglite.dumpDataDir("gzip");
      },
      async close() {
        try {
          // A checkpoint writes everything to the data files so the next open replays nothing.
          if (!pglite.closed) await sql`CHECKPOINT`.execute(db).catch(() => {});
          await db.destroy();
        } finally {
          await lock?.release();
        }
      },
    };
  } catch (error) {
    await lock?.release();
    throw error;
  }
}
