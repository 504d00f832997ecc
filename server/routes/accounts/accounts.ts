/** `/accounts`: the accounts themselves, then the sub-records listed and added under them. */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import {
  accountListQuery,
  accountSchema,
  createAccountBody,
  updateAccountBody,
} from "../../../app/accounts/account_schemas.ts";
import {
  createAccount,
  deleteAccount,
  getAccount,
  listAccounts,
  updateAccount,
} from "../../../app/accounts/accounts.ts";
import { ApiRouter } from "../../route.ts";
import { deleted } from "./_shared.ts";
import { accountMemberRoutes } from "./members.ts";
import { accountPaymentMethodRoutes } from "./payment_methods.ts";
import { accountTaxExemptionRoutes } from "./tax_exemptions.ts";
import { accountProcessorLinkRoutes } from "./processor_links.ts";

export function accountRoutes(deps: AppDeps): ApiRouter {
  const router = new ApiRouter(deps, "/accounts", "Accounts")
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
    });
  accountMemberRoutes(deps, router);
  accountPaymentMethodRoutes(deps, router);
  accountTaxExemptionRoutes(deps, router);
  accountProcessorLinkRoutes(deps, router);
  return router;
}
