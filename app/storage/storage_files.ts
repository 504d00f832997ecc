/**
 * Use cases of files in storage folders (API §11): list and read (view level on the folder),
 * upload, rename, move, delete (edit level; a move needs edit on the target folder too),
 * signed URLs and content. Uploads follow the files module's rules (size limit, type judged
 * from the bytes) with the documents' whitelist (`DOCUMENT_WHITELIST`: images, PDF, office
 * documents, plain text and CSV) and its byte storage; `upload.maxFilesPerEntity` does not
 * apply to folders. Changes are audited
 * (`storage.file_*`).
 *
 * Signed URLs carry the file's link generation (access_repo.ts `ACCESS_CHANGE`): a change that
 * narrows access to the file after signing (its folder or an ancestor made private, moved or
 * losing a grant; the file moved) revokes them — a shop expects "make it private" to take
 * effect now, not when the last link expires (up to 7 days).
 */
import { ForbiddenError, InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import { DOCUMENT_WHITELIST } from "../../domain/files/content_type.ts";
import { storedFilePath } from "../../domain/files/serve_path.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import type { AppDeps } from "../deps.ts";
import { isForeignKeyViolation } from "../db/db_errors.ts";
import { withTransaction } from "../db/transaction.ts";
import type { Page } from "../db/pagination.ts";
import type { ListParams } from "../schemas.ts";
import { removeStoredFiles, storeUploadBytes, uploadLimits, vetUpload } from "../files/files.ts";
import {
  DEFAULT_URL_TTL_SECONDS,
  type SignedQuery,
  signUrlFor,
  verifyFileSignature,
} from "../files/signed_urls.ts";
import { findFileAccess, type StorageFileRecord } from "./access_repo.ts";
import {
  requireFolder,
  requireStorageFile,
  requireStorageFileAccess,
  requireTargetFolder,
} from "./access.ts";
import {
  deleteStorageFileRow,
  insertStorageFile,
  listFilesInFolder,
  updateStorageFile,
} from "./storage_files_repo.ts";
import type { StorageFileJson } from "./storage_schemas.ts";

/** Signatures of storage URLs are made for this purpose only (worthless on /files/serve). */
const URL_PURPOSE = "storage:";

/** The storage key prefix of the hub's bytes (`storage/<id>.<ext>`). */
const STORAGE_KEY_PREFIX = "storage";

export function storageFileJson(file: StorageFileRecord): StorageFileJson {
  return {
    id: file.id,
    folderId: file.folderId,
    name: file.name,
    contentType: file.contentType,
    size: file.size,
    createdAt: file.createdAt,
    createdBy: file.createdBy,
  };
}

export async function listStorageFiles(
  deps: AppDeps,
  actor: Actor,
  folderId: string,
  params: ListParams,
): Promise<Page<StorageFileJson>> {
  await requireFolder(deps.db, actor, folderId, "readFiles");
  const page = await listFilesInFolder(deps.db, folderId, params);
  return { data: page.data.map(storageFileJson), pagination: page.pagination };
}

export async function getStorageFile(
  deps: AppDeps,
  actor: Actor,
  id: string,
): Promise<StorageFileJson> {
  return storageFileJson(await requireStorageFile(deps.db, actor, id, "readFiles"));
}

/**
 * Stores an upload into the folder (edit level): the level first (no bytes are written for a
 * caller who may not), then size and type, then the bytes, then the row in a transaction. The
 * folder's foreign key holds it while the row is written: a folder deleted meanwhile → 404, and
 * the bytes are removed again.
 */
export async function uploadStorageFile(
  deps: AppDeps,
  actor: Actor,
  folderId: string,
  input: { name: string; content: Uint8Array },
): Promise<StorageFileJson> {
  await requireFolder(deps.db, actor, folderId, "writeFiles");
  const { maxBytes } = await uploadLimits(deps);
  const sniffed = vetUpload(input.content, DOCUMENT_WHITELIST, maxBytes);
  const id = deps.ids.uuid();
  const path = storedFilePath(STORAGE_KEY_PREFIX, id, sniffed.extension);
  await storeUploadBytes(deps, path, input.content);
  try {
    return await withTransaction(deps.db, async (trx) => {
      const file = await insertStorageFile(trx, {
        id,
        folderId,
        name: input.name,
        contentType: sniffed.contentType,
        size: input.content.byteLength,
        path,
        createdBy: actor.userId,
        now: deps.clock.now(),
      }).catch((error) => {
        if (isForeignKeyViolation(error)) {
          throw new NotFoundError("not_found", `Folder "${folderId}" does not exist`);
        }
        throw error;
      });
      await audit(deps, trx, actor, {
        action: "storage.file_uploaded",
        entityType: "storage_file",
        entityId: id,
        details: { folderId, name: file.name, contentType: file.contentType, size: file.size },
      });
      return storageFileJson(file);
    });
  } catch (error) {
    await removeStoredFiles(deps, [path]);
    throw error;
  }
}

/** Rename, or move to another folder where the caller has edit (edit on the current one). */
export async function changeStorageFile(
  deps: AppDeps,
  actor: Actor,
  id: string,
  changes: { name?: string; folderId?: string },
): Promise<StorageFileJson> {
  return await withTransaction(deps.db, async (trx) => {
    const file = await requireStorageFile(trx, actor, id, "writeFiles");
    const move = changes.folderId !== undefined &&
      changes.folderId.toLowerCase() !== file.folderId.toLowerCase();
    if (move) await requireTargetFolder(trx, actor, changes.folderId!, "writeFiles", "folderId");
    const updated = await updateStorageFile(trx, id, {
      name: changes.name,
      folderId: move ? changes.folderId : undefined,
    }, deps.clock.now()).catch((error) => {
      if (isForeignKeyViolation(error)) {
        throw new InvalidReferenceError("folderId", `Folder "${changes.folderId}" does not exist`);
      }
      throw error;
    });
    if (!updated) throw new NotFoundError("not_found", `File "${id}" does not exist`);
    await audit(deps, trx, actor, {
      action: "storage.file_updated",
      entityType: "storage_file",
      entityId: id,
      details: {
        name: updated.name,
        ...(changes.name !== undefined ? { previousName: file.name } : {}),
        ...(move ? { from: file.folderId, to: updated.folderId } : {}),
      },
    });
    return storageFileJson(updated);
  });
}

/** Deletes the row (edit level), then the bytes once that has committed. */
export async function removeStorageFile(deps: AppDeps, actor: Actor, id: string): Promise<void> {
  const path = await withTransaction(deps.db, async (trx) => {
    const file = await requireStorageFile(trx, actor, id, "writeFiles");
    const path = await deleteStorageFileRow(trx, id);
    if (!path) throw new NotFoundError("not_found", `File "${id}" does not exist`);
    await audit(deps, trx, actor, {
      action: "storage.file_deleted",
      entityType: "storage_file",
      entityId: id,
      details: { folderId: file.folderId, name: file.name },
    });
    return path;
  });
  await removeStoredFiles(deps, [path]);
}

/** Where a stored file's content is served (signed URLs point here). */
function contentUrl(deps: Pick<AppDeps, "config">, id: string): string {
  return `${deps.config.publicUrl}/v1/storage/files/${id.toLowerCase()}/content`;
}

/** A signed URL serving the file without a token until `expiresAt` (view level). */
export async function storageFileUrl(
  deps: AppDeps,
  actor: Actor,
  id: string,
  ttlSeconds = DEFAULT_URL_TTL_SECONDS,
): Promise<{ url: string; expiresAt: string }> {
  const { file, linkGeneration } = await requireStorageFileAccess(deps.db, actor, id, "readFiles");
  return signedStorageUrl(
    deps,
    file.id,
    Math.floor(deps.clock.now().getTime() / 1000) + ttlSeconds,
    linkGeneration,
  );
}

/**
 * The signed URL of `fileId` valid until `expires` (Unix seconds) while the file's link
 * generation stays `generation`; the same inputs, the same URL.
 */
export function signedStorageUrl(
  deps: Pick<AppDeps, "config">,
  fileId: string,
  expires: number,
  generation: number,
): Promise<{ url: string; expiresAt: string }> {
  return signUrlFor(deps.config, fileId, contentUrl(deps, fileId), expires, {
    purpose: URL_PURPOSE,
    generation,
  });
}

/** The query values of a storage hub signed URL, as sent. */
export interface StorageLinkQuery extends SignedQuery {
  generation?: string;
}

/**
 * The link generation a storage signed URL carries when its `expires`/`generation`/`signature`
 * (raw query values) sign `fileId` and have not expired; undefined otherwise. Whether that
 * generation is still the file's is checked when the file is opened (`openStorageFile`).
 */
export async function verifyStorageSignature(
  deps: Pick<AppDeps, "config" | "clock">,
  fileId: string,
  query: StorageLinkQuery,
): Promise<number | undefined> {
  if (!query.generation || !/^(0|[1-9]\d{0,9})$/.test(query.generation)) return undefined;
  const generation = Number(query.generation);
  const valid = await verifyFileSignature(deps.config, fileId, query, deps.clock.now(), {
    purpose: URL_PURPOSE,
    generation,
  });
  return valid ? generation : undefined;
}

/** Who opens a stored file: a bearer token's actor, or a verified signed URL's generation. */
export type StorageReader = { actor: Actor } | { linkGeneration: number };

/**
 * The file and its content, for an actor (a bearer token: view level on its folder) or for
 * the holder of a verified signed URL. A URL's generation must still be the file's: a change
 * that narrowed access to it since (its folder or an ancestor made private, moved or losing a
 * grant; the file moved) revokes the URL → 403 invalid_signature. A deleted file → 404.
 */
export async function openStorageFile(
  deps: AppDeps,
  reader: StorageReader,
  id: string,
): Promise<{ file: StorageFileJson; content: ReadableStream<Uint8Array> }> {
  const access = "actor" in reader
    ? await requireStorageFileAccess(deps.db, reader.actor, id, "readFiles")
    : await findFileAccess(deps.db, id, null);
  if (access && "linkGeneration" in reader && access.linkGeneration !== reader.linkGeneration) {
    throw new ForbiddenError(
      "invalid_signature",
      "The file link was revoked: access to the file changed since it was signed",
    );
  }
  const content = access && await deps.files.get(access.file.path);
  if (!access || !content) throw new NotFoundError("not_found", `File "${id}" does not exist`);
  return { file: storageFileJson(access.file), content };
}
