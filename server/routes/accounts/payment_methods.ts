/** `/payment-methods` and `/accounts/:id/payment-methods`: stored payment methods. */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import {
  createPaymentMethodBody,
  paymentMethodListQuery,
  paymentMethodSchema,
  updatePaymentMethodBody,
} from "../../../app/accounts/account_schemas.ts";
import {
  createPaymentMethod,
  deletePaymentMethod,
  listPaymentMethods,
  updatePaymentMethod,
} from "../../../app/accounts/payment_methods.ts";
import { ApiRouter } from "../../route.ts";
import { deleted, SUB_LIST_NOTE } from "./_shared.ts";

/** Adds `/:id/payment-methods` (list, add) to the `/accounts` router. */
export function accountPaymentMethodRoutes(deps: AppDeps, accounts: ApiRouter): ApiRouter {
  return accounts
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
    .route(
      {
        method: "post",
        path: "/:id/payment-methods",
        summary: "Add a payment method",
        description: "Never a full card number: any string in the body holding 13–19 digits " +
          "(spaces, dashes or dots allowed, full-width and other-script digits read as digits) that " +
          "passes the Luhn check → 400. `isDefault: true` unsets " +
          "the account's previous default.",
        access: "accounts.edit",
        params: idParams,
        body: createPaymentMethodBody,
        responses: { 201: { description: "The new payment method", schema: paymentMethodSchema } },
        errors: { 409: ["duplicate"] },
      },
      async (c, { params, body }) => c.json(await createPaymentMethod(deps, params.id, body), 201),
    );
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
      errors: { 409: ["duplicate"] },
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
