/** Line items of a repair ticket (API §9), nested under their ticket's path. */
import type { AppDeps } from "../../../app/deps.ts";
import {
  addLineItem,
  changeLineItem,
  getLineItem,
  listLineItemsOf,
  removeLineItem,
} from "../../../app/repairs/line_items.ts";
import {
  createLineItemBody,
  lineItemListQuery,
  lineItemParams,
  lineItemSchema,
  updateLineItemBody,
} from "../../../app/repairs/repair_schemas.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import { ApiRouter } from "../../route.ts";
import { noContent } from "./_shared.ts";

const RULES = "A line is labor or part; it may name a product (parts and consumables), " +
  "whose name and price fill in a missing `description` and `unitPrice` (without a product " +
  "both are required). A line whose product is a consumable gets `isInternal: true`: it " +
  "counts in the ticket's `internalCost`, never in `customerTotal` nor on a receipt. Every " +
  "change rewrites the ticket's totals in the same transaction. A line id under another " +
  "ticket's path → 404 (and the line is left alone). Parts take stock (labor or part, " +
  "consumable or not): a line naming a product takes its `quantity` out of the product's " +
  "`qtyOnHand` when added, gives it back when deleted and moves the difference when its " +
  "quantity or product changes (the old product gets its count back, the new one gives it), " +
  "in the same transaction; stock may go below zero (a repair is never blocked by a wrong " +
  "count). A part is taken once: the repair_payment lines the POS copies from the ticket " +
  "name no product, so completing the payment takes nothing again. Cancelling, deleting or " +
  "paying for the ticket leaves its parts used; deleting the line (allowed in any status) " +
  "gives them back. A line gives back only what it took: a line added before parts took " +
  "stock (an older shop's ticket) took nothing, so deleting it gives nothing back. A " +
  "serialized or rental product (tracked unit by unit: units are sold at the POS, never " +
  "taken by a ticket line) → 400 `invalid_product_type`.";

export function lineItemRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/repair-tickets", "Repairs")
    .route({
      method: "get",
      path: "/:id/line-items",
      summary: "A ticket's line items",
      description: "Sortable by createdAt (default), kind, description; filter `kind`; `q` " +
        "searches the description.",
      access: "repairs.view",
      params: idParams,
      query: lineItemListQuery,
      responses: {
        200: { description: "A page of line items", schema: listResponse(lineItemSchema) },
      },
    }, async (c, { params, query }) => c.json(await listLineItemsOf(deps, params.id, query)))
    .route(
      {
        method: "post",
        path: "/:id/line-items",
        summary: "Add a line item",
        description: RULES + " An unknown product → 400 `invalid_reference`.",
        access: "repairs.edit",
        params: idParams,
        body: createLineItemBody,
        responses: { 201: { description: "The line item", schema: lineItemSchema } },
        errors: { 400: ["invalid_reference", "invalid_product_type"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await addLineItem(deps, actor, params.id, body), 201),
    )
    .route({
      method: "get",
      path: "/:id/line-items/:itemId",
      summary: "Get a line item",
      description: RULES,
      access: "repairs.view",
      params: lineItemParams,
      responses: { 200: { description: "The line item", schema: lineItemSchema } },
    }, async (c, { params }) => c.json(await getLineItem(deps, params.id, params.itemId)))
    .route(
      {
        method: "patch",
        path: "/:id/line-items/:itemId",
        summary: "Change a line item",
        description: RULES + " Naming another product takes its name and price unless they " +
          "are given too; `productId: null` unlinks the product. Stock moves only when the " +
          "quantity or the product changes (other fields move none). A line added before " +
          "parts took stock holds none: the first change of its quantity or product takes " +
          "the new quantity of its product in full, as if the line were added now (from then " +
          "on it behaves as any line); keeping its product, even a serialized or rental one, " +
          "is never refused (such a line holds no stock and moves none), only naming one " +
          "anew → 400 `invalid_product_type`.",
        access: "repairs.edit",
        params: lineItemParams,
        body: updateLineItemBody,
        responses: { 200: { description: "The line item", schema: lineItemSchema } },
        errors: { 400: ["invalid_reference", "invalid_product_type"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await changeLineItem(deps, actor, params.id, params.itemId, body)),
    )
    .route({
      method: "delete",
      path: "/:id/line-items/:itemId",
      summary: "Remove a line item",
      description: RULES,
      access: "repairs.edit",
      params: lineItemParams,
      responses: noContent,
    }, async (c, { params, actor }) => {
      await removeLineItem(deps, actor, params.id, params.itemId);
      return c.body(null, 204);
    });
}
