/** Folder permissions (API §11): grants of a level on a folder to a role or a user. */
import type { AppDeps } from "../../../app/deps.ts";
import { dataResponse, idParams } from "../../../app/schemas.ts";
import { createGrantBody, grantParams, grantSchema } from "../../../app/storage/storage_schemas.ts";
import { grantAccess, listGrants, revokeGrant } from "../../../app/storage/grants.ts";
import { ApiRouter } from "../../route.ts";
import { LEVEL_RULE, noContent, TAG } from "./_shared.ts";

const ADMIN_NOTE = "Needs admin on the folder. " + LEVEL_RULE;

export function folderPermissionRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/storage/folders", TAG)
    .route({
      method: "get",
      path: "/:id/permissions",
      summary: "A folder's own permissions",
      description: "Unpaginated `{ data }`: the grants on this folder itself, oldest first " +
        "(grants on its ancestors apply too, and are listed on them). " + ADMIN_NOTE,
      access: "storage.view",
      params: idParams,
      responses: { 200: { description: "The grants", schema: dataResponse(grantSchema) } },
    }, async (c, { params, actor }) => c.json(await listGrants(deps, actor, params.id)))
    .route(
      {
        method: "post",
        path: "/:id/permissions",
        summary: "Grant a level on a folder to a role or a user",
        description: "`{ roleId | userId, level }` with level traverse, view, edit or admin; the " +
          "grant applies to the folder and every folder below it. An unknown role or user → 400 " +
          "invalid_reference. One grant per folder and grantee: a second → 409 duplicate (revoke " +
          "it and grant again to change the level). What a grant gives is still capped by the " +
          "grantee's own storage permission. " + ADMIN_NOTE,
        access: "storage.view",
        params: idParams,
        body: createGrantBody,
        responses: { 201: { description: "The grant", schema: grantSchema } },
        errors: { 400: ["invalid_reference"], 409: ["duplicate"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await grantAccess(deps, actor, params.id, body), 201),
    )
    .route({
      method: "delete",
      path: "/:id/permissions/:permissionId",
      summary: "Revoke a folder permission",
      description: "A permission of another folder → 404. Revoking one revokes the signed " +
        "URLs of every file in the folder and below, whoever signed them (403 " +
        "invalid_signature; sign again). " + ADMIN_NOTE,
      access: "storage.view",
      params: grantParams,
      responses: noContent,
    }, async (c, { params, actor }) => {
      await revokeGrant(deps, actor, params.id, params.permissionId);
      return c.body(null, 204);
    });
}
