/**
 * Accounts, members and their sub-records (API §5). Routers: /accounts, /members,
 * /identifiers, /payment-methods, /tax-exemptions, /processor-links, /lookups/id-types.
 *
 * Sub-record lists (identifiers, payment methods, tax exemptions, processor links) follow
 * the list contract of API §1.3 (paginated `{ data, pagination }`), like every other list.
 */
import type { AppDeps } from "../../app/deps.ts";
import { dataResponse, idParams, listResponse } from "../../app/schemas.ts";
import {
  accountListQuery,
  accountSchema,
  createAccountBody,
  createIdentifierBody,
  createIdTypeBody,
  createMemberBody,
  createPaymentMethodBody,
  createProcessorLinkBody,
  createTaxExemptionBody,
  identifierListQuery,
  identifierSchema,
  idTypeSchema,
  memberListQuery,
  memberSchema,
  moveMemberBody,
  moveMemberResponse,
  paymentMethodListQuery,
  paymentMethodSchema,
  processorLinkListQuery,
  processorLinkSchema,
  revokeTaxExemptionBody,
  taxExemptionListQuery,
  taxExemptionSchema,
  updateAccountBody,
  updateIdentifierBody,
  updateMemberBody,
  updatePaymentMethodBody,
  updateProcessorLinkBody,
  updateTaxExemptionBody,
} from "../../app/accounts/account_schemas.ts";
import {
  createAccount,
  deleteAccount,
  getAccount,
  listAccounts,
  updateAccount,
} from "../../app/accounts/accounts.ts";
import {
  createMember,
  deleteMember,
  getMember,
  listMembers,
  moveMember,
  updateMember,
} from "../../app/accounts/members.ts";
import {
  createIdentifier,
  deleteIdentifier,
  listIdentifiers,
  updateIdentifier,
} from "../../app/accounts/identifiers.ts";
import {
  createPaymentMethod,
  deletePaymentMethod,
  listPaymentMethods,
  updatePaymentMethod,
} from "../../app/accounts/payment_methods.ts";
import {
  approveTaxExemption,
  createTaxExemption,
  deleteTaxExemption,
  listTaxExemptions,
  revokeTaxExemption,
  updateTaxExemption,
} from "../../app/accounts/tax_exemptions.ts";
import {
  createProcessorLink,
  deleteProcessorLink,
  listProcessorLinks,
  updateProcessorLink,
} from "../../app/accounts/processor_links.ts";
import { createIdType, deleteIdType, getIdTypes } from "../../app/accounts/lookups.ts";
import { ApiRouter } from "../route.ts";

const deleted = { 204: { description: "Deleted" } };
const SUB_LIST_NOTE = "Paginated like every list (API §1.3); the lists are per record and small, " +
  "but clients page them the same way as the others.";

export function accountRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/accounts", "Accounts")
    .route({
      method: "get",
      path: "/",
      summary: "List accounts",
      description: "Sortable by name, accountNumber, createdAt. `q` matches (case-insensitive, " +
        "substring) the account's name, email, phone and accountNumber, and the names and " +
        "email of its members. Soft-deleted accounts are left out.",
      access: "accounts.view",
      query: accountListQuery,
      responses: {
        200: { description: "A page of accounts", schema: listResponse(accountSchema) },
      },
    }, async (c, { query }) => c.json(await listAccounts(deps, query)))
    .route({
      method: "post",
      path: "/",
      summary: "Create an account",
      description: "Give `name`, or `primaryContact` (then the account is named " +
        "`<first> <last> - Account`, the contact becomes its first member and " +
        "`primaryMemberId`, and the account's email/phone default to the contact's). " +
        "`accountNumber` is assigned by the server (A-000001, A-000002, …). " +
        "`address.state` is normalised to the USPS code (`new york` → `NY`); unknown → 400.",
      access: "accounts.edit",
      body: createAccountBody,
      responses: { 201: { description: "The new account", schema: accountSchema } },
    }, async (c, { body }) => c.json(await createAccount(deps, body), 201))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get an account",
      access: "accounts.view",
      params: idParams,
      responses: { 200: { description: "The account", schema: accountSchema } },
    }, async (c, { params }) => c.json(await getAccount(deps, params.id)))
    .route({
      method: "patch",
      path: "/:id",
      summary: "Update an account",
      description: "name, email, phone, address. The account number and primary member are " +
        "managed by the server.",
      access: "accounts.edit",
      params: idParams,
      body: updateAccountBody,
      responses: { 200: { description: "The updated account", schema: accountSchema } },
    }, async (c, { params, body }) => c.json(await updateAccount(deps, params.id, body)))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete an account (soft)",
      description: "The row is kept; the account and its members disappear from every read.",
      access: "accounts.admin",
      params: idParams,
      responses: deleted,
    }, async (c, { params }) => {
      await deleteAccount(deps, params.id);
      return c.body(null, 204);
    })
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
    }, async (c, { params, body }) => c.json(await createMember(deps, params.id, body), 201))
    .route({
      method: "get",
      path: "/:id/payment-methods",
      summary: "Payment methods of an account",
      description: `Sortable by type, createdAt. ${SUB_LIST_NOTE}`,
      access: "accounts.view",
      params: idParams,
      query: paymentMethodListQuery,
      responses: {
        200: {
          description: "A page of payment methods",
          schema: listResponse(paymentMethodSchema),
        },
      },
    }, async (c, { params, query }) => c.json(await listPaymentMethods(deps, params.id, query)))
    .route({
      method: "post",
      path: "/:id/payment-methods",
      summary: "Add a payment method",
      description: "Never a full card number: any string in the body holding 13–19 digits " +
        "(spaces/dashes allowed) that passes the Luhn check → 400. `isDefault: true` unsets " +
        "the account's previous default.",
      access: "accounts.edit",
      params: idParams,
      body: createPaymentMethodBody,
      responses: { 201: { description: "The new payment method", schema: paymentMethodSchema } },
    }, async (c, { params, body }) => c.json(await createPaymentMethod(deps, params.id, body), 201))
    .route({
      method: "get",
      path: "/:id/tax-exemptions",
      summary: "Tax exemptions of an account",
      description:
        `Sortable by certificateNumber, status, createdAt; filter status. ${SUB_LIST_NOTE}`,
      access: "accounts.view",
      params: idParams,
      query: taxExemptionListQuery,
      responses: {
        200: { description: "A page of tax exemptions", schema: listResponse(taxExemptionSchema) },
      },
    }, async (c, { params, query }) => c.json(await listTaxExemptions(deps, params.id, query)))
    .route({
      method: "post",
      path: "/:id/tax-exemptions",
      summary: "Add a tax exemption (pending)",
      description: "Starts `pending`; approve and revoke with their own actions.",
      access: "accounts.edit",
      params: idParams,
      body: createTaxExemptionBody,
      responses: { 201: { description: "The new exemption", schema: taxExemptionSchema } },
    }, async (c, { params, body }) => c.json(await createTaxExemption(deps, params.id, body), 201))
    .route({
      method: "get",
      path: "/:id/processor-links",
      summary: "Payment-processor links of an account",
      description: `Sortable by processor, createdAt. ${SUB_LIST_NOTE}`,
      access: "accounts.view",
      params: idParams,
      query: processorLinkListQuery,
      responses: {
        200: { description: "A page of links", schema: listResponse(processorLinkSchema) },
      },
    }, async (c, { params, query }) => c.json(await listProcessorLinks(deps, params.id, query)))
    .route(
      {
        method: "post",
        path: "/:id/processor-links",
        summary: "Link the account to a processor customer",
        description: "(processor, externalCustomerId) is unique (processor compared " +
          "case-insensitively): a second link → 409 duplicate.",
        access: "accounts.edit",
        params: idParams,
        body: createProcessorLinkBody,
        responses: { 201: { description: "The new link", schema: processorLinkSchema } },
      },
      async (c, { params, body }) => c.json(await createProcessorLink(deps, params.id, body), 201),
    );
}

export function memberRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/members", "Members")
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
    }, async (c, { params, body }) => c.json(await moveMember(deps, params.id, body?.accountId)))
    .route({
      method: "get",
      path: "/:id/identifiers",
      summary: "Identity documents of a member",
      description: `Sortable by idType, createdAt. ${SUB_LIST_NOTE}`,
      access: "accounts.view",
      params: idParams,
      query: identifierListQuery,
      responses: {
        200: { description: "A page of identifiers", schema: listResponse(identifierSchema) },
      },
    }, async (c, { params, query }) => c.json(await listIdentifiers(deps, params.id, query)))
    .route({
      method: "post",
      path: "/:id/identifiers",
      summary: "Add an identity document",
      description: "`idType` is a value of GET /lookups/id-types (else 400 invalid_reference). " +
        "Scans: create the identifier, upload files with entityType member_identifier and " +
        "entityId = the identifier's id, then PATCH frontFileId/backFileId (files of another " +
        "type or member → 400 invalid_reference).",
      access: "accounts.edit",
      params: idParams,
      body: createIdentifierBody,
      responses: { 201: { description: "The new identifier", schema: identifierSchema } },
    }, async (c, { params, body }) => c.json(await createIdentifier(deps, params.id, body), 201));
}

export function identifierRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/identifiers", "Members")
    .route({
      method: "patch",
      path: "/:id",
      summary: "Update an identity document",
      access: "accounts.edit",
      params: idParams,
      body: updateIdentifierBody,
      responses: { 200: { description: "The updated identifier", schema: identifierSchema } },
    }, async (c, { params, body }) => c.json(await updateIdentifier(deps, params.id, body)))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete an identity document (and its scans)",
      access: "accounts.admin",
      params: idParams,
      responses: deleted,
    }, async (c, { params }) => {
      await deleteIdentifier(deps, params.id);
      return c.body(null, 204);
    });
}

export function paymentMethodRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/payment-methods", "Accounts")
    .route({
      method: "patch",
      path: "/:id",
      summary: "Update a payment method",
      description: "A full card number anywhere → 400; `isDefault: true` unsets the previous " +
        "default of the account.",
      access: "accounts.edit",
      params: idParams,
      body: updatePaymentMethodBody,
      responses: {
        200: { description: "The updated payment method", schema: paymentMethodSchema },
      },
    }, async (c, { params, body }) => c.json(await updatePaymentMethod(deps, params.id, body)))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a payment method",
      access: "accounts.admin",
      params: idParams,
      responses: deleted,
    }, async (c, { params }) => {
      await deletePaymentMethod(deps, params.id);
      return c.body(null, 204);
    });
}

export function taxExemptionRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/tax-exemptions", "Accounts")
    .route({
      method: "patch",
      path: "/:id",
      summary: "Update a tax exemption",
      description: "certificateNumber, issuingState, reason, expiresDate; `status` is not " +
        "writable here (approve/revoke). A revoked exemption is final → 409 invalid_transition.",
      access: "accounts.edit",
      params: idParams,
      body: updateTaxExemptionBody,
      responses: { 200: { description: "The updated exemption", schema: taxExemptionSchema } },
    }, async (c, { params, body }) => c.json(await updateTaxExemption(deps, params.id, body)))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a tax exemption",
      access: "accounts.admin",
      params: idParams,
      responses: deleted,
    }, async (c, { params }) => {
      await deleteTaxExemption(deps, params.id);
      return c.body(null, 204);
    })
    .route(
      {
        method: "post",
        path: "/:id/approve",
        summary: "Approve a pending tax exemption",
        description: "pending → approved; any other state → 409 invalid_transition.",
        access: "accounts.approve",
        params: idParams,
        responses: { 200: { description: "The approved exemption", schema: taxExemptionSchema } },
      },
      async (c, { params, actor }) =>
        c.json(await approveTaxExemption(deps, params.id, actor.userId)),
    )
    .route(
      {
        method: "post",
        path: "/:id/revoke",
        summary: "Revoke a tax exemption",
        description: "pending | approved → revoked (final), with a required reason; a revoked " +
          "exemption → 409 invalid_transition.",
        access: "accounts.approve",
        params: idParams,
        body: revokeTaxExemptionBody,
        responses: { 200: { description: "The revoked exemption", schema: taxExemptionSchema } },
      },
      async (c, { params, body, actor }) =>
        c.json(await revokeTaxExemption(deps, params.id, actor.userId, body.reason)),
    );
}

export function processorLinkRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/processor-links", "Accounts")
    .route({
      method: "patch",
      path: "/:id",
      summary: "Update a processor link",
      access: "accounts.edit",
      params: idParams,
      body: updateProcessorLinkBody,
      responses: { 200: { description: "The updated link", schema: processorLinkSchema } },
    }, async (c, { params, body }) => c.json(await updateProcessorLink(deps, params.id, body)))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a processor link",
      access: "accounts.admin",
      params: idParams,
      responses: deleted,
    }, async (c, { params }) => {
      await deleteProcessorLink(deps, params.id);
      return c.body(null, 204);
    });
}

export function idTypeRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/lookups/id-types", "Lookups")
    .route({
      method: "get",
      path: "/",
      summary: "Identity document types",
      description: "The fixed-size lookup `{ data }` (unpaginated). Built-ins: drivers_license, " +
        "state_id, passport, student_id, other.",
      access: "accounts.view",
      responses: { 200: { description: "All id types", schema: dataResponse(idTypeSchema) } },
    }, async (c) => c.json({ data: await getIdTypes(deps) }))
    .route({
      method: "post",
      path: "/",
      summary: "Add an identity document type",
      description: "`value` is lowercase snake_case and unique (a clash → 409 duplicate).",
      access: "accounts.admin",
      body: createIdTypeBody,
      responses: { 201: { description: "The new id type", schema: idTypeSchema } },
    }, async (c, { body }) => c.json(await createIdType(deps, body), 201))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a custom identity document type",
      description: "Built-in values → 409 `built_in`; a value used by any member identifier " +
        "→ 409 `in_use`.",
      access: "accounts.admin",
      params: idParams,
      responses: deleted,
    }, async (c, { params }) => {
      await deleteIdType(deps, params.id);
      return c.body(null, 204);
    });
}

export const ACCOUNT_ROUTERS = [
  accountRoutes,
  memberRoutes,
  identifierRoutes,
  paymentMethodRoutes,
  taxExemptionRoutes,
  processorLinkRoutes,
  idTypeRoutes,
] as const;
