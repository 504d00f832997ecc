/** Stock receipts (API §7): deliveries that increment the stock. */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import {
  createStockReceiptBody,
  stockReceiptListQuery,
  stockReceiptSchema,
} from "../../../app/inventory/inventory_schemas.ts";
import { listStockReceipts } from "../../../app/inventory/stock_receipts_repo.ts";
import { receiveStock, requireStockReceipt } from "../../../app/inventory/stock_receipts.ts";
import { stockReceiptJson } from "../../../app/inventory/stock_receipt_json.ts";
import { ApiRouter } from "../../route.ts";

export function stockReceiptRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/stock-receipts", "Stock receipts")
    .route({
      method: "get",
      path: "/",
      summary: "List stock receipts",
      description: "Sortable by receivedAt (default, newest first), createdAt; filters " +
        "`productId`, `supplierId`; `q` searches the invoice number.",
      access: "inventory.view",
      query: stockReceiptListQuery,
      responses: {
        200: { description: "A page of receipts", schema: listResponse(stockReceiptSchema) },
      },
    }, async (c, { query }) => {
      const page = await listStockReceipts(deps.db, query);
      return c.json({ data: page.data.map(stockReceiptJson), pagination: page.pagination });
    })
    .route(
      {
        method: "post",
        path: "/",
        summary: "Receive stock",
        description: "Records the delivery and, for non-serialized products, increments " +
          "`qtyOnHand` by `quantity` in the same transaction (atomic: parallel receipts never " +
          "lose an increment). Serialized products receive units instead " +
          "(`stockIncremented: false`). Unknown product or supplier → 400 `invalid_reference`. " +
          "Send an `Idempotency-Key` to make retries safe.",
        access: "inventory.edit",
        idempotent: true,
        body: createStockReceiptBody,
        responses: { 201: { description: "The receipt", schema: stockReceiptSchema } },
        errors: { 400: ["invalid_reference"] },
      },
      async (c, { body, actor }) =>
        c.json(stockReceiptJson(await receiveStock(deps, actor, body)), 201),
    )
    .route(
      {
        method: "get",
        path: "/:id",
        summary: "Get a stock receipt",
        access: "inventory.view",
        params: idParams,
        responses: { 200: { description: "The receipt", schema: stockReceiptSchema } },
      },
      async (c, { params }) =>
        c.json(stockReceiptJson(await requireStockReceipt(deps.db, params.id))),
    );
}
