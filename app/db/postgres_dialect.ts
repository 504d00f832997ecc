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

/** Error codes of postgres.js and the OS that mean the connection itself is gone. */
const CONNECTION_LOST = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "57P01",
  "57P02",
]);

function isConnectionLost(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && CONNECTION_LOST.has(code);
}

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

class PostgresConnection implements DatabaseConnection {
  readonly #pool: postgres.Sql;
  #tx: postgres.TransactionSql | undefined;
  #finish: ((commit: boolean) => void) | undefined;
  #done: Promise<unknown> | undefined;
  #lost = false;

  constructor(pool: postgres.Sql) {
    this.#pool = pool;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#lost) throw connectionLostError();
    const runner = this.#tx ?? this.#pool;
    try {
      const result = await runner.unsafe(
        compiled.sql,
        compiled.parameters as postgres.ParameterOrJSON<never>[],
        { prepare: true },
      );
      return toQueryResult<R>(result);
    } catch (error) {
      if (this.#tx && isConnectionLost(error)) this.#lost = true;
      throw error;
    }
  }

  async *streamQuery<R>(compiled: CompiledQuery, chunkSize = 100): AsyncIterableIterator<
    QueryResult<R>
  > {
    if (this.#lost) throw connectionLostError();
    const runner = this.#tx ?? this.#pool;
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
    const body = (tx: postgres.TransactionSql) => {
      this.#tx = tx;
      started();
      return new Promise<void>((resolve, reject) => {
        this.#finish = (commit) => (commit ? resolve() : reject(ROLLBACK));
      });
    };
    const options = beginOptions(settings);
    const done = options ? this.#pool.begin(options, body) : this.#pool.begin(body);
    this.#done = done.catch((error) => {
      if (error === ROLLBACK) return;
      // The connection dropped (postgres.js rejects begin at once) or COMMIT failed.
      if (isConnectionLost(error)) this.#lost = true;
      throw error;
    });
    // BEGIN itself may fail (database unreachable): then `done` rejects before `ready`.
    await Promise.race([ready, this.#done]);
  }

  async commit(): Promise<void> {
    try {
      if (this.#lost) throw connectionLostError();
      this.#finish?.(true);
      await this.#done;
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
      await this.#done?.catch((error) => {
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

class PostgresDriver implements Driver {
  readonly #sql: postgres.Sql;

  constructor(sql: postgres.Sql) {
    this.#sql = sql;
  }

  async init(): Promise<void> {}

  acquireConnection(): Promise<DatabaseConnection> {
    return Promise.resolve(new PostgresConnection(this.#sql));
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

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    await this.#sql.end({ timeout: 5 });
  }
}

export class PostgresDialect implements Dialect {
  readonly #sql: postgres.Sql;

  constructor(config: { postgres: postgres.Sql }) {
    this.#sql = config.postgres;
  }

  createAdapter() {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PostgresDriver(this.#sql);
  }

  // deno-lint-ignore no-explicit-any
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}
