/**
 * Photos of a repair ticket by phase (API §9): files of entityType `repair_ticket` with
 * category = phase, uploaded through the files module (same whitelist and `upload.*` limits;
 * the body is read after the guard, within the limit plus the form's envelope).
 */
import type { AppDeps } from "../../../app/deps.ts";
import { fileSchema } from "../../../app/files/file_schemas.ts";
import { listPhotos, uploadPhoto } from "../../../app/repairs/photos.ts";
import { photoFields, photoForm, photoListQuery } from "../../../app/repairs/repair_schemas.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import { ValidationError } from "../../../domain/errors.ts";
import { fieldIssues } from "../../errors.ts";
import { ApiRouter } from "../../route.ts";
import { fileAndFields, signedFileReplay, uploadBodyLimit } from "../_uploads.ts";

export function photoRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/repair-tickets", "Repairs")
    .route({
      method: "get",
      path: "/:id/photos",
      summary: "A ticket's photos",
      description: "Files of entityType repair_ticket of this ticket; `phase` (intake, " +
        "in_progress, completed) filters by phase (the file's category). Each carries a " +
        "signed `url` (15 minutes). Sortable by createdAt (default) and size.",
      access: "repairs.view",
      params: idParams,
      query: photoListQuery,
      responses: { 200: { description: "A page of photos", schema: listResponse(fileSchema) } },
    }, async (c, { params, query }) => c.json(await listPhotos(deps, params.id, query)))
    .route({
      method: "post",
      path: "/:id/photos",
      summary: "Upload a photo",
      description: "multipart/form-data: `file` and `phase` (intake | in_progress | " +
        "completed). Stored as a file of entityType repair_ticket with category = phase, " +
        "with the files module's whitelist (judged from the bytes: JPEG, PNG, WebP, GIF, " +
        "PDF; else 415) and limits (`upload.maxBytes` → 413, `upload.maxFilesPerEntity` → " +
        "409 `file_limit_reached`). Delete a photo with DELETE /files/:id.",
      access: "repairs.edit",
      params: idParams,
      multipart: photoForm,
      maxBodyBytes: uploadBodyLimit(deps),
      replay: signedFileReplay(deps),
      responses: { 201: { description: "The stored photo", schema: fileSchema } },
      errors: { 400: ["invalid_reference"], 409: ["file_limit_reached"] },
    }, async (c, { params, actor, form }) => {
      const { fields, file } = fileAndFields(form!);
      const parsed = photoFields.safeParse(fields);
      if (!parsed.success) throw new ValidationError(fieldIssues(parsed.error));
      return c.json(await uploadPhoto(deps, actor, params.id, parsed.data.phase, file), 201);
    });
}
