/**
 * Files attached to records (API §6).
 *
 * `GET /files/serve/*` is declared with access "public" ON PURPOSE: it answers either a
 * valid signed URL (`expires` + `signature`, no token) or a bearer token holding
 * `files.view`, and performs that check itself, first, before any lookup: no token and no
 * signature → 401; a token without files.view → 403; a tampered or expired signature → 403.
 * (API §1.6 lists signed-URL file downloads among the routes that need no token.)
 */
import type { Context } from "hono";
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
  uploadLimits,
} from "../../app/files/files.ts";
import { verifyFileSignature } from "../../app/files/signed_urls.ts";
import { parseServePath } from "../../domain/files/serve_path.ts";
import {
  BadInputError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  ValidationError,
} from "../../domain/errors.ts";
import type { AppEnv } from "../context.ts";
import { fieldIssues } from "../errors.ts";
import { ApiRouter, authenticate } from "../route.ts";

/** Room for the multipart envelope and the text fields besides the file itself. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/**
 * Reads the multipart form without ever holding more than `maxBytes` + overhead: a declared
 * Content-Length over the limit is refused at once, and the body stream is cut (413) as
 * soon as it passes the limit.
 */
async function readLimitedForm(c: Context<AppEnv>, maxBytes: number): Promise<FormData> {
  const limit = maxBytes + FORM_OVERHEAD_BYTES;
  const contentType = c.req.header("Content-Type") ?? "";
  if (!/^multipart\/form-data\b/i.test(contentType)) {
    throw new BadInputError("bad_request", "Expected a multipart/form-data upload");
  }
  const declared = Number(c.req.header("Content-Length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    throw new PayloadTooLargeError(`The upload is larger than ${maxBytes} bytes`);
  }
  let body: ReadableStream<Uint8Array> | null;
  if (c.req.raw.bodyUsed) {
    // Already read by the Idempotency-Key middleware: it is in memory; check its size.
    const buffered = new Uint8Array(await c.req.arrayBuffer());
    if (buffered.byteLength > limit) {
      throw new PayloadTooLargeError(`The upload is larger than ${maxBytes} bytes`);
    }
    body = new Blob([buffered]).stream();
  } else {
    body = c.req.raw.body;
  }
  if (!body) throw new BadInputError("bad_request", "The upload is empty");
  let seen = 0;
  let tooLarge = false;
  const limited = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) {
          tooLarge = true;
          controller.error(new PayloadTooLargeError());
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
  try {
    return await new Request("http://upload.invalid/", {
      method: "POST",
      headers: { "Content-Type": contentType },
      body: limited,
    }).formData();
  } catch {
    if (tooLarge) throw new PayloadTooLargeError(`The upload is larger than ${maxBytes} bytes`);
    throw new BadInputError("bad_request", "The multipart body could not be read");
  }
}

function formFields(form: FormData): { fields: Record<string, string>; file: File } {
  const fields: Record<string, string> = {};
  let file: File | undefined;
  const issues: { path: string; message: string }[] = [];
  for (const [name, value] of form.entries()) {
    if (name === "file") {
      if (file || typeof value === "string") {
        issues.push({ path: "file", message: "Expected exactly one file part" });
      } else file = value;
    } else if (typeof value !== "string" || name in fields) {
      issues.push({ path: name, message: "Expected one text value" });
    } else fields[name] = value;
  }
  if (!file && issues.length === 0) issues.push({ path: "file", message: "A file is required" });
  if (issues.length > 0) throw new ValidationError(issues);
  return { fields, file: file! };
}

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
      description: "Streams the file with its stored Content-Type, `X-Content-Type-Options: " +
        "nosniff` and `Content-Disposition`. Access: a signed URL from GET /files/:id/url or " +
        "the `url` of file metadata (`expires` + `signature`; tampered or expired → 403), OR a " +
        "bearer token with files.view (none → 401, without the permission → 403). Declared " +
        "public because a signed URL needs no token; the route checks access itself before " +
        "any lookup. Any `..`, absolute path, encoded traversal or unknown path → 404.",
      access: "public",
      query: serveQuery,
      responses: {
        200: { description: "The file content", contentType: "application/octet-stream" },
        401: { description: "Neither a signature nor a token" },
        403: { description: "Bad or expired signature, or a token without files.view" },
      },
    }, async (c, { query }) => {
      const signed = query.expires !== undefined || query.signature !== undefined;
      if (!signed) {
        const actor = await authenticate(deps, c);
        if (!actor.permissions.has("files.view")) {
          throw new ForbiddenError("forbidden", "This action needs the files.view permission");
        }
      }
      const parsed = parseServePath(rawServePath(c.req.url));
      if (!parsed) throw new NotFoundError("not_found", "No such file");
      if (
        signed &&
        !(await verifyFileSignature(
          deps.config,
          parsed.fileId,
          query.expires,
          query.signature,
          deps.clock.now(),
        ))
      ) {
        throw new ForbiddenError("invalid_signature", "The file link is invalid or has expired");
      }
      const { file, content } = await openStoredFile(deps, parsed.path);
      const name = file.path.slice(file.path.lastIndexOf("/") + 1);
      return new Response(content, {
        status: 200,
        headers: {
          "Content-Type": file.contentType,
          "Content-Length": String(file.size),
          "X-Content-Type-Options": "nosniff",
          "Content-Disposition": `inline; filename="${name}"`,
          "Cache-Control": "private, no-store",
        },
      });
    })
    .route({
      method: "get",
      path: "/",
      summary: "Files of a record",
      description: "entityType and entityId are required. Sortable by createdAt, category, " +
        "size. `q` is a case-insensitive substring search over the category, the stored path " +
        "(`<entityType>/<id>.<extension>`: original file names are not kept) and the content " +
        "type (`q=pdf`). Each file carries a signed `url` (15 minutes).",
      access: "files.view",
      query: fileListQuery,
      responses: { 200: { description: "A page of files", schema: listResponse(fileSchema) } },
    }, async (c, { query }) => c.json(await listFiles(deps, query)))
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
        "(images only).",
      access: "files.upload",
      multipart: uploadForm,
      responses: { 201: { description: "The stored file", schema: fileSchema } },
    }, async (c, { actor }) => {
      const limits = await uploadLimits(deps);
      const form = await readLimitedForm(c, limits.maxBytes);
      const { fields, file } = formFields(form);
      const parsed = uploadFields.safeParse(fields);
      if (!parsed.success) throw new ValidationError(fieldIssues(parsed.error));
      if (file.size > limits.maxBytes) {
        throw new PayloadTooLargeError(`The file is larger than ${limits.maxBytes} bytes`);
      }
      const stored = await uploadFile(deps, actor, {
        entityType: parsed.data.entityType,
        entityId: parsed.data.entityId,
        category: parsed.data.category ?? null,
        content: new Uint8Array(await file.arrayBuffer()),
      });
      return c.json(stored, 201);
    })
    .route({
      method: "get",
      path: "/:id",
      summary: "File metadata",
      access: "files.view",
      params: idParams,
      responses: { 200: { description: "The file's metadata", schema: fileSchema } },
    }, async (c, { params }) => c.json(await getFile(deps, params.id)))
    .route({
      method: "get",
      path: "/:id/url",
      summary: "A signed URL for a file",
      description: "`{ url, expiresAt }`: the URL serves the file without a token until " +
        "expiresAt (default 15 minutes; `expiresIn` seconds to choose).",
      access: "files.view",
      params: idParams,
      query: fileUrlQuery,
      responses: { 200: { description: "The signed URL", schema: fileUrlSchema } },
    }, async (c, { params, query }) => c.json(await fileUrl(deps, params.id, query.expiresIn)))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a file",
      description: "Removes the row and the stored bytes.",
      access: "files.delete",
      params: idParams,
      responses: { 204: { description: "Deleted" } },
    }, async (c, { params }) => {
      await deleteFile(deps, params.id);
      return c.body(null, 204);
    });
}
