/**
 * Hot statements compiled by Kysely once and then run with each call's values: building and
 * compiling a query costs about 20 µs and a few hundred short-lived objects, as much as the
 * rest of a primary-key lookup's work in the app (measured on `GET /v1/scan/:code`).
 *
 * A statement is known by a key that must determine its SQL text completely (a lookup has one;
 * a statement whose clauses depend on the input has one per shape), and `values` must list its
 * parameters in order. The first call of a key builds and compiles the query and compares its
 * parameters with `values`: the SQL is remembered only when they are identical, so a wrong
 * `values` list costs speed, never correctness.
 */
import { type Compilable, CompiledQuery } from "kysely";
import type { Db } from "./database.ts";

/** Shapes per statement family beyond which new ones are compiled every time. */
const DEFAULT_MAX_SHAPES = 64;

export class CompiledStatements {
  readonly #sql = new Map<string, string>();
  readonly #maxShapes: number;

  /** `maxShapes` only bounds a mistake (a key that does not determine the text). */
  constructor(maxShapes = DEFAULT_MAX_SHAPES) {
    this.#maxShapes = maxShapes;
  }

  /** How many statements are remembered. */
  get size(): number {
    return this.#sql.size;
  }

  async run<O>(
    db: Db,
    key: string,
    values: readonly unknown[],
    compile: () => CompiledQuery<O>,
  ): Promise<O[]> {
    const known = this.#sql.get(key);
    if (known !== undefined) {
      return (await db.executeQuery<O>(CompiledQuery.raw(known, [...values]))).rows;
    }
    const compiled = compile();
    const same = compiled.parameters.length === values.length &&
      compiled.parameters.every((value, i) => value === values[i]);
    if (same && this.#sql.size < this.#maxShapes) this.#sql.set(key, compiled.sql);
    return (await db.executeQuery<O>(compiled)).rows;
  }
}

/**
 * A query that another statement embeds (e.g. in a CTE), known by a `key` that determines its
 * SQL text and its parameters in order, so the embedding statement can be compiled once.
 */
export interface KeyedQuery<O> {
  key: string;
  values: readonly unknown[];
  build(): Compilable<O>;
}

/** One statement whose text never changes: `build(db, ...values)` passes exactly `values`. */
export function compiledOnce<V extends readonly unknown[], O>(
  build: (db: Db, ...values: V) => Compilable<O>,
): (db: Db, ...values: V) => Promise<O[]> {
  const statements = new CompiledStatements();
  return (db, ...values) => statements.run(db, "", values, () => build(db, ...values).compile());
}
