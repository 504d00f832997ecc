/**
 * Who may do what in a vault category (API §12). A category grants a level (view < edit <
 * admin) to a role or a user; the caller's vault permission sets a ceiling:
 *  - `vault.view` → at most view;
 *  - `vault.edit` → at most admin (the grants decide, per category);
 *  - `vault.admin` → admin on every category, with or without grants.
 * Effective level = min(highest granted level, ceiling). No level → the category (and its
 * entries) does not exist for the caller (404).
 */
import type { Permission } from "../auth/permissions.ts";

export const VAULT_LEVELS = ["view", "edit", "admin"] as const;
export type VaultLevel = typeof VAULT_LEVELS[number];

/** view 1, edit 2, admin 3 (0: no level). */
export const LEVEL_RANK: Readonly<Record<VaultLevel, number>> = { view: 1, edit: 2, admin: 3 };

export function levelOfRank(rank: number): VaultLevel | null {
  return VAULT_LEVELS[rank - 1] ?? null;
}

/**
 * How the caller's permissions bound the levels of grants: `all` when they reach every
 * category without a grant (vault.admin), else the highest rank a grant can give them
 * (0 without any vault permission).
 */
export type VaultCeiling = { all: true } | { all: false; maxRank: number };

export function ceilingOf(permissions: ReadonlySet<Permission>): VaultCeiling {
  if (permissions.has("vault.admin")) return { all: true };
  if (permissions.has("vault.edit")) return { all: false, maxRank: LEVEL_RANK.admin };
  if (permissions.has("vault.view")) return { all: false, maxRank: LEVEL_RANK.view };
  return { all: false, maxRank: 0 };
}

/** The effective level given the highest granted rank (0 or null: no grant). */
export function effectiveLevel(
  grantedRank: number | null,
  ceiling: VaultCeiling,
): VaultLevel | null {
  if (ceiling.all) return "admin";
  return levelOfRank(Math.min(grantedRank ?? 0, ceiling.maxRank));
}

export function hasLevel(level: VaultLevel | null, needed: VaultLevel): boolean {
  return level !== null && LEVEL_RANK[level] >= LEVEL_RANK[needed];
}
