/**
 * Use cases of files attached to records: upload, list, read, serve, sign, delete. Files of
 * some entity types need a permission besides the route's `files.*` one (ID scans:
 * accounts.view, domain/files/file_access.ts): without it they behave as if absent (404, an
 * empty list) and cannot be uploaded (403).
 */
import {
  BadInputError,
  ConflictError,
  ForbiddenError,
  InvalidReferenceError,
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from "../../domain/errors.ts";
import {
  recordFileWhitelist,
  type SniffedType,
  type UploadWhitelist,
} from "../../domain/files/content_type.ts";
import { extraFilePermission, mayAccessFilesOf } from "../../domain/files/file_access.ts";
import { storedFilePath } from "../../domain/files/serve_path.ts";
import type { Transaction } from "kysely";
import type { Actor } from "../actor.ts";
import type { AppDeps } from "../deps.ts";
import type { Database, Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { ListParams } from "../schemas.ts";
import { currentConfig } from "../platform/runtime_config.ts";
import {
  countFilesOf,
  deleteFileRow,
  deleteFilesOf,
  type FileRecord,
  findFile,
  findFileByPath,
  findLatestFileIds,
  insertFile,
  listFilesOf,
  lockFileOwner,
} from "./files_repo.ts";
import type { FileEntityType } from "./file_owners.ts";
import { DEFAULT_URL_TTL_SECONDS, signFileUrl } from "./signed_urls.ts";
import { type FileJson, fileJson } from "./file_json.ts";

/** The category that marks a member's profile picture (images only). */
const PROFILE_CATEGORY = "profile";

/** The file's row or 404. */
export async function requireFile(db: Db, id: string): Promise<FileRecord> {
  const file = await findFile(db, id);
  if (!file) throw new NotFoundError("not_found", `File "${id}" does not exist`);
  return file;
}

/** The file's row, or 404 when it does not exist or the actor may not know it does. */
async function requireVisibleFile(db: Db, actor: Actor, id: string): Promise<FileRecord> {
  const file = await findFile(db, id);
  if (!file || !mayAccessFilesOf(file.entityType, actor.permissions)) {
    throw new NotFoundError("not_found", `File "${id}" does not exist`);
  }
  return file;
}

export async function uploadLimits(deps: AppDeps) {
  return (await currentConfig(deps)).upload;
}

export interface UploadInput {
  entityType: FileEntityType;
  entityId: string;
  category: string | null;
  /** The bytes, written to storage from this buffer (never copied). */
  content: Uint8Array;
}

/** A stream over `bytes` in slices of it (views, not copies). */
function streamOf(bytes: Uint8Array, sliceBytes = 256 * 1024): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + sliceBytes));
      offset += sliceBytes;
    },
  });
}

/**
 * The stored type of an upload (the rules every upload follows: §6, and the storage hub's
 * §11): larger than `maxBytes` → 413, empty → 400, not on the route's whitelist (judged from
 * the bytes: `recordFileWhitelist`, `DOCUMENT_WHITELIST`) → 415.
 */
export function vetUpload(
  content: Uint8Array,
  whitelist: UploadWhitelist,
  maxBytes: number,
): SniffedType {
  if (content.byteLength > maxBytes) {
    throw new PayloadTooLargeError(`The file is larger than ${maxBytes} bytes`);
  }
  if (content.byteLength === 0) {
    throw new BadInputError("validation_failed", "The file is empty", [
      { path: "file", message: "The file is empty" },
    ]);
  }
  const sniffed = whitelist.sniff(content);
  if (!sniffed) throw new UnsupportedMediaTypeError(`Accepted: ${whitelist.accepted}`);
  return sniffed;
}

/** Writes an upload's bytes under the storage key `path`, from its buffer (no copy). */
export async function storeUploadBytes(
  deps: Pick<AppDeps, "files">,
  path: string,
  content: Uint8Array,
): Promise<void> {
  await deps.files.put(path, streamOf(content));
}

/**
 * Stores an upload (recorded as uploaded by the actor's user, none for the system): size and
 * type first (judged from the bytes), then the bytes, then — in one transaction holding the
 * owner's lock — the owner check, the per-entity limit and the row. Bytes whose row is not
 * written are removed again.
 */
export async function uploadFile(
  deps: AppDeps,
  actor: Actor,
  input: UploadInput,
): Promise<FileJson> {
  const extra = extraFilePermission(input.entityType);
  if (extra && !actor.permissions.has(extra)) {
    throw new ForbiddenError(
      "forbidden",
      `Files of ${input.entityType} records need the ${extra} permission as well`,
    );
  }
  const limits = await uploadLimits(deps);
  const sniffed = vetUpload(input.content, recordFileWhitelist(input.category), limits.maxBytes);
  if (input.category === PROFILE_CATEGORY && !sniffed.contentType.startsWith("image/")) {
    throw new UnsupportedMediaTypeError("A profile picture must be an image");
  }
  const ownerExists = deps.fileOwners[input.entityType];
  if (!ownerExists) {
    throw new InvalidReferenceError(
      "entityType",
      `Files cannot be attached to ${input.entityType} records yet`,
    );
  }

  const id = deps.ids.uuid();
  const path = storedFilePath(input.entityType, id, sniffed.extension);
  await storeUploadBytes(deps, path, input.content);
  try {
    const file = await withTransaction(deps.db, async (trx) => {
      await lockFileOwner(trx, input.entityType, input.entityId);
      if (!(await ownerExists(trx, input.entityId))) {
        throw new InvalidReferenceError(
          "entityId",
          `No ${input.entityType} "${input.entityId}" exists`,
        );
      }
      const count = await countFilesOf(trx, input.entityType, input.entityId);
      if (count >= limits.maxFilesPerEntity) {
        throw new ConflictError(
          "file_limit_reached",
          `This ${input.entityType} already has ${count} files (at most ${limits.maxFilesPerEntity})`,
        );
      }
      return await insertFile(trx, {
        id,
        entityType: input.entityType,
        entityId: input.entityId,
        category: input.category,
        contentType: sniffed.contentType,
        size: input.content.byteLength,
        path,
        uploadedBy: actor.userId,
        now: deps.clock.now(),
      });
    });
    return await fileJson(deps, file);
  } catch (error) {
    await deps.files.delete(path).catch(() => {});
    throw error;
  }
}

export async function getFile(deps: AppDeps, actor: Actor, id: string): Promise<FileJson> {
  return fileJson(deps, await requireVisibleFile(deps.db, actor, id));
}

/** A record's files; an empty page when the actor may not see files of its entity type. */
export async function listFiles(
  deps: AppDeps,
  actor: Actor,
  params: ListParams & { entityType: string; entityId: string },
) {
  if (!mayAccessFilesOf(params.entityType, actor.permissions)) {
    return {
      data: [],
      pagination: {
        page: params.page,
        limit: params.limit,
        total: 0,
        totalPages: 0,
        totalExact: true,
      },
    };
  }
  const page = await listFilesOf(deps.db, params.entityType, params.entityId, params);
  return {
    data: await Promise.all(page.data.map((file) => fileJson(deps, file))),
    pagination: page.pagination,
  };
}

export async function fileUrl(
  deps: AppDeps,
  actor: Actor,
  id: string,
  ttlSeconds = DEFAULT_URL_TTL_SECONDS,
): Promise<{ url: string; expiresAt: string }> {
  const file = await requireVisibleFile(deps.db, actor, id);
  return signFileUrl(deps.config, file, deps.clock.now(), ttlSeconds);
}

/**
 * The stored file at `path` and its content stream, for `actor` (a bearer token), or for the
 * holder of a valid signed URL (`actor` undefined: whoever signed it could see the file).
 */
export async function openStoredFile(
  deps: AppDeps,
  actor: Actor | undefined,
  path: string,
): Promise<{ file: FileRecord; content: ReadableStream<Uint8Array> }> {
  let file = await findFileByPath(deps.db, path);
  if (file && actor && !mayAccessFilesOf(file.entityType, actor.permissions)) file = undefined;
  const content = file && await deps.files.get(file.path);
  if (!file || !content) throw new NotFoundError("not_found", "No such file");
  return { file, content };
}

/** Deletes the row, then the bytes (a failure to remove bytes is logged, not fatal). */
export async function deleteFile(deps: AppDeps, actor: Actor, id: string): Promise<void> {
  await requireVisibleFile(deps.db, actor, id);
  const path = await deleteFileRow(deps.db, id);
  if (!path) throw new NotFoundError("not_found", `File "${id}" does not exist`);
  await removeStoredFiles(deps, [path]);
}

export async function removeStoredFiles(deps: AppDeps, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    await deps.files.delete(path).catch((error) => {
      deps.logger.error("could not remove stored file", {
        path,
        error: error instanceof Error ? error.message : String(error),
      });
    });
  }
}

/**
 * Members' profile pictures: member id → the id of the member's latest file in the profile
 * category (members without one are left out).
 */
export function findProfilePictureIds(
  db: Db,
  memberIds: readonly string[],
): Promise<Map<string, string>> {
  return findLatestFileIds(db, "member", memberIds, PROFILE_CATEGORY);
}

/**
 * Deletes the file rows of these records inside the transaction that deletes the records, and
 * returns their storage paths: hand them to `removeStoredFiles` once it has committed (bytes
 * are removed only when no row can point at them any more).
 */
export function deleteFilesOfRecords(
  trx: Transaction<Database>,
  entityType: FileEntityType,
  entityIds: readonly string[],
): Promise<string[]> {
  return deleteFilesOf(trx, entityType, entityIds);
}
