/**
 * Lookup tables (unit statuses, item conditions): built-in values that every store has,
 * and the rules for custom ones.
 */
import { ConflictError } from "../errors.ts";

export interface LookupSeed {
  value: string;
  label: string;
}

export const BUILT_IN_UNIT_STATUSES: readonly LookupSeed[] = [
  { value: "in_stock", label: "In stock" },
  { value: "sold", label: "Sold" },
  { value: "rented", label: "Rented" },
  { value: "in_repair", label: "In repair" },
  { value: "reserved", label: "Reserved" },
  { value: "retired", label: "Retired" },
];

export const BUILT_IN_ITEM_CONDITIONS: readonly LookupSeed[] = [
  { value: "new", label: "New" },
  { value: "excellent", label: "Excellent" },
  { value: "good", label: "Good" },
  { value: "fair", label: "Fair" },
  { value: "poor", label: "Poor" },
];

/** Lowercase snake_case: starts with a letter, words of letters/digits joined by `_`. */
export const LOOKUP_VALUE_PATTERN = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

export function assertDeletableLookup(value: { value: string; isBuiltIn: boolean }): void {
  if (value.isBuiltIn) {
    throw new ConflictError("built_in", `"${value.value}" is built in and cannot be deleted`);
  }
}
