/** Use cases of files attached to records: upload, list, read, serve, sign, delete. */
import {
  BadInputError,
  ConflictError,
  InvalidReferenceError,
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from "../../domain/errors.ts";
import { sniffUpload } from "../../domain/files/content_type.ts";
import { storedFilePath } from "../../domain/files/serve_path.ts";
import type { AppDeps } from "../deps.ts";
import { withTransaction } from "../db/transaction.ts";
import type { ListParams } from "../schemas.ts";
import { getRuntimeConfig } from "../platform/settings.ts";
import {
  countFilesOf,
  deleteFileRow,
  type FileRecord,
  findFile,
  findFileByPath,
  insertFile,
  listFilesOf,
  lockFileOwner,
} from "./files_repo.ts";
import { type FileEntityType, ownerCheckerFor } from "./file_owners.ts";
import { DEFAULT_URL_TTL_SECONDS, signFileUrl } from "./signed_urls.ts";

export type FileView = FileRecord & { url: string };

/** The category that marks a member's profile picture (images only). */
export const PROFILE_CATEGORY = "profile";

export async function presentFile(deps: AppDeps, file: FileRecord): Promise<FileView> {
  const { url } = await signFileUrl(deps.config, file, deps.clock.now());
  return { ...file, url };
}

export async function uploadLimits(deps: AppDeps) {
  return (await getRuntimeConfig(deps.db)).upload;
}

export interface UploadInput {
  entityType: FileEntityType;
  entityId: string;
  category: string | null;
  content: Uint8Array;
  uploadedBy: string | null;
}

/**
 * Stores an upload: size and type first (judged from the bytes), then the bytes, then — in
 * one transaction holding the owner's lock — the owner check, the per-entity limit and the
 * row. Bytes whose row is not written are removed again.
 */
export async function uploadFile(deps: AppDeps, input: UploadInput): Promise<FileView> {
  const limits = await uploadLimits(deps);
  if (input.content.byteLength > limits.maxBytes) {
    throw new PayloadTooLargeError(`The file is larger than ${limits.maxBytes} bytes`);
  }
  if (input.content.byteLength === 0) {
    throw new BadInputError("validation_failed", "The file is empty", [
      { path: "file", message: "The file is empty" },
    ]);
  }
  const sniffed = sniffUpload(input.content, input.category);
  if (!sniffed) {
    throw new UnsupportedMediaTypeError(
      "Accepted: JPEG, PNG, WebP, GIF and PDF (plain text only in the notes category)",
    );
  }
  if (input.category === PROFILE_CATEGORY && !sniffed.contentType.startsWith("image/")) {
    throw new UnsupportedMediaTypeError("A profile picture must be an image");
  }
  const ownerExists = ownerCheckerFor(input.entityType);
  if (!ownerExists) {
    throw new InvalidReferenceError(
      "entityType",
      `Files cannot be attached to ${input.entityType} records yet`,
    );
  }

  const id = deps.ids.uuid();
  const path = storedFilePath(input.entityType, id, sniffed.extension);
  await deps.files.put(path, new Blob([input.content as BlobPart]).stream());
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
        uploadedBy: input.uploadedBy,
        now: deps.clock.now(),
      });
    });
    return await presentFile(deps, file);
  } catch (error) {
    await deps.files.delete(path).catch(() => {});
    throw error;
  }
}

export async function getFile(deps: AppDeps, id: string): Promise<FileView> {
  const file = await findFile(deps.db, id);
  if (!file) throw new NotFoundError(`File "${id}" does not exist`);
  return presentFile(deps, file);
}

export async function listFiles(
  deps: AppDeps,
  params: ListParams & { entityType: string; entityId: string },
) {
  const page = await listFilesOf(deps.db, params.entityType, params.entityId, params, (f) => f);
  return {
    data: await Promise.all(page.data.map((file) => presentFile(deps, file))),
    pagination: page.pagination,
  };
}

export async function fileUrl(
  deps: AppDeps,
  id: string,
  ttlSeconds = DEFAULT_URL_TTL_SECONDS,
): Promise<{ url: string; expiresAt: string }> {
  const file = await findFile(deps.db, id);
  if (!file) throw new NotFoundError(`File "${id}" does not exist`);
  return signFileUrl(deps.config, file, deps.clock.now(), ttlSeconds);
}

/** The stored file at `path` and its content stream. */
export async function openStoredFile(
  deps: AppDeps,
  path: string,
): Promise<{ file: FileRecord; content: ReadableStream<Uint8Array> }> {
  const file = await findFileByPath(deps.db, path);
  const content = file && await deps.files.get(file.path);
  if (!file || !content) throw new NotFoundError("No such file");
  return { file, content };
}

/** Deletes the row, then the bytes (a failure to remove bytes is logged, not fatal). */
export async function deleteFile(deps: AppDeps, id: string): Promise<void> {
  const path = await deleteFileRow(deps.db, id);
  if (!path) throw new NotFoundError(`File "${id}" does not exist`);
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
