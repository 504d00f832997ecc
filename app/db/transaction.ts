import { AsyncLocalStorage } from "node:async_hooks";
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type Transaction,
  type TransactionSettings,
} from "kysely";
import type { Database, Db } from "./database.ts";
import { isTransientConflict } from "./db_errors.ts";

/** Runs of a unit of work that lost to a deadlock or serialization failure, at most. */
export const TRANSACTION_ATTEMPTS = 3;

/** The pause before run `n + 1` is drawn from [0.5, 1.5) × this × 2^(n-1) ms. */
const RETRY_BASE_DELAY_MS = 10;

/**
 * Runs `work` in a transaction; when `db` already is a transaction, joins it instead of
 * nesting, so use cases compose (one use case may call another inside its transaction).
 *
 * A top-level transaction that fails with a deadlock (40P01) or a serialization failure
 * (40001) is rolled back and `work` runs again from the start, up to
 * {@link TRANSACTION_ATTEMPTS} runs with a random pause between them (so the transactions that
 * collided do not collide again in step); the last failure goes to the caller (409
 * `concurrent_update`). That is safe because the whole unit of work re-runs: `work` must do
 * nothing outside the transaction that a second run would repeat (ids and times taken before
 * it stay the same across runs). A joined transaction never retries on its own: the error
 * reaches the transaction's owner, which re-runs everything.
 */
export async function withTransaction<T>(
  db: Db,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  if (db.isTransaction) return await work(db as Transaction<Database>);
  for (let attempt = 1;; attempt++) {
    const scope: OpenTransaction = {
      working: false,
      enclosing: openTransactions.getStore(),
    };
    try {
      return await openTransactions.run(
        scope,
        () =>
          (db as Kysely<Database>).transaction().execute((trx) => {
            scope.working = true;
            return work(trx);
          }),
      );
    } catch (error) {
      if (attempt >= TRANSACTION_ATTEMPTS || !isTransientConflict(error)) throw error;
      const delay = RETRY_BASE_DELAY_MS * 2 ** (attempt - 1) * (0.5 + Math.random());
      await new Promise((resolve) => setTimeout(resolve, delay));
    } finally {
      scope.working = false;
    }
  }
}

/** A transaction of `withTransaction`, seen from the work it runs (and what that work calls). */
interface OpenTransaction {
  /** From the moment its work starts until the transaction has ended. */
  working: boolean;
  /** The transaction whose work opened this one, if any. */
  enclosing: OpenTransaction | undefined;
}

const openTransactions = new AsyncLocalStorage<OpenTransaction>();

/**
 * Refuses a connection from the pool to the work of an open transaction: that work must query
 * through its transaction (`trx`). On the embedded engine the transaction holds the only
 * session until it ends, so the query would wait for it forever and every other request behind
 * it; on PostgreSQL it reads outside the transaction and, with every pool connection held by a
 * transaction doing the same, waits until the slot timeout. Failing at once names the caller.
 */
function refuseNestedPoolQuery(): void {
  for (let scope = openTransactions.getStore(); scope; scope = scope.enclosing) {
    if (scope.working) {
      throw new Error(
        "A query through the database pool inside a transaction's work: pass the transaction " +
          "(trx) instead of deps.db",
      );
    }
  }
}

// ------------------------------------------------------------------ request transactions

/** The transaction a request runs in (see {@link withRequestTransaction}). */
interface RequestTransaction {
  /** Its connection, from BEGIN until it ends; then the request's queries use the pool again. */
  connection: DatabaseConnection | undefined;
  /** Between the request's `BEGIN` being asked for and its connection being known. */
  opening: boolean;
  savepoints: number;
  /** Work to run once the request's transaction has committed ({@link afterRequestCommit}). */
  afterCommit: Array<() => Promise<void>>;
}

const requestTransactions = new AsyncLocalStorage<RequestTransaction>();

/**
 * Runs `work` (a whole request: reads, use cases, storing its answer) in ONE transaction, so
 * what the request did and what it answered commit together or not at all (Idempotency-Key,
 * API §1.1/§1.4: a commit whose outcome is unknown leaves either both or neither).
 *
 * Every query the request makes on the database handle (`deps.db`) runs on that transaction's
 * connection ({@link RequestTransactionDialect} routes it), and a `withTransaction` inside it
 * becomes a SAVEPOINT: a use case that fails is rolled back to where it began (and one that
 * lost to a deadlock re-runs), the request's other work stays. The cost: the request holds one
 * connection and its row locks until it has answered.
 */
export async function withRequestTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  const scope: RequestTransaction = {
    connection: undefined,
    opening: true,
    savepoints: 0,
    afterCommit: [],
  };
  try {
    const result = await requestTransactions.run(
      scope,
      () =>
        db.transaction().execute(async (trx) => {
          scope.opening = false;
          if (!scope.connection) {
            throw new Error("The database was not opened with RequestTransactionDialect");
          }
          return await work(trx);
        }),
    );
    // Outside the scope: this work's queries run on the pool, seeing what was committed.
    for (const run of scope.afterCommit.splice(0)) await run();
    return result;
  } finally {
    scope.connection = undefined;
    scope.opening = false;
  }
}

/**
 * Inside a request transaction: queues `run` until that transaction has committed (it is not
 * run if it rolls back) and returns true. Outside one: returns false, and the caller runs it
 * itself (its own transaction has committed).
 */
export function afterRequestCommit(run: () => Promise<void>): boolean {
  const scope = requestTransactions.getStore();
  if (!scope) return false;
  scope.afterCommit.push(run);
  return true;
}

/** A request's query or nested transaction, on the request transaction's connection. */
class JoinedConnection implements DatabaseConnection {
  savepoint: string | undefined;

  constructor(readonly scope: RequestTransaction, readonly target: DatabaseConnection) {}

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return this.target.executeQuery<R>(compiled);
  }

  streamQuery<R>(compiled: CompiledQuery, chunkSize: number): AsyncIterableIterator<
    QueryResult<R>
  > {
    return this.target.streamQuery<R>(compiled, chunkSize);
  }
}

function unwrap(connection: DatabaseConnection): DatabaseConnection {
  return connection instanceof JoinedConnection ? connection.target : connection;
}

class RequestTransactionDriver implements Driver {
  constructor(readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  acquireConnection(): Promise<DatabaseConnection> {
    const scope = requestTransactions.getStore();
    if (scope?.connection) return Promise.resolve(new JoinedConnection(scope, scope.connection));
    refuseNestedPoolQuery();
    return this.inner.acquireConnection();
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof JoinedConnection) return Promise.resolve();
    return this.inner.releaseConnection(connection);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    if (connection instanceof JoinedConnection) {
      connection.savepoint = `request_step_${++connection.scope.savepoints}`;
      await connection.executeQuery(CompiledQuery.raw(`savepoint ${connection.savepoint}`));
      return;
    }
    await this.inner.beginTransaction(connection, settings);
    const scope = requestTransactions.getStore();
    if (scope?.opening && !scope.connection) scope.connection = connection;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof JoinedConnection) {
      await connection.executeQuery(CompiledQuery.raw(`release savepoint ${connection.savepoint}`));
      return;
    }
    await this.inner.commitTransaction(connection);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof JoinedConnection) {
      const name = connection.savepoint;
      await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${name}`));
      await connection.executeQuery(CompiledQuery.raw(`release savepoint ${name}`));
      return;
    }
    await this.inner.rollbackTransaction(connection);
  }

  savepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler["compileQuery"],
  ): Promise<void> {
    return this.inner.savepoint!(unwrap(connection), name, compile);
  }

  rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler["compileQuery"],
  ): Promise<void> {
    return this.inner.rollbackToSavepoint!(unwrap(connection), name, compile);
  }

  releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler["compileQuery"],
  ): Promise<void> {
    return this.inner.releaseSavepoint!(unwrap(connection), name, compile);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/**
 * Wraps a dialect so {@link withRequestTransaction} works: inside a request transaction, every
 * query goes to its connection and a nested transaction becomes a savepoint. The wrapped
 * adapter must allow several connections (Kysely's single-connection mutex would make the
 * request's own queries wait for its transaction): pglite_dialect.ts serializes itself.
 */
export class RequestTransactionDialect implements Dialect {
  constructor(readonly inner: Dialect) {}

  createAdapter(): DialectAdapter {
    return this.inner.createAdapter();
  }

  createDriver(): Driver {
    return new RequestTransactionDriver(this.inner.createDriver());
  }

  // deno-lint-ignore no-explicit-any
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return this.inner.createIntrospector(db);
  }

  createQueryCompiler(): QueryCompiler {
    return this.inner.createQueryCompiler();
  }
}
