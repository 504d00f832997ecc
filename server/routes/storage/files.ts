/**
 * Files in storage folders (API §11). Uploads go through the same pipeline as `/files`:
 * multipart only (415 otherwise, before reading), read once within `upload.maxBytes` plus the
 * form's envelope (413 as soon as it is passed), parts as views into the body.
 *
 * `GET /storage/files/:id/content` is declared with access "public" ON PURPOSE: it answers a
 * valid signed URL (`expires` + `generation` + `signature`, no token; tampered or expired → 403,
 * before any lookup; revoked since by a narrowing of the file's access → 403 once the file is
 * read) or a bearer token (storage.view and view level on the file's folder), and checks that
 * itself, first.
 */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import { fileUrlQuery, fileUrlSchema } from "../../../app/files/file_schemas.ts";
import {
  contentQuery,
  storageFileListQuery,
  storageFileSchema,
  storageName,
  storageUploadForm,
  updateStorageFileBody,
} from "../../../app/storage/storage_schemas.ts";
import {
  changeStorageFile,
  getStorageFile,
  listStorageFiles,
  openStorageFile,
  removeStorageFile,
  signedStorageUrl,
  storageFileUrl,
  type StorageReader,
  uploadStorageFile,
  verifyStorageSignature,
} from "../../../app/storage/storage_files.ts";
import { ForbiddenError, ValidationError } from "../../../domain/errors.ts";
import { fileNameFromUpload } from "../../../domain/storage/folder_tree.ts";
import { fieldIssues } from "../../errors.ts";
import type { ReplayCodec } from "../../middleware/idempotency.ts";
import type { MultipartPart } from "../../middleware/multipart.ts";
import { ApiRouter, authenticate } from "../../route.ts";
import { LEVEL_RULE, LINK_REVOCATION, noContent, TAG } from "./_shared.ts";
import { STORED_FILE_HEADERS, storedFileResponse } from "../_stored_file.ts";
import { STORED_MEDIA_TYPES } from "../../../domain/files/content_type.ts";
import { uploadBodyLimit } from "../_uploads.ts";

/** The form's one file part and the stored name (the `name` field, else the part's file name). */
function uploadOf(form: MultipartPart[]): { name: string; content: Uint8Array } {
  let file: MultipartPart | undefined;
  let name: string | undefined;
  const issues: { path: string; message: string }[] = [];
  for (const part of form) {
    if (part.name === "file" && part.filename !== undefined && !file) file = part;
    else if (part.name === "name" && part.filename === undefined && name === undefined) {
      name = new TextDecoder().decode(part.content);
    } else if (part.name === "file" || part.name === "name") {
      issues.push({ path: part.name, message: "Expected one file part and at most one name" });
    } else issues.push({ path: part.name, message: `Unknown field "${part.name}"` });
  }
  if (!file && issues.length === 0) issues.push({ path: "file", message: "A file is required" });
  if (issues.length > 0) throw new ValidationError(issues);
  const fallback = fileNameFromUpload(file!.filename ?? "");
  const parsed = storageName.safeParse(name ?? fallback);
  if (!parsed.success) {
    const path = name === undefined ? "file" : "name";
    const issues = fieldIssues(parsed.error).map((issue) => ({
      path,
      message: name === undefined && fallback === ""
        ? "The file part has no file name: send a name field"
        : issue.message,
    }));
    throw new ValidationError(issues);
  }
  return { name: parsed.data, content: file!.content };
}

/**
 * A signed URL is a credential: the replay table keeps its file id, expiry and generation only,
 * and a replay signs them again (the same inputs give the same URL: revoked since, it stays
 * revoked).
 */
function urlReplay(deps: AppDeps): ReplayCodec {
  return {
    store: (body) => {
      const { url, expiresAt } = body as { url: string; expiresAt: string };
      const parsed = new URL(url);
      const fileId = /\/storage\/files\/([^/]+)\/content/.exec(parsed.pathname)?.[1];
      return { fileId, expiresAt, generation: Number(parsed.searchParams.get("generation")) };
    },
    restore: (stored) => {
      const { fileId, expiresAt, generation } = stored as {
        fileId: string;
        expiresAt: string;
        generation?: number;
      };
      return signedStorageUrl(
        deps,
        fileId,
        Math.floor(Date.parse(expiresAt) / 1000),
        generation ?? 0,
      );
    },
  };
}

/** `/storage/folders/:id/files`: a folder's files and uploads into it. */
export function folderFileRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/storage/folders", TAG)
    .route(
      {
        method: "get",
        path: "/:id/files",
        summary: "List a folder's files",
        description: "Needs view on the folder (traverse sees subfolders, not files → 403). " +
          "Sortable by name (default), createdAt, size; `q` searches the names " +
          "(case-insensitive). Download through POST /storage/files/:id/url or GET " +
          "/storage/files/:id/content. " + LEVEL_RULE,
        access: "storage.view",
        params: idParams,
        query: storageFileListQuery,
        responses: {
          200: { description: "A page of files", schema: listResponse(storageFileSchema) },
        },
      },
      async (c, { params, query, actor }) =>
        c.json(await listStorageFiles(deps, actor, params.id, query)),
    )
    .route({
      method: "post",
      path: "/:id/files",
      summary: "Upload a file into a folder",
      description: "Needs edit on the folder. multipart/form-data: `file` (its file name " +
        "names the stored file) and optionally `name` (1–255 characters, no control " +
        "characters, / or \\) instead. Names need not be unique in a folder. The type is " +
        "judged from the content, never from the name or the part's Content-Type: PDF, JPEG, " +
        "PNG, WebP, GIF; Word (docx) and Excel (xlsx) by their ZIP container's " +
        "`[Content_Types].xml` and `word/` or `xl/` parts; OpenDocument text and spreadsheets " +
        "(odt, ods) by the `mimetype` entry stored first; plain text or CSV (stored as " +
        "`text/plain; charset=utf-8`) when the whole content is valid UTF-8 without control " +
        "characters (tab, line and form feeds and carriage returns allowed) and does not start " +
        "like markup (`<` after white space: HTML, XML, SVG) or a script (`#!`). Anything else " +
        "→ 415 `unsupported_media_type`: executables, HTML, archives, legacy doc/xls, and " +
        "office documents carrying macros (`vbaProject.bin`, OpenDocument `Basic/` or " +
        "`Scripts/`). Size at most config `upload.maxBytes` (→ 413, also while the body is " +
        "read), an empty file → 400. " + LEVEL_RULE,
      access: "storage.view",
      params: idParams,
      multipart: storageUploadForm,
      maxBodyBytes: uploadBodyLimit(deps),
      responses: {
        201: { description: "The stored file", schema: storageFileSchema },
        413: { description: "Larger than `upload.maxBytes` (`payload_too_large`)" },
        415: { description: "Not multipart, or content not on the whitelist" },
      },
    }, async (c, { params, form, actor }) => {
      const upload = uploadOf(form!);
      return c.json(await uploadStorageFile(deps, actor, params.id, upload), 201);
    });
}

/** `/storage/files/:id`: one file's metadata, changes, URL and content. */
export function storageFileRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/storage/files", TAG)
    .route({
      method: "get",
      path: "/:id/content",
      summary: "A stored file's content (signed URL, or a token with view level)",
      description: STORED_FILE_HEADERS + " Access: the signed URL from POST " +
        "/storage/files/:id/url (`expires`, `generation` and `signature`; tampered or expired → " +
        "403 invalid_signature, checked before any lookup; works without a token), OR a bearer " +
        "token with storage.view and view level on the file's folder (none → 401; traverse only " +
        "→ 403; no level → 404). Declared public because a signed URL needs no token; the route " +
        "checks access itself. " + LINK_REVOCATION,
      access: "public",
      params: idParams,
      query: contentQuery,
      responses: {
        200: {
          description: "The file content, in its stored type",
          contentType: STORED_MEDIA_TYPES,
          headers: ["Content-Disposition", "Cache-Control"],
        },
      },
      errors: {
        401: ["unauthenticated", "user_disabled"],
        403: ["forbidden", "invalid_signature"],
        404: ["not_found"],
      },
    }, async (c, { params, query }) => {
      const signed = query.expires !== undefined || query.signature !== undefined ||
        query.generation !== undefined;
      let reader: StorageReader;
      if (!signed) {
        const actor = await authenticate(deps, c);
        if (!actor.permissions.has("storage.view")) {
          throw new ForbiddenError("forbidden", "This action needs the storage.view permission");
        }
        reader = { actor };
      } else {
        const linkGeneration = await verifyStorageSignature(deps, params.id, query);
        if (linkGeneration === undefined) {
          throw new ForbiddenError("invalid_signature", "The file link is invalid or has expired");
        }
        reader = { linkGeneration };
      }
      const { file, content } = await openStorageFile(deps, reader, params.id);
      return storedFileResponse(file, content);
    })
    .route({
      method: "get",
      path: "/:id",
      summary: "A stored file's metadata",
      description: "Needs view on the file's folder. " + LEVEL_RULE,
      access: "storage.view",
      params: idParams,
      responses: { 200: { description: "The file", schema: storageFileSchema } },
    }, async (c, { params, actor }) => c.json(await getStorageFile(deps, actor, params.id)))
    .route(
      {
        method: "patch",
        path: "/:id",
        summary: "Rename a stored file or move it to another folder",
        description: "`{ name?, folderId? }`. Needs edit on the file's folder; a move needs edit " +
          "on the target folder too (a target the caller cannot see → 400 invalid_reference). " +
          "A move revokes the file's signed URLs (403 invalid_signature); a rename does not. " +
          LEVEL_RULE,
        access: "storage.view",
        params: idParams,
        body: updateStorageFileBody,
        responses: { 200: { description: "The file", schema: storageFileSchema } },
        errors: { 400: ["invalid_reference"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await changeStorageFile(deps, actor, params.id, body)),
    )
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a stored file",
      description: "Needs edit on the file's folder. Removes the row, then the stored bytes; " +
        "its signed URLs stop working. " + LEVEL_RULE,
      access: "storage.view",
      params: idParams,
      responses: noContent,
    }, async (c, { params, actor }) => {
      await removeStorageFile(deps, actor, params.id);
      return c.body(null, 204);
    })
    .route(
      {
        method: "post",
        path: "/:id/url",
        summary: "A signed URL for a stored file",
        description: "`{ url, expiresAt }`: the URL (GET /storage/files/:id/content with " +
          "`expires`, `generation` and `signature`) serves the file without a token until expiresAt (default " +
          "15 minutes; `expiresIn` seconds to choose, at most 7 days). Needs view on the file's " +
          "folder. An `Idempotency-Key` retry answers the same URL (revoked since, it stays " +
          "revoked). " + LINK_REVOCATION + " " + LEVEL_RULE,
        access: "storage.view",
        params: idParams,
        query: fileUrlQuery,
        replay: urlReplay(deps),
        responses: { 200: { description: "The signed URL", schema: fileUrlSchema } },
      },
      async (c, { params, query, actor }) =>
        c.json(await storageFileUrl(deps, actor, params.id, query.expiresIn)),
    );
}
