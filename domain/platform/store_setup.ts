/**
 * When a shop counts as set up (the first-run step, `ops setup`): the seeds write a store row
 * with placeholder values so the API works at once; a shop that still carries the placeholder
 * name, or has no location to sell at, has not been set up yet. The server's start-up hint and
 * `ops setup` (which then wants every setting named) judge it by this one rule.
 */

/** What the seeds write into the store row (app/platform/seed.ts). */
export const SEED_STORE = { name: "My Shop", timezone: "America/New_York" } as const;

/** What the shop still lacks, in words (empty once it is set up). */
export function storeSetupGaps(shop: { storeName: string; hasLocation: boolean }): string[] {
  const gaps: string[] = [];
  if (shop.storeName === SEED_STORE.name) gaps.push("the store's name");
  if (!shop.hasLocation) gaps.push("a location");
  return gaps;
}
