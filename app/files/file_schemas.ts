/** Schemas of files attached to records (API §6). */
import { z } from "zod";
import { listQuery, uuid } from "../schemas.ts";
import { FILE_ENTITY_TYPES } from "./file_owners.ts";

export const fileEntityType = z.enum(FILE_ENTITY_TYPES);

export const fileCategory = z.string().trim().min(1).max(50)
  .regex(/^[A-Za-z0-9_-]+$/, "Letters, digits, _ and - only");

export const fileSchema = z.object({
  id: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  category: z.string().nullable(),
  contentType: z.string(),
  size: z.int(),
  path: z.string().describe("What follows /v1/files/serve/"),
  createdAt: z.string(),
  url: z.string().describe("A signed URL serving the file without a token (15 minutes)"),
}).meta({ id: "StoredFile" });

/** The multipart form of POST /files (documentation and validation of its text fields). */
export const uploadForm = z.strictObject({
  file: z.any().describe("The file content (binary)"),
  entityType: fileEntityType,
  entityId: uuid,
  category: fileCategory.optional()
    .describe('Free label; "profile" on a member = its profile picture; "notes" allows text'),
}).meta({ id: "FileUpload" });

export const uploadFields = uploadForm.omit({ file: true });

export const fileListQuery = listQuery({
  sort: ["createdAt", "category", "size"],
  defaultSort: "createdAt",
  filters: { entityType: fileEntityType, entityId: uuid },
});

export const fileUrlQuery = z.strictObject({
  expiresIn: z.string().regex(/^\d+$/, "Seconds, a positive integer").transform(Number)
    .pipe(z.int().min(1).max(7 * 24 * 3600)).optional()
    .describe("Lifetime of the URL in seconds (default 900, at most 7 days)"),
});

export const fileUrlSchema = z.object({ url: z.string(), expiresAt: z.string() }).meta({
  id: "FileUrl",
});

export const serveQuery = z.object({
  expires: z.string().optional().describe("Signed URL: expiry (Unix seconds)"),
  signature: z.string().optional().describe("Signed URL: HMAC-SHA256 signature"),
});
