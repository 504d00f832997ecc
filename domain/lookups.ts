/**
 * Lookup tables (`{ id, value, label, isBuiltIn }`: unit statuses, item conditions, id types):
 * the rules every lookup shares, whichever feature owns the table.
 */
import { ConflictError } from "./errors.ts";

export interface LookupSeed {
  value: string;
  label: string;
}

/** Lowercase snake_case: starts with a letter, words of letters/digits joined by `_`. */
export const LOOKUP_VALUE_PATTERN = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** Built-in values cannot be deleted (409 `built_in`). */
export function assertDeletableLookup(value: { value: string; isBuiltIn: boolean }): void {
  if (value.isBuiltIn) {
    throw new ConflictError("built_in", `"${value.value}" is built in and cannot be deleted`);
  }
}
