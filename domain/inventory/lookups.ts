/**
 * Lookup tables (unit statuses, item conditions): built-in values that every store has,
 * and the rules for custom ones.
 */
import type { LookupSeed } from "../lookups.ts";

export { assertDeletableLookup, LOOKUP_VALUE_PATTERN, type LookupSeed } from "../lookups.ts";

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
