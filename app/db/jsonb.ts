import { type RawBuilder, sql } from "kysely";

/**
 * A jsonb parameter that both engines store as the JSON value. (postgres.js would encode a
 * string bound straight to a jsonb column a second time, storing a JSON string.)
 */
export function jsonb<T>(value: T): RawBuilder<T> {
  return sql<T>`${JSON.stringify(value)}::text::jsonb`;
}

/** `jsonb()` that keeps SQL NULL for null/undefined. */
export function nullableJsonb<T>(value: T | null | undefined): RawBuilder<T> | null {
  return value === null || value === undefined ? null : jsonb(value);
}
