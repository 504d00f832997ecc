/**
 * The storage hub's access rule (API §11), pure: what a caller may do on a folder follows from
 * the facts ONE query gathers about the folder's chain (the folder and its ancestors) and the
 * caller's global storage permission.
 *
 *  - Levels are ordered traverse < view < edit < admin.
 *  - Granted level: the highest grant to the user or any of their roles on the folder or any
 *    ancestor; a public folder (or a public ancestor) acts as a `view` grant to everyone.
 *  - Ceiling: storage.view → view, storage.edit → admin, storage.admin → admin on every folder
 *    without grants; without storage.view nothing is reachable.
 *  - Effective level = min(granted, ceiling); "none" means the folder is unknown to the caller.
 */
import type { Permission } from "../auth/permissions.ts";
import { ForbiddenError, InvalidReferenceError, NotFoundError } from "../errors.ts";

export const LEVELS = ["traverse", "view", "edit", "admin"] as const;
export type Level = typeof LEVELS[number];
/** A caller's level on a folder: one of the levels, or "none" (the folder is invisible). */
export type EffectiveLevel = Level | "none";

/** 0 for "none" (and anything that is not a level), 1 traverse … 4 admin. */
export function levelRank(level: string): number {
  return (LEVELS as readonly string[]).indexOf(level) + 1;
}

function levelOfRank(rank: number): EffectiveLevel {
  return rank <= 0 ? "none" : LEVELS[Math.min(rank, LEVELS.length) - 1]!;
}

/** The highest of `levels` ("none" for an empty list; strings that are no level count as none). */
export function highestLevel(levels: readonly string[]): EffectiveLevel {
  let rank = 0;
  for (const level of levels) rank = Math.max(rank, levelRank(level));
  return levelOfRank(rank);
}

/** What the access query returns about one folder's chain, for one caller. */
export interface ChainFacts {
  /** Levels of the grants to the caller or their roles on the folder and its ancestors. */
  grantLevels: readonly string[];
  /** Whether the folder or one of its ancestors is public. */
  publicInChain: boolean;
}

/** Facts of a child of a folder whose chain facts are `parent`. */
export function childFacts(
  parent: ChainFacts,
  child: { ownGrantLevels: readonly string[]; isPublic: boolean },
): ChainFacts {
  return {
    grantLevels: [...parent.grantLevels, ...child.ownGrantLevels],
    publicInChain: parent.publicInChain || child.isPublic,
  };
}

/** The highest level a holder of `permissions` can reach on any folder. */
export function storageCeiling(permissions: ReadonlySet<Permission>): EffectiveLevel {
  if (permissions.has("storage.admin") || permissions.has("storage.edit")) return "admin";
  return permissions.has("storage.view") ? "view" : "none";
}

/** Whether `permissions` reach every folder at admin level without any grant. */
export function isStorageAdmin(permissions: ReadonlySet<Permission>): boolean {
  return permissions.has("storage.admin");
}

/** The caller's effective level on a folder with these chain facts. */
export function effectiveLevel(
  facts: ChainFacts,
  permissions: ReadonlySet<Permission>,
): EffectiveLevel {
  const ceiling = storageCeiling(permissions);
  if (ceiling === "none") return "none";
  if (isStorageAdmin(permissions)) return "admin";
  let granted = levelRank(highestLevel(facts.grantLevels));
  if (facts.publicInChain) granted = Math.max(granted, levelRank("view"));
  return levelOfRank(Math.min(granted, levelRank(ceiling)));
}

/**
 * Whether a folder with these facts is visible at all (level other than "none"): what the root
 * listing filters on in SQL, so its pages and totals count only visible folders.
 */
export function isVisible(facts: ChainFacts, permissions: ReadonlySet<Permission>): boolean {
  return effectiveLevel(facts, permissions) !== "none";
}

/** Every action of the hub, with the level it needs on the folder concerned. */
export const ACTION_LEVEL = {
  /** See the folder (its metadata) and list its subfolders. */
  seeFolder: "traverse",
  /** List a folder's files, read a file's metadata, download it or get a signed URL. */
  readFiles: "view",
  /** Upload, rename, move or delete a file in the folder (and be the target of a file move). */
  writeFiles: "edit",
  /** Create a subfolder (a private one). */
  createSubfolder: "edit",
  /** Create a public subfolder: making content public is an access decision (admin). */
  createPublicSubfolder: "admin",
  /** Rename the folder. */
  renameFolder: "edit",
  /** Move the folder elsewhere (its inherited access changes), or make it public or private. */
  moveFolder: "admin",
  setPublic: "admin",
  /** List, grant and revoke the folder's permissions. */
  manageGrants: "admin",
  /** Delete the folder with its whole subtree. */
  deleteFolder: "admin",
} as const satisfies Record<string, Level>;

export type StorageAction = keyof typeof ACTION_LEVEL;

/** Whether `level` allows `action`. */
export function allows(level: EffectiveLevel, action: StorageAction): boolean {
  return levelRank(level) >= levelRank(ACTION_LEVEL[action]);
}

/**
 * Refuses `action` on a folder (or a file in it, `what` names it): no level → 404 as if it did
 * not exist; a level too low → 403.
 */
export function requireLevel(level: EffectiveLevel, action: StorageAction, what: string): void {
  if (level === "none") throw new NotFoundError("not_found", `${what} does not exist`);
  if (!allows(level, action)) {
    throw new ForbiddenError(
      "forbidden",
      `This needs ${ACTION_LEVEL[action]} level on the folder (you have ${level})`,
    );
  }
}

/**
 * Refuses `action` on a folder named in the request body (`field`): one the caller cannot see
 * → 400 invalid_reference (as if it did not exist); a level too low → 403.
 */
export function requireTargetLevel(
  level: EffectiveLevel,
  action: StorageAction,
  field: string,
  id: string,
): void {
  if (level === "none") {
    throw new InvalidReferenceError(field, `Folder "${id}" does not exist`);
  }
  requireLevel(level, action, `Folder "${id}"`);
}
