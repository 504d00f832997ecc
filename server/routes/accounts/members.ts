/** `/members` and `/accounts/:id/members`: members of accounts. */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import {
  createMemberBody,
  memberListQuery,
  memberSchema,
  moveMemberBody,
  moveMemberResponse,
  updateMemberBody,
} from "../../../app/accounts/account_schemas.ts";
import {
  createMember,
  deleteMember,
  getMember,
  listMembers,
  moveMember,
  updateMember,
} from "../../../app/accounts/members.ts";
import { ApiRouter } from "../../route.ts";
import { deleted } from "./_shared.ts";
import { memberIdentifierRoutes } from "./identifiers.ts";

/** Adds `/:id/members` (list, add) to the `/accounts` router. */
export function accountMemberRoutes(deps: AppDeps, accounts: ApiRouter): ApiRouter {
  return accounts
    .route(
      {
        method: "get",
        path: "/:id/members",
        summary: "Members of an account",
        description: "Sortable by lastName, firstName, createdAt; `q` as in GET /members.",
        access: "accounts.view",
        params: idParams,
        query: memberListQuery,
        responses: {
          200: { description: "A page of members", schema: listResponse(memberSchema) },
        },
      },
      async (c, { params, query }) =>
        c.json(await listMembers(deps, { ...query, accountId: params.id })),
    )
    .route({
      method: "post",
      path: "/:id/members",
      summary: "Add a member to an account",
      description: "email, phone and address left out are inherited from the account. " +
        "`isMinor` is derived from `dateOfBirth` (age < 18 on today's store-local date); " +
        "sending `isMinor` together with a `dateOfBirth` → 400. The account's first member " +
        "becomes its primary member.",
      access: "accounts.edit",
      params: idParams,
      body: createMemberBody,
      responses: { 201: { description: "The new member", schema: memberSchema } },
    }, async (c, { params, body }) => c.json(await createMember(deps, params.id, body), 201));
}

export function memberRoutes(deps: AppDeps): ApiRouter {
  const router = new ApiRouter(deps, "/members", "Members")
    .route({
      method: "get",
      path: "/",
      summary: "List members",
      description: "Sortable by lastName, firstName, createdAt. `q` matches member names and " +
        "email and the account's name. Each member carries accountId and accountName.",
      access: "accounts.view",
      query: memberListQuery,
      responses: { 200: { description: "A page of members", schema: listResponse(memberSchema) } },
    }, async (c, { query }) => c.json(await listMembers(deps, query)))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a member",
      description: "`profilePictureFileId` is the latest file with entityType member and " +
        "category profile.",
      access: "accounts.view",
      params: idParams,
      responses: { 200: { description: "The member", schema: memberSchema } },
    }, async (c, { params }) => c.json(await getMember(deps, params.id)))
    .route({
      method: "patch",
      path: "/:id",
      summary: "Update a member",
      description: "`isMinor` can be set only while the member has no dateOfBirth (after the " +
        "update); otherwise → 400.",
      access: "accounts.edit",
      params: idParams,
      body: updateMemberBody,
      responses: { 200: { description: "The updated member", schema: memberSchema } },
    }, async (c, { params, body }) => c.json(await updateMember(deps, params.id, body)))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a member",
      description: "Removes the member, its identifiers and its files. When it was the " +
        "account's primary member, the earliest-created remaining member becomes primary " +
        "(or none). A member other records still refer to → 409 in_use.",
      access: "accounts.admin",
      params: idParams,
      responses: deleted,
      errors: { 409: ["in_use"] },
    }, async (c, { params }) => {
      await deleteMember(deps, params.id);
      return c.body(null, 204);
    })
    .route({
      method: "post",
      path: "/:id/move",
      summary: "Move a member to another account",
      description: "With `accountId`: to that account (unknown or deleted → 400 " +
        "invalid_reference). Without: to a new account named `<first> <last> - Account`, " +
        "of which the member becomes primary. The primary pointers of both accounts are " +
        "repaired in the same transaction. Returns the member and the destination account.",
      access: "accounts.edit",
      params: idParams,
      body: moveMemberBody,
      responses: {
        200: { description: "Member and destination account", schema: moveMemberResponse },
      },
      errors: { 400: ["invalid_reference"] },
    }, async (c, { params, body }) => c.json(await moveMember(deps, params.id, body?.accountId)));
  return memberIdentifierRoutes(deps, router);
}
