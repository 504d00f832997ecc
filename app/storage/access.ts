/**
 * The caller's level on a folder or a stored file, from one access query and the pure rule
 * (domain/storage/levels.ts), and the checks every storage use case starts with: no level →
 * 404 as if absent, a level too low for the action → 403.
 */
import {
  type EffectiveLevel,
  effectiveLevel,
  type Level,
  requireLevel,
  requireTargetLevel,
  type StorageAction,
} from "../../domain/storage/levels.ts";
import type { Actor } from "../actor.ts";
import type { Db } from "../db/database.ts";
import {
  type FileAccess,
  findFileAccess,
  findFolderAccess,
  type FolderAccess,
  type FolderRecord,
  type StorageFileRecord,
} from "./access_repo.ts";
import type { FolderJson } from "./storage_schemas.ts";

export interface FolderWithLevel extends FolderAccess {
  level: EffectiveLevel;
}

/** The folder with the caller's level on it; undefined (as "none") when there is none. */
export async function folderAccess(
  db: Db,
  actor: Actor,
  folderId: string,
): Promise<FolderWithLevel | undefined> {
  const access = await findFolderAccess(db, folderId, actor.userId);
  return access && { ...access, level: effectiveLevel(access.facts, actor.permissions) };
}

/** The folder, when the caller may do `action` on it (404 / 403 otherwise). */
export async function requireFolder(
  db: Db,
  actor: Actor,
  folderId: string,
  action: StorageAction,
): Promise<FolderWithLevel & { level: Level }> {
  const access = await folderAccess(db, actor, folderId);
  const level = access?.level ?? "none";
  requireLevel(level, action, `Folder "${folderId}"`);
  return { ...access!, level: level as Level };
}

/**
 * A folder named in the request body (`field`), when the caller may do `action` on it: one the
 * caller cannot see → 400 invalid_reference, a level too low → 403.
 */
export async function requireTargetFolder(
  db: Db,
  actor: Actor,
  folderId: string,
  action: StorageAction,
  field: string,
): Promise<FolderWithLevel> {
  const access = await folderAccess(db, actor, folderId);
  requireTargetLevel(access?.level ?? "none", action, field, folderId);
  return access!;
}

/**
 * The stored file with its link generation, when the caller may do `action` in its folder
 * (404 / 403 otherwise).
 */
export async function requireStorageFileAccess(
  db: Db,
  actor: Actor,
  fileId: string,
  action: StorageAction,
): Promise<FileAccess> {
  const access = await findFileAccess(db, fileId, actor.userId);
  const level = access ? effectiveLevel(access.facts, actor.permissions) : "none";
  requireLevel(level, action, `File "${fileId}"`);
  return access!;
}

/** The stored file, when the caller may do `action` in its folder (404 / 403 otherwise). */
export async function requireStorageFile(
  db: Db,
  actor: Actor,
  fileId: string,
  action: StorageAction,
): Promise<StorageFileRecord> {
  return (await requireStorageFileAccess(db, actor, fileId, action)).file;
}

export function folderJson(folder: FolderRecord, level: Level): FolderJson {
  return { ...folder, effectiveLevel: level };
}
