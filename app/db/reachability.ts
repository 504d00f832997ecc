/**
 * Whether the PostgreSQL server can be reached, as the driver finds out, so that every request
 * is answered within 5 s while it cannot, with 503 and never a hang (API §1.1), whatever stage
 * the request is in: connecting, waiting for a connection, mid-query, mid-commit.
 *
 * postgres.js alone does not guarantee that. With the server stopped under load
 * (`pg_ctl stop -m immediate`), some of its queries settled only after 9 s or never (a
 * connection closed while it is being opened, for one, is reopened with its query still
 * waiting), and others failed with errors nobody translated (500). So the driver runs every
 * database operation (a query,
 * BEGIN, COMMIT, ROLLBACK) through {@link Reachability.watch}, and registers its waits for a
 * free connection ({@link Reachability.waiting}):
 * - an error saying a connection could not be opened (refused, connect timeout, 57P03) marks
 *   the database down at once;
 * - an error saying a connection was lost, or an operation (or wait) pending longer than
 *   `checkAfterMs`, makes it check: a probe over a connection of its own that does not answer
 *   within `probeTimeoutMs` marks the database down;
 * - down: every watched operation fails at once with {@link DATABASE_UNREACHABLE} (503), so do
 *   the callers waiting for a connection (`onDown`); a new operation first waits for a probe
 *   ({@link Reachability.ready}: one at a time, shared), whose success brings the database
 *   back up (the process recovers by itself, at the first request after the server is back);
 * - a probe that answers from a server started after an operation began fails that operation:
 *   its connection went with the old server.
 * A slow query on a reachable server is left alone: the probe answers.
 */
import {
  CONNECT_FAILED,
  CONNECTION_LOST,
  DATABASE_UNREACHABLE,
  errorCode,
  unreachableError,
} from "./db_errors.ts";

/** Asks the server, over a connection of its own, how long it has been running. */
export interface Probe {
  /**
   * The server's uptime in ms; `Infinity` when it answered but not the question (too many
   * connections, say: it is reachable); rejects when it cannot be reached.
   */
  uptimeMs(): Promise<number>;
  /** Drops the probe's connection (after a failed probe, and on close). */
  reset(): Promise<void>;
}

export interface ReachabilityTimings {
  checkAfterMs: number;
  probeTimeoutMs: number;
}

/** Detection within ~1.25 + 1.5 s, leaving the rest of the 5 s for the answer. */
export const DEFAULT_TIMINGS: ReachabilityTimings = { checkAfterMs: 1_000, probeTimeoutMs: 1_500 };

interface Pending {
  since: number;
  fail(error: Error): void;
}

/**
 * What an ended operation's entry fails with: nothing. An entry lets go of its promise when it
 * ends: removed from the Set but still holding `reject`, it kept the promise and the query's rows
 * alive through V8's young-generation collections until the next full one (measured with
 * 25-row queries: 19-22% of the young generation survived each scavenge instead of 2-4%, and
 * pauses took 5.7 ms instead of 0.7; tests/platform/query_garbage_test.ts).
 */
function ended(): void {}

export class Reachability {
  readonly #probe: Probe;
  readonly #timings: ReachabilityTimings;
  readonly #pending = new Set<Pending>();
  readonly #downListeners: Array<(error: Error) => void> = [];
  #down = false;
  #checking: Promise<boolean> | undefined;
  #lastCheck = Number.NEGATIVE_INFINITY;
  #ticker: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(probe: Probe, timings: ReachabilityTimings = DEFAULT_TIMINGS) {
    this.#probe = probe;
    this.#timings = timings;
  }

  get isDown(): boolean {
    return this.#down;
  }

  /** Called with the error whenever the database is found down. */
  onDown(listener: (error: Error) => void): void {
    this.#downListeners.push(listener);
  }

  /**
   * Before an operation takes a connection: at once while the database is up; while it is
   * down, waits for the probe under way or starts one, and fails with
   * {@link DATABASE_UNREACHABLE} unless it found the database back.
   */
  async ready(): Promise<void> {
    if (this.#down && !(await this.check())) throw unreachableError();
  }

  /**
   * `operation`'s outcome, or {@link DATABASE_UNREACHABLE} as soon as the database is found
   * unreachable (or restarted) while it is pending; its errors are looked at (see the top).
   */
  watch<T>(operation: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = { since: performance.now(), fail: reject };
      this.#add(pending);
      operation.then(
        (value) => {
          this.#end(pending);
          resolve(value);
        },
        (error) => {
          // Given up already (503): its own error may come long after, from a connection
          // attempt begun while the server was gone, when the server is back.
          const givenUp = pending.fail === ended;
          this.#end(pending);
          if (givenUp) this.#noteLateError(error);
          else this.noteError(error);
          reject(error);
        },
      );
    });
  }

  /** Registers a wait for a free connection (checked like an operation); call the result when it ends. */
  waiting(): () => void {
    const pending: Pending = { since: performance.now(), fail: ended };
    this.#add(pending);
    return () => this.#remove(pending);
  }

  /** Looks at an error of the database connection (others are ignored). */
  noteError(error: unknown): void {
    const code = errorCode(error) ?? "";
    if (code === DATABASE_UNREACHABLE) return;
    if (CONNECT_FAILED.has(code)) this.#markDown(unreachableError());
    else if (CONNECTION_LOST.has(code)) void this.check();
  }

  /**
   * An error of an operation given up earlier says the database was unreachable then, not
   * that it is now: marking it down at once would fail every operation begun since it came
   * back (seen under load: a query queued on a connection that kept reopening settled with
   * its connect error after the restart). Only a probe decides.
   */
  #noteLateError(error: unknown): void {
    const code = errorCode(error) ?? "";
    if (code === DATABASE_UNREACHABLE) return;
    if (CONNECT_FAILED.has(code) || CONNECTION_LOST.has(code)) void this.check();
  }

  /**
   * Probes the server (one probe at a time): resolves to whether it answered within
   * `probeTimeoutMs`; marks the database down or up accordingly.
   */
  check(): Promise<boolean> {
    if (this.#checking) return this.#checking;
    const started = performance.now();
    const check = this.#runProbe().then((uptimeMs) => {
      this.#lastCheck = performance.now();
      this.#checking = undefined;
      if (uptimeMs === undefined) {
        this.#markDown(unreachableError());
        return false;
      }
      this.#down = false;
      // Operations begun before the server started were on connections to the old one.
      const serverStarted = started - uptimeMs;
      for (const pending of [...this.#pending]) {
        if (pending.since < serverStarted) this.#fail(pending, unreachableError());
      }
      return true;
    });
    this.#checking = check;
    return check;
  }

  /** Stops checking (the database handle is closing). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#stopTicker();
    await this.#probe.reset().catch(() => {});
  }

  async #runProbe(): Promise<number | undefined> {
    if (this.#closed) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), this.#timings.probeTimeoutMs);
    });
    try {
      const uptime = await Promise.race([
        this.#probe.uptimeMs().catch(() => undefined),
        timeout,
      ]);
      if (uptime === undefined) await this.#probe.reset().catch(() => {});
      return uptime;
    } finally {
      clearTimeout(timer);
    }
  }

  #markDown(error: Error): void {
    this.#down = true;
    for (const pending of [...this.#pending]) this.#fail(pending, error);
    for (const listener of this.#downListeners) listener(error);
  }

  #fail(pending: Pending, error: Error): void {
    this.#remove(pending);
    const fail = pending.fail;
    pending.fail = ended; // Given up: see watch.
    fail(error);
  }

  /** Removes an operation that settled, and lets go of its promise (see `ended`). */
  #end(pending: Pending): void {
    pending.fail = ended;
    this.#remove(pending);
  }

  #add(pending: Pending): void {
    this.#pending.add(pending);
    if (this.#ticker === undefined && !this.#closed) {
      this.#ticker = setInterval(() => this.#sweep(), this.#timings.checkAfterMs / 4);
    }
  }

  #remove(pending: Pending): void {
    this.#pending.delete(pending);
    if (this.#pending.size === 0) this.#stopTicker();
  }

  #stopTicker(): void {
    if (this.#ticker !== undefined) clearInterval(this.#ticker);
    this.#ticker = undefined;
  }

  /** Checks (at most once per `checkAfterMs`) when something has been pending that long. */
  #sweep(): void {
    const now = performance.now();
    if (this.#checking || now - this.#lastCheck < this.#timings.checkAfterMs) return;
    for (const pending of this.#pending) {
      if (now - pending.since >= this.#timings.checkAfterMs) {
        void this.check();
        return;
      }
    }
  }
}
