/** The lists known to be large (app/db/pagination.ts): a page of one counts nothing. */

/**
 * Lists known to match more than the cap, by statement (SQL text and values): their
 * estimate, remembered for a minute (a total above the cap is an estimate anyway).
 */
const LARGE_LISTS = new Map<string, { estimate: number; until: number }>();
const LARGE_FOR_MS = 60_000;
const MAX_LARGE_LISTS = 2_000;

/** The remembered estimate of the list `key`, while it is remembered. */
export function knownLarge(key: string): number | undefined {
  const known = LARGE_LISTS.get(key);
  if (!known) return undefined;
  if (known.until > performance.now()) return known.estimate;
  LARGE_LISTS.delete(key);
  return undefined;
}

export function rememberLarge(key: string, estimate: number): void {
  if (LARGE_LISTS.size >= MAX_LARGE_LISTS) LARGE_LISTS.clear();
  LARGE_LISTS.set(key, { estimate, until: performance.now() + LARGE_FOR_MS });
}
