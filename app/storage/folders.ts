/**
 * Use cases of storage folders (API §11): list a folder's children (one query, each child's
 * level computed in it), get, create, rename, move, make public or private, delete with the
 * whole subtree. Every change is audited (`storage.folder_*`).
 *
 * Rules the contract leaves open, decided here:
 *  - whoever creates a ROOT folder without storage.admin gets an admin grant on it (a user
 *    grant like any other, listed and revocable): without it a storage.edit holder could not
 *    open the folder they just made, since only grants decide how far up such a caller gets
 *    (a storage.admin holder needs none);
 *  - a PATCH needs the level of each field that CHANGES: rename → edit on the folder, isPublic
 *    → admin, parentId → admin on the folder and edit on the new parent (the root: the
 *    storage.edit permission); creating a public subfolder needs admin on the parent.
 */
import {
  ConflictError,
  ForbiddenError,
  InvalidReferenceError,
  NotFoundError,
} from "../../domain/errors.ts";
import { assertNoCycle } from "../../domain/storage/folder_tree.ts";
import {
  type ChainFacts,
  childFacts,
  effectiveLevel,
  isStorageAdmin,
  type Level,
  requireLevel,
} from "../../domain/storage/levels.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import type { AppDeps } from "../deps.ts";
import { isForeignKeyViolation, isUniqueViolation } from "../db/db_errors.ts";
import { withTransaction } from "../db/transaction.ts";
import type { Page } from "../db/pagination.ts";
import { removeStoredFiles } from "../files/files.ts";
import { listChildFolders } from "./access_repo.ts";
import { folderAccess, folderJson, requireFolder, requireTargetFolder } from "./access.ts";
import {
  deleteFolderRow,
  insertFolder,
  lockStorageTree,
  lockSubtree,
  SIBLING_NAME_INDEX,
  updateFolder,
} from "./folders_repo.ts";
import { insertGrant } from "./grants_repo.ts";
import { deleteFilesUnder } from "./storage_files_repo.ts";
import type { FolderChanges, FolderJson, FolderListParams } from "./storage_schemas.ts";

/** Unique-name and vanished-parent failures of a folder write, as the caller should read them. */
function folderWriteError(error: unknown, name: string | undefined, parentId: unknown): unknown {
  if (isUniqueViolation(error, SIBLING_NAME_INDEX)) {
    return new ConflictError("duplicate", `A folder named "${name}" already exists there`);
  }
  if (isForeignKeyViolation(error)) {
    return new InvalidReferenceError("parentId", `Folder "${parentId}" does not exist`);
  }
  return error;
}

/** Root folders need the storage.edit permission (a storage.view holder cannot make one). */
function requireRootAccess(actor: Actor): void {
  if (!actor.permissions.has("storage.edit")) {
    throw new ForbiddenError("forbidden", "Root folders need the storage.edit permission");
  }
}

/** The subfolders of `parentId` (root folders when omitted) that the caller can see. */
export async function listFolders(
  deps: AppDeps,
  actor: Actor,
  params: FolderListParams,
): Promise<Page<FolderJson>> {
  const parentId = params.parentId ?? null;
  const page = await listChildFolders(
    deps.db,
    actor.userId,
    parentId,
    params,
    isStorageAdmin(actor.permissions),
  );
  const parentLevel = parentId === null
    ? "traverse"
    : page.parentFound
    ? effectiveLevel(page.parent, actor.permissions)
    : "none";
  requireLevel(parentLevel, "seeFolder", `Folder "${parentId}"`);
  const data: FolderJson[] = [];
  for (const child of page.children) {
    const facts = childFacts(page.parent, {
      ownGrantLevels: child.ownGrantLevels,
      isPublic: child.folder.isPublic,
    });
    const level = effectiveLevel(facts, actor.permissions);
    if (level !== "none") data.push(folderJson(child.folder, level));
  }
  return {
    data,
    pagination: {
      page: params.page,
      limit: params.limit,
      total: page.total,
      totalPages: Math.ceil(page.total / params.limit),
      totalExact: page.totalExact,
    },
  };
}

export async function getFolder(deps: AppDeps, actor: Actor, id: string): Promise<FolderJson> {
  const access = await requireFolder(deps.db, actor, id, "seeFolder");
  return folderJson(access.folder, access.level);
}

export async function createFolder(
  deps: AppDeps,
  actor: Actor,
  input: { name: string; parentId?: string | null; isPublic: boolean },
): Promise<FolderJson> {
  const parentId = input.parentId ?? null;
  return await withTransaction(deps.db, async (trx) => {
    let parentFacts: ChainFacts = { grantLevels: [], publicInChain: false };
    if (parentId === null) {
      requireRootAccess(actor);
    } else {
      const action = input.isPublic ? "createPublicSubfolder" : "createSubfolder";
      parentFacts = (await requireTargetFolder(trx, actor, parentId, action, "parentId")).facts;
    }
    const now = deps.clock.now();
    const folder = await insertFolder(trx, {
      id: deps.ids.uuid(),
      parentId,
      name: input.name,
      isPublic: input.isPublic,
      createdBy: actor.userId,
      now,
    }).catch((error) => {
      throw folderWriteError(error, input.name, parentId);
    });
    const ownGrantLevels: Level[] = [];
    if (parentId === null && actor.userId !== null && !isStorageAdmin(actor.permissions)) {
      await insertGrant(trx, {
        id: deps.ids.uuid(),
        folderId: folder.id,
        roleId: null,
        userId: actor.userId,
        level: "admin",
        createdBy: actor.userId,
        now,
      });
      ownGrantLevels.push("admin");
    }
    await audit(deps, trx, actor, {
      action: "storage.folder_created",
      entityType: "storage_folder",
      entityId: folder.id,
      details: { name: folder.name, parentId, isPublic: folder.isPublic },
    });
    const level = effectiveLevel(
      childFacts(parentFacts, { ownGrantLevels, isPublic: folder.isPublic }),
      actor.permissions,
    );
    return folderJson(folder, level === "none" ? "traverse" : level);
  });
}

/** Rename, move (`parentId`, null = to the root) or make public/private; see the file's notes. */
export async function changeFolder(
  deps: AppDeps,
  actor: Actor,
  id: string,
  changes: FolderChanges,
): Promise<FolderJson> {
  return await withTransaction(deps.db, async (trx) => {
    // A move reads the target's chain for its cycle check: under the tree lock, no other move
    // can change that chain before this one commits.
    if (changes.parentId !== undefined) await lockStorageTree(trx);
    const current = await requireFolder(trx, actor, id, "seeFolder");
    const { folder } = current;
    const rename = changes.name !== undefined && changes.name !== folder.name;
    const publicity = changes.isPublic !== undefined && changes.isPublic !== folder.isPublic;
    const move = changes.parentId !== undefined &&
      changes.parentId?.toLowerCase() !== folder.parentId?.toLowerCase();
    const what = `Folder "${id}"`;
    if (rename) requireLevel(current.level, "renameFolder", what);
    if (publicity) requireLevel(current.level, "setPublic", what);
    if (move) {
      requireLevel(current.level, "moveFolder", what);
      if (changes.parentId === null) requireRootAccess(actor);
      else {
        const target = await requireTargetFolder(
          trx,
          actor,
          changes.parentId!,
          "createSubfolder",
          "parentId",
        );
        assertNoCycle(id, target.chainIds);
      }
    }
    if (!rename && !publicity && !move) return folderJson(folder, current.level);
    const updated = await updateFolder(trx, id, {
      name: rename ? changes.name : undefined,
      isPublic: publicity ? changes.isPublic : undefined,
      parentId: move ? changes.parentId : undefined,
      // Private, or what it inherits changed: the signed URLs of the files below are revoked.
      narrowsAccess: move || (publicity && !changes.isPublic),
    }, deps.clock.now()).catch((error) => {
      throw folderWriteError(error, changes.name ?? folder.name, changes.parentId);
    });
    if (!updated) throw new NotFoundError("not_found", `${what} does not exist`);
    await audit(deps, trx, actor, {
      action: "storage.folder_updated",
      entityType: "storage_folder",
      entityId: id,
      details: {
        name: updated.name,
        ...(rename ? { previousName: folder.name } : {}),
        ...(move ? { from: folder.parentId, to: updated.parentId } : {}),
        ...(publicity ? { isPublic: updated.isPublic } : {}),
      },
    });
    // Moved or made private, the caller's level may have changed: read it again.
    const after = await folderAccess(trx, actor, id);
    return folderJson(updated, after && after.level !== "none" ? after.level : current.level);
  });
}

/**
 * Deletes the folder with all its subfolders, files and grants (admin level on it): rows in
 * one transaction under the tree lock, holding the subtree locked; the files' bytes after it
 * has committed.
 */
export async function removeFolder(deps: AppDeps, actor: Actor, id: string): Promise<void> {
  const paths = await withTransaction(deps.db, async (trx) => {
    await lockStorageTree(trx);
    const { folder } = await requireFolder(trx, actor, id, "deleteFolder");
    const folders = await lockSubtree(trx, id);
    const paths = await deleteFilesUnder(trx, id);
    await deleteFolderRow(trx, id);
    await audit(deps, trx, actor, {
      action: "storage.folder_deleted",
      entityType: "storage_folder",
      entityId: id,
      details: { name: folder.name, parentId: folder.parentId, folders, files: paths.length },
    });
    return paths;
  });
  await removeStoredFiles(deps, paths);
}
