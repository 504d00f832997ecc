/**
 * Files attached to records (API §6).
 *
 * `GET /files/serve/*` is declared with access "public" ON PURPOSE: it answers either a
 * valid signed URL (`expires` + `signature`, no token) or a bearer token holding
 * `files.view`, and performs that check itself, first, before any lookup: no token and no
 * signature → 401; a token without files.view → 403; a tampered or expired signature → 403.
 * (API §1.6 lists signed-URL file downloads among the routes that need no token.)
 *
 * Uploads: the pipeline (server/route.ts) checks files.upload, takes multipart only (415
 * otherwise, before reading), reads the body once within `upload.maxBytes` plus the form's
 * envelope (`_uploads.ts`; 413 as soon as it is passed) and parses the parts as views into
 * it; the file's bytes go from that buffer to storage without another copy.
 */
import type { AppDeps } from "../../app/deps.ts";
import { idParams, listResponse } from "../../app/schemas.ts";
import {
  fileListQuery,
  fileSchema,
  fileUrlQuery,
  fileUrlSchema,
  serveQuery,
  uploadFields,
  uploadForm,
} from "../../app/files/file_schemas.ts";
import {
  deleteFile,
  fileUrl,
  getFile,
  listFiles,
  openStoredFile,
  uploadFile,
} from "../../app/files/files.ts";
import { verifyFileSignature } from "../../app/files/signed_urls.ts";
import { STORED_MEDIA_TYPES } from "../../domain/files/content_type.ts";
import { parseServePath } from "../../domain/files/serve_path.ts";
import type { Actor } from "../../app/actor.ts";
import { ForbiddenError, NotFoundError, ValidationError } from "../../domain/errors.ts";
import { fieldIssues } from "../errors.ts";
import { ApiRouter, authenticate } from "../route.ts";
import { STORED_FILE_HEADERS, storedFileResponse } from "./_stored_file.ts";
import { fileAndFields, signedFileReplay, uploadBodyLimit } from "./_uploads.ts";

const ID_SCANS_NOTE = "ID scans (entityType member_identifier) also need accounts.view: " +
  "without it they behave as if absent (404).";

/** The serve path exactly as sent (still percent-encoded), after `/v1/files/serve/`. */
function rawServePath(url: string): string {
  const pathname = new URL(url).pathname;
  const marker = "/files/serve/";
  const at = pathname.indexOf(marker);
  return at === -1 ? "" : pathname.slice(at + marker.length);
}

export function fileRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/files", "Files")
    .route({
      method: "get",
      path: "/serve/*",
      summary: "File content (signed URL or token with files.view)",
      description: STORED_FILE_HEADERS + " The name is the last part of the stored path " +
        "(`<id>.<extension>`). Access: a signed URL from GET /files/:id/url " +
        "or the `url` of file metadata (`expires` + `signature`; tampered or expired → 403), " +
        "OR a bearer token with files.view (none → 401, without the permission → 403; ID " +
        "scans, entityType member_identifier, also need accounts.view, else 404). Declared " +
        "public because a signed URL needs no token; the route checks access itself before " +
        "any lookup. Any `..`, absolute path, encoded traversal or unknown path → 404.",
      access: "public",
      query: serveQuery,
      responses: {
        200: {
          description: "The file content, in its stored type",
          contentType: STORED_MEDIA_TYPES,
          headers: ["Content-Disposition", "Cache-Control"],
        },
        401: { description: "Neither a signature nor a token" },
        403: { description: "Bad or expired signature, or a token without files.view" },
      },
      errors: {
        401: ["unauthenticated", "user_disabled"],
        403: ["forbidden", "invalid_signature"],
        404: ["not_found"],
      },
    }, async (c, { query }) => {
      const signed = query.expires !== undefined || query.signature !== undefined;
      let actor: Actor | undefined;
      if (!signed) {
        actor = await authenticate(deps, c);
        if (!actor.permissions.has("files.view")) {
          throw new ForbiddenError("forbidden", "This action needs the files.view permission");
        }
      }
      const parsed = parseServePath(rawServePath(c.req.url));
      if (!parsed) throw new NotFoundError("not_found", "No such file");
      if (
        signed &&
        !(await verifyFileSignature(deps.config, parsed.fileId, query, deps.clock.now()))
      ) {
        throw new ForbiddenError("invalid_signature", "The file link is invalid or has expired");
      }
      const { file, content } = await openStoredFile(deps, actor, parsed.path);
      const name = file.path.slice(file.path.lastIndexOf("/") + 1);
      return storedFileResponse({ ...file, name }, content);
    })
    .route({
      method: "get",
      path: "/",
      summary: "Files of a record",
      description: "entityType and entityId are required. Sortable by createdAt, category, " +
        "size. `q` is a case-insensitive substring search over the category, the stored path " +
        "(`<entityType>/<id>.<extension>`: original file names are not kept) and the content " +
        "type (`q=pdf`). Each file carries a signed `url` (15 minutes). ID scans (entityType " +
        "member_identifier) also need accounts.view: without it their list is empty.",
      access: "files.view",
      query: fileListQuery,
      responses: { 200: { description: "A page of files", schema: listResponse(fileSchema) } },
    }, async (c, { query, actor }) => c.json(await listFiles(deps, actor, query)))
    .route({
      method: "post",
      path: "/",
      summary: "Upload a file",
      description: "multipart/form-data: `file`, `entityType` (user, member, " +
        "member_identifier, product, rental_agreement, repair_ticket), `entityId` (must exist, " +
        "else 400), `category?`. Accepted types judged from the content's bytes: JPEG, PNG, " +
        "WebP, GIF, PDF; plain text (UTF-8) only with category notes; others → 415. Size " +
        "limit config `upload.maxBytes` → 413; `upload.maxFilesPerEntity` → 409 " +
        "file_limit_reached. A member's profile picture: entityType member, category profile " +
        "(images only). ID scans (entityType member_identifier) also need accounts.view, " +
        "else 403. The body must be multipart/form-data (anything else → 415, refused before " +
        "it is read) and at most `upload.maxBytes` plus 64 KiB for the form's envelope (413 " +
        `as soon as it is passed). An \`Idempotency-Key\` retry replays the metadata with a ` +
        "freshly signed `url`.",
      access: "files.upload",
      multipart: uploadForm,
      maxBodyBytes: uploadBodyLimit(deps),
      replay: signedFileReplay(deps),
      responses: {
        201: { description: "The stored file", schema: fileSchema },
        413: { description: "Larger than `upload.maxBytes` (`payload_too_large`)" },
        415: {
          description: "Not multipart, or content not on the whitelist (`unsupported_media_type`)",
        },
      },
      errors: { 400: ["invalid_reference"], 409: ["file_limit_reached"] },
    }, async (c, { actor, form }) => {
      const { fields, file } = fileAndFields(form!);
      const parsed = uploadFields.safeParse(fields);
      if (!parsed.success) throw new ValidationError(fieldIssues(parsed.error));
      const stored = await uploadFile(deps, actor, {
        entityType: parsed.data.entityType,
        entityId: parsed.data.entityId,
        category: parsed.data.category ?? null,
        content: file,
      });
      return c.json(stored, 201);
    })
    .route({
      method: "get",
      path: "/:id",
      summary: "File metadata",
      description: ID_SCANS_NOTE,
      access: "files.view",
      params: idParams,
      responses: { 200: { description: "The file's metadata", schema: fileSchema } },
    }, async (c, { params, actor }) => c.json(await getFile(deps, actor, params.id)))
    .route(
      {
        method: "get",
        path: "/:id/url",
        summary: "A signed URL for a file",
        description: "`{ url, expiresAt }`: the URL serves the file without a token until " +
          "expiresAt (default 15 minutes; `expiresIn` seconds to choose). " + ID_SCANS_NOTE,
        access: "files.view",
        params: idParams,
        query: fileUrlQuery,
        responses: { 200: { description: "The signed URL", schema: fileUrlSchema } },
      },
      async (c, { params, query, actor }) =>
        c.json(await fileUrl(deps, actor, params.id, query.expiresIn)),
    )
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a file",
      description: "Removes the row and the stored bytes. " + ID_SCANS_NOTE,
      access: "files.delete",
      params: idParams,
      responses: { 204: { description: "Deleted" } },
    }, async (c, { params, actor }) => {
      await deleteFile(deps, actor, params.id);
      return c.body(null, 204);
    });
}
