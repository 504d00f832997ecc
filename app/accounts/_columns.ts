/** The partial-update helper the accounts repositories share (folder-private). */
import { nullableJsonb } from "../db/jsonb.ts";
import type { AddressJson } from "../db/column_types.ts";

/**
 * Only the keys present in `changes` (undefined = leave alone), renamed to their columns; an
 * `address` column is written as jsonb.
 */
export function pickColumns(
  changes: object,
  columns: Record<string, string>,
): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(columns)) {
    const value = (changes as Record<string, unknown>)[key];
    if (value === undefined) continue;
    set[column] = column === "address" ? nullableJsonb(value as AddressJson | null) : value;
  }
  return set;
}
