/** Staff users and their roles (API §3). Every route needs a full login (no POS token). */
import type { AppDeps } from "../../app/deps.ts";
import { dataResponse, idParams, listResponse } from "../../app/schemas.ts";
import {
  assignRoleBody,
  createdUserSchema,
  createUserBody,
  roleSummarySchema,
  updateUserBody,
  userListQuery,
  userRoleParams,
  userSchema,
  userStatusBody,
} from "../../app/auth/auth_schemas.ts";
import { createStaffUser, requireUser, setUserStatus, updateUser } from "../../app/auth/users.ts";
import { assignRole, removeRole, rolesOfUser } from "../../app/auth/user_roles.ts";
import { listUsers } from "../../app/auth/users_repo.ts";
import { ApiRouter } from "../route.ts";
import { NO_STORE_HEADERS } from "./auth.ts";

export function userRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/users", "Users")
    .route({
      method: "get",
      path: "/",
      summary: "List users",
      description: "Sortable by email, lastName (default), createdAt; `q` searches email, first " +
        "and last name; filter `isActive`. Roles are included inline.",
      access: "users.view",
      fullLogin: true,
      query: userListQuery,
      responses: { 200: { description: "A page of users", schema: listResponse(userSchema) } },
    }, async (c, { query }) => c.json(await listUsers(deps.db, query)))
    .route(
      {
        method: "post",
        path: "/",
        summary: "Create a staff user",
        description: "employeeNumber (4 digits, unique) is the lowest free one from 0001 when " +
          "omitted. Without `password`, `resetLink` (valid 1 hour) lets the user choose one. " +
          "Email or employee number in use → 409 `duplicate`; unknown role id → 400 " +
          "`invalid_reference`; a role holding a permission the caller lacks → 403 `forbidden` " +
          "(audited as `user.create_denied`). Answered with `Cache-Control: no-store` (the " +
          "response may carry a reset link).",
        access: "users.admin",
        fullLogin: true,
        body: createUserBody,
        responses: {
          201: {
            description: "The new user",
            schema: createdUserSchema,
            headers: ["Cache-Control"],
          },
        },
        errors: { 400: ["invalid_reference"], 409: ["duplicate", "employee_numbers_exhausted"] },
      },
      async (c, { body, actor }) =>
        c.json(await createStaffUser(deps, actor, body), 201, NO_STORE_HEADERS),
    )
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a user",
      access: "users.view",
      fullLogin: true,
      params: idParams,
      responses: { 200: { description: "The user", schema: userSchema } },
    }, async (c, { params }) => c.json(await requireUser(deps.db, params.id)))
    .route(
      {
        method: "patch",
        path: "/:id",
        summary: "Update a user's names or employee number",
        description: "A different `employeeNumber` (the first half of the user's PIN code) " +
          "needs every permission the user holds among the caller's (no privilege beyond " +
          "one's own), else 403 `forbidden`, audited as `user.update_denied`; names need only " +
          "users.edit. The user's wrong-PIN count (PIN login, override codes) stays with them " +
          "under the new number. A number another user holds → 409 `duplicate`.",
        access: "users.edit",
        fullLogin: true,
        params: idParams,
        body: updateUserBody,
        responses: { 200: { description: "The updated user", schema: userSchema } },
        errors: { 409: ["duplicate"] },
      },
      async (c, { params, body, actor }) => c.json(await updateUser(deps, actor, params.id, body)),
    )
    .route(
      {
        method: "patch",
        path: "/:id/status",
        summary: "Enable or disable a user",
        description: "Disabling revokes every token of the user at once; re-enabling does not " +
          "revive them. A disabled user is refused with 401 `user_disabled`. Disabling needs " +
          "every permission the user holds (else 403 `forbidden`, audited as " +
          "`user.disable_denied`) and may not leave the store without an active user holding " +
          "`users.admin` (409 `last_admin`).",
        access: "users.admin",
        fullLogin: true,
        params: idParams,
        body: userStatusBody,
        responses: { 200: { description: "The user", schema: userSchema } },
        errors: { 409: ["last_admin"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await setUserStatus(deps, actor, params.id, body.isActive)),
    )
    .route({
      method: "get",
      path: "/:id/roles",
      summary: "Roles of a user",
      access: "users.view",
      fullLogin: true,
      params: idParams,
      responses: { 200: { description: "The roles", schema: dataResponse(roleSummarySchema) } },
    }, async (c, { params }) => c.json({ data: await rolesOfUser(deps, params.id) }))
    .route(
      {
        method: "post",
        path: "/:id/roles",
        summary: "Assign a role to a user",
        description: "Applies to the user's existing tokens at once. A role the user already " +
          "has → 409 `duplicate`; an unknown role → 400 `invalid_reference`. The caller must " +
          "hold every permission of the role and of the user (no privilege beyond one's own, " +
          "the caller included): else 403 `forbidden`, audited as `user.role_assign_denied`.",
        access: "users.edit",
        fullLogin: true,
        params: idParams,
        body: assignRoleBody,
        responses: { 201: { description: "The assigned role", schema: roleSummarySchema } },
        errors: { 400: ["invalid_reference"], 409: ["duplicate"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await assignRole(deps, actor, params.id, body.roleId), 201),
    )
    .route({
      method: "delete",
      path: "/:id/roles/:roleId",
      summary: "Remove a role from a user",
      description: "Applies to the user's existing tokens at once. A role the user does not " +
        "have → 404. The caller must hold every permission of the role and of the user (else " +
        "403 `forbidden`, audited as `user.role_remove_denied`); removing the last active " +
        "holder's `users.admin` → 409 `last_admin`.",
      access: "users.edit",
      fullLogin: true,
      params: userRoleParams,
      responses: { 204: { description: "Removed" } },
      errors: { 409: ["last_admin"] },
    }, async (c, { params, actor }) => {
      await removeRole(deps, actor, params.id, params.roleId);
      return c.body(null, 204);
    });
}
