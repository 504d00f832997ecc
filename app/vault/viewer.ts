/**
 * Who looks at the vault: the caller's user id and the ceiling their vault permissions set
 * (domain/vault/access.ts). The repositories turn it into ONE query per list or record: the
 * caller's grants (directly and through their roles) are aggregated per category in the same
 * statement, never looked up category by category.
 */
import { ceilingOf, type VaultCeiling } from "../../domain/vault/access.ts";
import type { Actor } from "../actor.ts";

export interface VaultViewer {
  userId: string | null;
  ceiling: VaultCeiling;
}

export function viewerOf(actor: Actor): VaultViewer {
  return { userId: actor.userId, ceiling: ceilingOf(actor.permissions) };
}
