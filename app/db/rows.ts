/**
 * Small row-level helpers shared by the repositories: existence checks, "did it touch a row"
 * results, soft deletes and timestamp text. Typed against `Database`; the SQL they run is
 * the same every repository would otherwise write by hand.
 */
import { type DeleteResult, sql, type UpdateResult } from "kysely";
import type { Database, Db } from "./database.ts";

/** Tables whose rows are keyed by a text `id` column. */
export type TableWithId = {
  [T in keyof Database]: Database[T] extends { id: string } ? T : never;
}[keyof Database];

/** Tables that are soft-deleted (`deleted_at` set, `updated_at` bumped). */
export type SoftDeletableTable = "accounts" | "products" | "suppliers" | "units";

const pad2 = (n: number) => (n < 10 ? "0" : "") + n;
const pad3 = (n: number) => (n < 10 ? "00" : n < 100 ? "0" : "") + n;

/**
 * ISO 8601 text of a timestamp column (a Date on both engines; a string is parsed), exactly
 * as `toISOString()` writes it. Built by hand because V8 formats `toISOString()` through
 * snprintf, ~4× slower, and a list page formats every row's timestamps.
 */
export function isoString(value: Date | string): string {
  const date = value instanceof Date ? value : new Date(value);
  const year = date.getUTCFullYear();
  // Years outside 1000–9999 (and invalid dates, NaN) take the built-in path.
  if (!(year >= 1000 && year <= 9999)) return date.toISOString();
  return `${year}-${pad2(date.getUTCMonth() + 1)}-${pad2(date.getUTCDate())}T${
    pad2(date.getUTCHours())
  }:${pad2(date.getUTCMinutes())}:${pad2(date.getUTCSeconds())}.${
    pad3(date.getUTCMilliseconds())
  }Z`;
}

/** `isoString()` that keeps null. */
export function isoStringOrNull(value: Date | string | null): string | null {
  return value === null ? null : isoString(value);
}

/** Whether the query finds a row (it is run; `undefined` from `executeTakeFirst` = none). */
export async function hasRow(query: { executeTakeFirst(): Promise<unknown> }): Promise<boolean> {
  return (await query.executeTakeFirst()) !== undefined;
}

/** Whether a row with this `id` exists in `table`. */
export async function idExists(db: Db, table: TableWithId, id: string): Promise<boolean> {
  const { rows } = await sql`SELECT 1 FROM ${sql.table(table)} WHERE id = ${id}`.execute(db);
  return rows.length > 0;
}

/** Whether an UPDATE or DELETE touched at least one row. */
export function touchedAny(result: UpdateResult | DeleteResult): boolean {
  return Number("numUpdatedRows" in result ? result.numUpdatedRows : result.numDeletedRows) > 0;
}

/** Deletes the row with this `id`; whether there was one. */
export async function deleteById(db: Db, table: TableWithId, id: string): Promise<boolean> {
  return touchedAny(await db.deleteFrom(table).where("id", "=", id).executeTakeFirst());
}

/** Soft-deletes a live row (`deleted_at` still null); whether there was one. */
export async function softDeleteById(
  db: Db,
  table: SoftDeletableTable,
  id: string,
  now: Date,
): Promise<boolean> {
  return touchedAny(
    await db.updateTable(table).set({ deleted_at: now, updated_at: now })
      .where("id", "=", id).where("deleted_at", "is", null).executeTakeFirst(),
  );
}

/**
 * `<alias>.<name> AS <prefix><name>` for each of `names`: a record's columns beside other
 * records' in one statement (the counter's scan answers the product or unit it found without
 * a second query), read back with {@link columnsWithPrefix}.
 */
export function selectWithPrefix(alias: string, prefix: string, names: readonly string[]) {
  return sql.join(
    names.map((name) => sql`${sql.ref(`${alias}.${name}`)} AS ${sql.ref(`${prefix}${name}`)}`),
  );
}

/**
 * The columns {@link selectWithPrefix} selected, under their own names; undefined when the
 * record was not there (its `<prefix>id` is null, as a LEFT JOIN leaves it).
 */
export function columnsWithPrefix(
  row: Record<string, unknown>,
  prefix: string,
  names: readonly string[],
): Record<string, unknown> | undefined {
  const keys = prefixedKeys(prefix, names);
  if (row[keys.id] == null) return undefined;
  const columns: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) columns[names[i]!] = row[keys.prefixed[i]!];
  return columns;
}

/**
 * The prefixed names of `names`, made once per list and prefix: a hot read (the counter's scan)
 * otherwise built every key string again for every row.
 */
const PREFIXED_KEYS = new WeakMap<
  readonly string[],
  Map<string, { id: string; prefixed: string[] }>
>();

function prefixedKeys(prefix: string, names: readonly string[]) {
  let byPrefix = PREFIXED_KEYS.get(names);
  if (!byPrefix) PREFIXED_KEYS.set(names, byPrefix = new Map());
  let keys = byPrefix.get(prefix);
  if (!keys) {
    keys = { id: `${prefix}id`, prefixed: names.map((name) => `${prefix}${name}`) };
    byPrefix.set(prefix, keys);
  }
  return keys;
}
