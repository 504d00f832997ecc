/**
 * Kysely over postgres.js without `sql.reserve()`. postgres.js 3.4.9 crashes the whole
 * process (an uncaught TypeError thrown from a `setImmediate`, porsager/postgres#1208) when a
 * query is written to a reserved connection whose socket has closed, and `release()` puts such
 * a dead connection back into the pool. kysely-postgres-js (no longer used) reserves a connection for every
 * query, so a database restart or network cut took the server down instead of answering 503.
 *
 * Here single queries go through the pool (which moves closed connections aside and
 * reconnects), and a transaction runs inside `sql.begin()`, which tells us when its connection
 * is lost: from then on the transaction refuses further queries itself and never touches the
 * dead connection again (no ROLLBACK is sent; the server rolled back when the link dropped).
 *
 * With `maxConnections`, a Kysely connection (one query, or one transaction) first takes a
 * slot (see connection_slots.ts), so postgres.js always finds a free connection and never
 * pipelines a query behind another one.
 *
 * With `reachability`, every query, BEGIN, COMMIT and ROLLBACK, and every wait for a slot, is
 * watched (see reachability.ts): while the database cannot be reached each fails with 503
 * within seconds instead of waiting on a postgres.js promise that may never settle, and a
 * transaction given up that way is treated as lost (never touched again; the server ends it:
 * connect.ts sets `idle_in_transaction_session_timeout`).
 *
 * With `planPools`, a single query runs on the first of those postgres.js pools that `matches`
 * it instead (connect.ts opens one whose sessions plan every run for its parameter values, and
 * one whose sessions plan a statement once and keep that generic plan; see there). Inside a
 * transaction every query runs on the transaction's connection.
 */
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from "kysely";
import type postgres from "postgres";
import { ConnectionSlots } from "./connection_slots.ts";
import { isConnectionLost } from "./db_errors.ts";
import type { Reachability } from "./reachability.ts";

function connectionLostError(): Error {
  return Object.assign(new Error("The database connection was lost during the transaction"), {
    code: "CONNECTION_CLOSED",
  });
}

function toQueryResult<R>(result: postgres.RowList<postgres.Row[]>): QueryResult<R> {
  const { command, count } = result;
  const affects = command === "INSERT" || command === "UPDATE" || command === "DELETE" ||
    command === "MERGE";
  return {
    numAffectedRows: affects ? BigInt(count) : undefined,
    rows: Array.from(result) as R[],
  };
}

function beginOptions(settings: TransactionSettings): string {
  const parts: string[] = [];
  if (settings.isolationLevel) parts.push(`isolation level ${settings.isolationLevel}`);
  if (settings.accessMode) parts.push(settings.accessMode);
  return parts.join(" ");
}

/** Resolves the `sql.begin()` callback: commit, or roll back (by rejecting with this). */
const ROLLBACK = Symbol("rollback");

/** A pool for the queries `matches` selects (see the dialect's `planPools`). */
export interface PlanPool {
  postgres: postgres.Sql;
  matches(sqlText: string): boolean;
}

/** What every connection of a driver shares. */
interface DriverContext {
  pool: postgres.Sql;
  planPools: readonly PlanPool[];
  /** Races an operation against the database being found unreachable (or passes it through). */
  watch<T>(operation: Promise<T>): Promise<T>;
}

class PostgresConnection implements DatabaseConnection {
  readonly #context: DriverContext;
  #tx: postgres.TransactionSql | undefined;
  #finish: ((commit: boolean) => void) | undefined;
  #done: Promise<unknown> | undefined;
  #lost = false;

  constructor(context: DriverContext) {
    this.#context = context;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#lost) throw connectionLostError();
    const { pool, planPools, watch } = this.#context;
    const runner = this.#tx ??
      (planPools.find((planned) => planned.matches(compiled.sql))?.postgres ?? pool);
    const operation = runner.unsafe(
      compiled.sql,
      compiled.parameters as postgres.ParameterOrJSON<never>[],
      { prepare: true },
    );
    try {
      return toQueryResult<R>(await watch(operation));
    } catch (error) {
      if (this.#tx && isConnectionLost(error)) {
        this.#lost = true;
        this.#endIfAnswered(operation);
      }
      throw error;
    }
  }

  /**
   * A transaction given up while `operation` was pending (the probe got no answer in time)
   * may sit on a connection that is alive after all. If the server answers `operation`, the
   * connection still works: roll back then, so it goes back to the pool now rather than idle
   * in a transaction until the server's idle_in_transaction_session_timeout. If the connection
   * dropped instead, postgres.js has already ended the transaction; nothing is sent.
   */
  #endIfAnswered(operation: Promise<unknown>): void {
    const finish = this.#finish;
    let ended = false;
    this.#done?.then(() => (ended = true), () => (ended = true));
    const end = () => {
      if (!ended) finish?.(false);
    };
    operation.then(end, (error) => {
      if (!isConnectionLost(error)) end();
    });
  }

  async *streamQuery<R>(compiled: CompiledQuery, chunkSize = 100): AsyncIterableIterator<
    QueryResult<R>
  > {
    if (this.#lost) throw connectionLostError();
    const runner = this.#tx ?? this.#context.pool;
    const cursor = runner.unsafe(
      compiled.sql,
      compiled.parameters as postgres.ParameterOrJSON<never>[],
    ).cursor(chunkSize);
    for await (const rows of cursor) yield { rows: rows as R[] };
  }

  async begin(settings: TransactionSettings): Promise<void> {
    this.#lost = false;
    let started!: () => void;
    const ready = new Promise<void>((resolve) => (started = resolve));
    // Set when this begin() gives up before BEGIN answered (see the catch below).
    let abandoned = false;
    const body = (tx: postgres.TransactionSql) => {
      // BEGIN answered after the caller gave up (its connection was still being opened when
      // the database was found unreachable, say): nobody will ever finish this transaction, so
      // end it now, on the live connection that just answered. Left pending, it would hold
      // that connection idle in a transaction (one pool connection fewer) until the server's
      // idle_in_transaction_session_timeout.
      if (abandoned) return Promise.reject(ROLLBACK);
      this.#tx = tx;
      started();
      return new Promise<void>((resolve, reject) => {
        this.#finish = (commit) => (commit ? resolve() : reject(ROLLBACK));
      });
    };
    const { pool, watch } = this.#context;
    const options = beginOptions(settings);
    const done = options ? pool.begin(options, body) : pool.begin(body);
    this.#done = done.catch((error) => {
      if (error === ROLLBACK) return;
      // The connection dropped (postgres.js rejects begin at once) or COMMIT failed.
      if (isConnectionLost(error)) this.#lost = true;
      throw error;
    });
    try {
      // BEGIN itself may fail (database unreachable): then `done` rejects before `ready`.
      await watch(Promise.race([ready, this.#done]));
    } catch (error) {
      // Given up before BEGIN answered: whatever postgres.js does with it later, it is lost.
      abandoned = true;
      if (isConnectionLost(error)) this.#lost = true;
      throw error;
    }
  }

  async commit(): Promise<void> {
    try {
      if (this.#lost) throw connectionLostError();
      this.#finish?.(true);
      // A COMMIT whose answer never comes has an unknown outcome: 503 (API §1.1).
      await this.#context.watch(this.#done!);
    } finally {
      this.#reset();
    }
  }

  async rollback(): Promise<void> {
    try {
      // A lost transaction is left pending: settling it would make postgres.js send
      // ROLLBACK on the dead connection (the crash this dialect exists to avoid).
      if (this.#lost) return;
      this.#finish?.(false);
      await this.#context.watch(this.#done ?? Promise.resolve()).catch((error) => {
        if (!isConnectionLost(error)) throw error;
      });
    } finally {
      this.#reset();
    }
  }

  #reset(): void {
    this.#tx = undefined;
    this.#finish = undefined;
    this.#done = undefined;
    this.#lost = false;
  }
}

/** How long a query waits for a free connection before the request gets 503. */
const SLOT_WAIT_TIMEOUT_MS = 5_000;

class PostgresDriver implements Driver {
  readonly #context: DriverContext;
  readonly #slots: ConnectionSlots | undefined;
  readonly #reachability: Reachability | undefined;

  constructor(
    sql: postgres.Sql,
    planPools: readonly PlanPool[],
    maxConnections: number | undefined,
    reachability: Reachability | undefined,
  ) {
    this.#reachability = reachability;
    this.#context = {
      pool: sql,
      planPools,
      watch: reachability ? (operation) => reachability.watch(operation) : (operation) => operation,
    };
    this.#slots = maxConnections
      ? new ConnectionSlots(maxConnections, SLOT_WAIT_TIMEOUT_MS)
      : undefined;
    // Waiting for a slot is pointless once the database is known unreachable.
    const slots = this.#slots;
    if (slots) reachability?.onDown((error) => slots.failWaiters(error));
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    // While the database is known unreachable: 503 unless a probe finds it back.
    await this.#reachability?.ready();
    if (this.#slots) {
      const waited = this.#reachability?.waiting();
      try {
        await this.#slots.acquire();
      } finally {
        waited?.();
      }
    }
    return new PostgresConnection(this.#context);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return (connection as PostgresConnection).begin(settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return (connection as PostgresConnection).commit();
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return (connection as PostgresConnection).rollback();
  }

  releaseConnection(): Promise<void> {
    this.#slots?.release();
    return Promise.resolve();
  }

  async destroy(): Promise<void> {
    await Promise.all([
      this.#reachability?.close(),
      this.#context.pool.end({ timeout: 5 }),
      ...this.#context.planPools.map((planned) => planned.postgres.end({ timeout: 5 })),
    ]);
  }
}

export class PostgresDialect implements Dialect {
  readonly #sql: postgres.Sql;
  readonly #planPools: readonly PlanPool[];
  readonly #maxConnections: number | undefined;
  readonly #reachability: Reachability | undefined;

  /**
   * `maxConnections`: the postgres.js pool's `max`, to queue queries rather than pipeline (it
   * also bounds the queries running on `planPools`: they all share the slots).
   * `reachability`: watches every operation (503 within seconds while the database is gone).
   */
  constructor(config: {
    postgres: postgres.Sql;
    planPools?: readonly PlanPool[];
    maxConnections?: number;
    reachability?: Reachability;
  }) {
    this.#sql = config.postgres;
    this.#planPools = config.planPools ?? [];
    this.#maxConnections = config.maxConnections;
    this.#reachability = config.reachability;
  }

  createAdapter() {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PostgresDriver(
      this.#sql,
      this.#planPools,
      this.#maxConnections,
      this.#reachability,
    );
  }

  // deno-lint-ignore no-explicit-any
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}
