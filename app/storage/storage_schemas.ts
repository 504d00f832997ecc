/** Schemas of the storage hub (API §11), shared by the routes and the OpenAPI document. */
import { z } from "zod";
import { LEVELS } from "../../domain/storage/levels.ts";
import { nameProblem } from "../../domain/storage/folder_tree.ts";
import { listQuery, uuid } from "../schemas.ts";

/** A folder's or a stored file's name: 1–255 characters, no control characters, `/` or `\`. */
export const storageName = z.string().trim().min(1).max(255).superRefine((name, ctx) => {
  const problem = nameProblem(name);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
}).describe("1–255 characters; no control characters, / or \\; not . or ..");

export const level = z.enum(LEVELS).describe("traverse < view < edit < admin");
export const effectiveLevel = z.enum([...LEVELS, "none"]);

export const folderSchema = z.object({
  id: z.string(),
  parentId: z.string().nullable().describe("null for a root folder"),
  name: z.string(),
  isPublic: z.boolean().describe("A view grant to everyone on this folder and below"),
  effectiveLevel: z.enum(LEVELS).describe("The caller's level on this folder"),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).meta({ id: "Folder" });
export type FolderJson = z.infer<typeof folderSchema>;

export const folderListQuery = listQuery({
  sort: ["name", "createdAt"],
  defaultSort: "name",
  filters: {
    parentId: uuid.optional().describe("The folder whose subfolders to list (root when omitted)"),
  },
});
export type FolderListParams = z.output<typeof folderListQuery>;

export const createFolderBody = z.strictObject({
  name: storageName,
  parentId: uuid.nullish().describe("The parent folder; omitted or null for a root folder"),
  isPublic: z.boolean().default(false),
}).meta({ id: "CreateFolderBody" });

export const updateFolderBody = z.strictObject({
  name: storageName.optional(),
  parentId: uuid.nullable().optional().describe("Move under this folder (null: to the root)"),
  isPublic: z.boolean().optional(),
}).meta({ id: "UpdateFolderBody" });
export type FolderChanges = z.output<typeof updateFolderBody>;

export const grantSchema = z.object({
  id: z.string(),
  folderId: z.string(),
  roleId: z.string().nullable(),
  userId: z.string().nullable(),
  level,
  createdBy: z.string().nullable(),
  createdAt: z.string(),
}).meta({ id: "FolderGrant" });
export type GrantJson = z.infer<typeof grantSchema>;

export const createGrantBody = z.strictObject({
  roleId: uuid.optional().describe("The role granted (exactly one of roleId, userId)"),
  userId: uuid.optional().describe("The user granted (exactly one of roleId, userId)"),
  level,
}).superRefine((body, ctx) => {
  if ((body.roleId === undefined) === (body.userId === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: ["roleId"],
      message: "Give exactly one of roleId, userId",
    });
  }
}).meta({ id: "CreateFolderGrantBody" });

export const grantParams = z.object({ id: uuid, permissionId: uuid });

export const storageFileSchema = z.object({
  id: z.string(),
  folderId: z.string(),
  name: z.string(),
  contentType: z.string(),
  size: z.int(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
}).meta({ id: "StorageFile" });
export type StorageFileJson = z.infer<typeof storageFileSchema>;

export const storageFileListQuery = listQuery({
  sort: ["name", "createdAt", "size"],
  defaultSort: "name",
});

/** The multipart form of an upload (documentation; the route reads the parts itself). */
export const storageUploadForm = z.strictObject({
  file: z.any().describe("The file content (binary); its file name names the stored file"),
  name: storageName.optional().describe("The stored file's name, instead of the part's file name"),
}).meta({ id: "StorageFileUpload" });

export const updateStorageFileBody = z.strictObject({
  name: storageName.optional(),
  folderId: uuid.optional().describe("Move the file into this folder (edit level there)"),
}).meta({ id: "UpdateStorageFileBody" });

export const contentQuery = z.strictObject({
  expires: z.string().optional().describe("Signed URL: expiry (Unix seconds)"),
  generation: z.string().optional().describe(
    "Signed URL: the file's access generation when it was signed (a later narrowing of " +
      "access to the file revokes the URL)",
  ),
  signature: z.string().optional().describe("Signed URL: HMAC-SHA256 signature"),
});
