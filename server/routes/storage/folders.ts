/** Storage folders (API §11): the tree, listed one level at a time. */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import {
  createFolderBody,
  folderListQuery,
  folderSchema,
  updateFolderBody,
} from "../../../app/storage/storage_schemas.ts";
import {
  changeFolder,
  createFolder,
  getFolder,
  listFolders,
  removeFolder,
} from "../../../app/storage/folders.ts";
import { ApiRouter } from "../../route.ts";
import { LEVEL_RULE, noContent, TAG } from "./_shared.ts";

export function folderRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/storage/folders", TAG)
    .route({
      method: "get",
      path: "/",
      summary: "List the subfolders of a folder (root folders without parentId)",
      description: "The children of `parentId` that the caller can see, each with the caller's " +
        "`effectiveLevel` on it (computed in the same single query). Without `parentId`: the " +
        "root folders the caller has a level on (a grant to them or one of their roles, a " +
        "public folder, or any with storage.admin). A folder's subfolders inherit its level, so " +
        "all of them are listed when the folder is visible (traverse is enough); a `parentId` " +
        "the caller has no level on → 404. Sortable by name (case-insensitive, default), " +
        "createdAt; `q` searches the names of this level's folders. " + LEVEL_RULE,
      access: "storage.view",
      query: folderListQuery,
      responses: { 200: { description: "A page of folders", schema: listResponse(folderSchema) } },
      errors: { 404: ["not_found"] },
    }, async (c, { query, actor }) => c.json(await listFolders(deps, actor, query)))
    .route({
      method: "post",
      path: "/",
      summary: "Create a folder",
      description: "A root folder (parentId omitted or null) needs the storage.edit permission; " +
        "its creator gets an admin grant on it (a user grant, listed and revocable like any " +
        "other), since grants decide how far a storage.edit holder gets (a storage.admin " +
        "holder, admin everywhere already, gets none). A subfolder needs edit " +
        "on the parent, a public one (isPublic: true) admin on the parent; a parent the caller " +
        "cannot see → 400 invalid_reference. Names are 1–255 characters without control " +
        "characters, / or \\, unique among their siblings case-insensitively, root folders " +
        "included (→ 409 duplicate). isPublic defaults to false. " + LEVEL_RULE,
      access: "storage.view",
      body: createFolderBody,
      responses: { 201: { description: "The folder", schema: folderSchema } },
      errors: { 400: ["invalid_reference"], 409: ["duplicate"] },
    }, async (c, { body, actor }) => c.json(await createFolder(deps, actor, body), 201))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a folder",
      description: "Needs any level on the folder (traverse is enough). " + LEVEL_RULE,
      access: "storage.view",
      params: idParams,
      responses: { 200: { description: "The folder", schema: folderSchema } },
    }, async (c, { params, actor }) => c.json(await getFolder(deps, actor, params.id)))
    .route(
      {
        method: "patch",
        path: "/:id",
        summary: "Rename, move or make a folder public or private",
        description: "Each field that changes needs its level: `name` → edit on the folder; " +
          "`isPublic` → admin on the folder; `parentId` (a move; null = to the root) → admin on " +
          "the folder and edit on the new parent (the root: the storage.edit permission). Fields " +
          "that do not change need nothing beyond seeing the folder. A move into the folder " +
          "itself or one of its subfolders → 400 validation_failed (checked under a lock that " +
          "serializes moves, so two concurrent moves cannot make a cycle); a new parent the " +
          "caller cannot see → 400 invalid_reference; a sibling with the same name (case-" +
          "insensitive) → 409 duplicate. The folder keeps its own grants; what it inherits " +
          "follows its new place. Making it private (isPublic true → false) or moving it revokes " +
          "the signed URLs of every file in it and below (403 invalid_signature); a rename or " +
          "making it public does not. " + LEVEL_RULE,
        access: "storage.view",
        params: idParams,
        body: updateFolderBody,
        responses: { 200: { description: "The folder", schema: folderSchema } },
        errors: { 400: ["invalid_reference"], 409: ["duplicate"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await changeFolder(deps, actor, params.id, body)),
    )
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a folder with everything in it",
      description: "Needs admin on the folder. Removes its whole subtree: every subfolder, " +
        "file and grant, in one transaction; the files' bytes are removed once it has " +
        "committed. A file uploaded into the subtree at the very same moment can make it fail " +
        "with 409 in_use (retry). " + LEVEL_RULE,
      access: "storage.view",
      params: idParams,
      responses: noContent,
      errors: { 409: ["in_use"] },
    }, async (c, { params, actor }) => {
      await removeFolder(deps, actor, params.id);
      return c.body(null, 204);
    });
}
