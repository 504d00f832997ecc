/** Roles and the permission catalogue (API §3). */
import type { AppDeps } from "../../app/deps.ts";
import { dataResponse, idParams, listResponse } from "../../app/schemas.ts";
import {
  createRoleBody,
  permissionSchema,
  roleListQuery,
  roleSchema,
  updateRoleBody,
} from "../../app/auth/auth_schemas.ts";
import { listAllRoles, listRoles } from "../../app/auth/roles_repo.ts";
import { createRole, deleteRole, requireRole, updateRole } from "../../app/auth/roles.ts";
import { PERMISSIONS } from "../../domain/auth/permissions.ts";
import { ApiRouter } from "../route.ts";

export function roleRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/roles", "Roles")
    .route({
      method: "get",
      path: "/",
      summary: "List roles",
      description: "Sortable by name (default), slug, createdAt; `q` searches name and slug.",
      access: "users.view",
      query: roleListQuery,
      responses: { 200: { description: "A page of roles", schema: listResponse(roleSchema) } },
    }, async (c, { query }) => c.json(await listRoles(deps.db, query)))
    .route({
      method: "get",
      path: "/all",
      summary: "All roles, unpaginated",
      access: "users.view",
      responses: { 200: { description: "Every role", schema: dataResponse(roleSchema) } },
    }, async (c) => c.json({ data: await listAllRoles(deps.db) }))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a role with its permissions",
      access: "users.view",
      params: idParams,
      responses: { 200: { description: "The role", schema: roleSchema } },
    }, async (c, { params }) => c.json(await requireRole(deps.db, params.id)))
    .route({
      method: "post",
      path: "/",
      summary: "Create a custom role",
      description: "The slug is derived from the name (`Front Desk` → `front-desk`); a clash → " +
        "409 `duplicate`. An unknown permission identifier → 400. Needs a full login and every " +
        "permission the role gets (else 403 `forbidden`, audited as `role.create_denied`).",
      access: "users.admin",
      fullLogin: true,
      body: createRoleBody,
      responses: { 201: { description: "The new role", schema: roleSchema } },
      errors: { 409: ["duplicate"] },
    }, async (c, { body, actor }) => c.json(await createRole(deps, actor, body), 201))
    .route(
      {
        method: "patch",
        path: "/:id",
        summary: "Update a role",
        description:
          "`permissions` replaces the role's set. Renaming a custom role re-derives its " +
          "slug; system roles keep theirs. Applies to existing tokens at once. Needs a full " +
          "login; changing `permissions` needs every permission the role holds and gets (else " +
          "403 `forbidden`, audited as `role.update_denied`) and may not leave the store without " +
          "an active user holding `users.admin` (409 `last_admin`).",
        access: "users.admin",
        fullLogin: true,
        params: idParams,
        body: updateRoleBody,
        responses: { 200: { description: "The updated role", schema: roleSchema } },
        errors: { 409: ["duplicate", "last_admin"] },
      },
      async (c, { params, body, actor }) => c.json(await updateRole(deps, actor, params.id, body)),
    )
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a custom role",
      description: "System roles cannot be deleted (409 `system_role`). Needs a full login and " +
        "every permission of the role (else 403 `forbidden`, audited as `role.delete_denied`); " +
        "deleting the role that keeps the last active user's `users.admin` → 409 `last_admin`.",
      access: "users.admin",
      fullLogin: true,
      params: idParams,
      responses: { 204: { description: "Deleted" } },
      errors: { 409: ["system_role", "last_admin"] },
    }, async (c, { params, actor }) => {
      await deleteRole(deps, actor, params.id);
      return c.body(null, 204);
    });
}

export function permissionRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/permissions", "Roles").route({
    method: "get",
    path: "/",
    summary: "The permission catalogue",
    description: "The 42 system permissions in 13 domains, unpaginated.",
    access: "users.view",
    responses: { 200: { description: "Every permission", schema: dataResponse(permissionSchema) } },
  }, (c) => c.json({ data: PERMISSIONS }));
}
