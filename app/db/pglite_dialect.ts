/**
 * Kysely's `PGliteDialect` hands its single connection to every caller at once, so two
 * concurrent transactions (two HTTP requests) would interleave inside one PGlite session.
 * This dialect serializes connection use with a FIFO mutex: a transaction owns the session
 * from BEGIN to COMMIT, and single queries wait their turn. PostgreSQL (postgres.js) has a
 * real pool and does not need this.
 */
import type { PGlite } from "@electric-sql/pglite";
import {
  type CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  PGliteAdapter,
  PGliteDialect,
  type PGliteDialectConfig,
  type QueryCompiler,
  type TransactionSettings,
} from "kysely";
import { PreparedStatements } from "./pglite_statements.ts";

class ConnectionMutex {
  #tail: Promise<void> = Promise.resolve();

  /** Resolves with the release function once every earlier holder has released. */
  lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const acquired = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => next);
    return acquired;
  }
}

/** Where a connection of this dialect carries its PGlite (see {@link exclusivePGlite}). */
const PGLITE = Symbol("pglite");

/**
 * The PGlite behind a connection of this dialect, for what Kysely cannot say (COPY through
 * `/dev/blob`, app/backup). Whoever holds the connection (Kysely's `provideConnection`) holds
 * the session: nothing else runs on it until it is released. Undefined on other dialects.
 */
export function exclusivePGlite(connection: DatabaseConnection): PGlite | undefined {
  return (connection as { [PGLITE]?: PGlite })[PGLITE];
}

class SerializedDriver implements Driver {
  readonly #inner: Driver;
  readonly #mutex = new ConnectionMutex();
  readonly #releases: Array<() => void> = [];
  readonly #pglite: PGlite | undefined;
  readonly #statements: PreparedStatements | undefined;
  readonly #withStatements = new WeakSet<DatabaseConnection>();

  constructor(inner: Driver, pglite: PGlite | undefined) {
    this.#inner = inner;
    this.#pglite = pglite;
    this.#statements = pglite && new PreparedStatements(pglite);
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#mutex.lock();
    this.#releases.push(release);
    const connection = await this.#inner.acquireConnection();
    if (this.#pglite) Object.defineProperty(connection, PGLITE, { value: this.#pglite });
    this.#runStatementsPrepared(connection);
    return connection;
  }

  /** The connection's queries go through the statement cache (pglite_statements.ts). */
  #runStatementsPrepared(connection: DatabaseConnection): void {
    const statements = this.#statements;
    if (!statements || this.#withStatements.has(connection)) return;
    this.#withStatements.add(connection);
    const unprepared = connection.executeQuery.bind(connection);
    Object.defineProperty(connection, "executeQuery", {
      value: (query: CompiledQuery) => statements.execute(query, unprepared),
    });
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    // Only one holder exists at a time, so the queue holds exactly its release.
    this.#releases.shift()?.();
    return this.#inner.releaseConnection(connection);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    this.#statements?.forgetPlanMode();
    return this.#inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    this.#statements?.forgetPlanMode();
    return this.#inner.rollbackTransaction(connection);
  }

  savepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler["compileQuery"],
  ): Promise<void> {
    return this.#inner.savepoint!(connection, name, compile);
  }

  rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler["compileQuery"],
  ): Promise<void> {
    this.#statements?.forgetPlanMode();
    return this.#inner.rollbackToSavepoint!(connection, name, compile);
  }

  releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler["compileQuery"],
  ): Promise<void> {
    return this.#inner.releaseSavepoint!(connection, name, compile);
  }

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}

/**
 * Kysely's PGlite adapter asks for its own single-connection mutex; the driver above already
 * serializes, and a request transaction (transaction.ts `withRequestTransaction`) runs its own
 * queries on the connection it holds, which Kysely's mutex would make wait for itself.
 */
class SerializedPGliteAdapter extends PGliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

export class SerializedPGliteDialect extends PGliteDialect {
  readonly #pglite: PGlite | undefined;

  constructor(config: PGliteDialectConfig) {
    super(config);
    this.#pglite = typeof config.pglite === "function" ? undefined : config.pglite as PGlite;
  }

  override createAdapter(): DialectAdapter {
    return new SerializedPGliteAdapter();
  }

  override createDriver(): Driver {
    return new SerializedDriver(super.createDriver(), this.#pglite);
  }
}
