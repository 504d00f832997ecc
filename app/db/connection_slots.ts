/**
 * At most `size` database connections in use at once (a single query, or a whole
 * transaction, holds one); further callers wait in arrival order.
 *
 * postgres.js sends a query to a busy connection rather than queueing it (pipelining up to
 * 100 deep), so without this a search could wait behind a slow report that happened to run on
 * the same connection, and under load PostgreSQL would run more backends than it has cores.
 * Queueing here keeps every query on a free connection and the database's concurrency at the
 * pool size.
 *
 * A waiter gives up after `waitTimeoutMs` (the database is overloaded: 503, try again), and
 * all waiters fail at once when a connection cannot be opened (the database is unreachable:
 * they would only wait for the same timeout in turn).
 */
export class ConnectionSlots {
  readonly #waitTimeoutMs: number;
  #free: number;
  readonly #waiters: Waiter[] = [];

  constructor(size: number, waitTimeoutMs: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError("size must be ≥ 1");
    this.#free = size;
    this.#waitTimeoutMs = waitTimeoutMs;
  }

  /** Slots neither held nor promised; callers waiting. */
  get free(): number {
    return this.#free;
  }

  get waiting(): number {
    return this.#waiters.length;
  }

  acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          this.#remove(waiter);
          reject(poolTimeoutError(this.#waitTimeoutMs));
        }, this.#waitTimeoutMs),
      };
      this.#waiters.push(waiter);
    });
  }

  /** Hands the slot to the longest waiter, or frees it. */
  release(): void {
    const next = this.#waiters.shift();
    if (next) {
      clearTimeout(next.timer);
      next.resolve();
    } else {
      this.#free++;
    }
  }

  /** Rejects every waiter with `error` (their slots stay where they are). */
  failWaiters(error: unknown): void {
    for (const waiter of this.#waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
  }

  #remove(waiter: Waiter): void {
    const at = this.#waiters.indexOf(waiter);
    if (at >= 0) this.#waiters.splice(at, 1);
  }
}

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
  timer: ReturnType<typeof setTimeout>;
}

/** The `code` of a wait that timed out; the HTTP layer answers it 503 (server/errors.ts). */
export const POOL_TIMEOUT = "POOL_TIMEOUT";

function poolTimeoutError(ms: number): Error {
  return Object.assign(
    new Error(`No database connection became free within ${ms} ms`),
    { code: POOL_TIMEOUT },
  );
}
