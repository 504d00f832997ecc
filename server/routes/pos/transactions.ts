/**
 * Transactions (API §8, §17): start, lines, discount, payments, complete, void, refund, the
 * receipt (JSON, text, HTML) and emailing it.
 */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import {
  addItemBody,
  addItemResponse,
  completeBody,
  createTransactionBody,
  discountBody,
  itemParams,
  paymentBody,
  paymentResponse,
  receiptEmailBody,
  receiptEmailResult,
  receiptSchema,
  refundBody,
  removeItemBody,
  transactionListQuery,
  transactionSchema,
  transactionSummarySchema,
  updateItemBody,
  voidBody,
} from "../../../app/pos/pos_schemas.ts";
import { completeTransaction } from "../../../app/pos/complete_transaction.ts";
import { setDiscount } from "../../../app/pos/discount.ts";
import { addItem, changeItem, removeItem } from "../../../app/pos/item_edits.ts";
import { addPayment } from "../../../app/pos/payments.ts";
import { receiptToJson } from "../../../app/pos/receipt_json.ts";
import { getReceipt } from "../../../app/pos/receipts.ts";
import {
  createTransaction,
  getTransaction,
  listTransactions,
} from "../../../app/pos/transactions.ts";
import { refundTransaction, voidTransaction } from "../../../app/pos/void_and_refund.ts";
import { emailReceipt } from "../../../app/pos/receipt_email.ts";
import { renderReceiptHtml } from "../../../domain/pos/receipt_html.ts";
import { renderReceiptText } from "../../../domain/pos/receipt_text.ts";
import {
  PRINTED_FORMS_NOTE,
  printedResponse,
  printedResponses,
  printQuery,
} from "../../printable.ts";
import { ApiRouter } from "../../route.ts";

/** The catalogue-price rule (API §8), as the line routes describe it. */
const PRICE_BELOW_CATALOGUE = "A product line priced below the product's price is a " +
  "discount: the difference counts toward `discountApprovalThresholdPercent` (per line, and " +
  "with the other lines' and the order discount over the subtotal at catalogue prices); " +
  "beyond it the request needs `override` when `managerOverride.discount` is on (403 " +
  "`manager_override_required`, one body for every invalid code), and each such line is " +
  "audited as `pos.price_override` with the cashier and the approver.";

/** The discount share rule (issue 42), as the line and completion routes describe it. */
const DISCOUNT_SHARE = "The sale's discount share (the lines' reductions below their " +
  "product's price with the order discount, over the subtotal at catalogue prices) is judged " +
  "again whenever the subtotal changes: a change that raises it beyond " +
  "`discountApprovalThresholdPercent` and beyond the share a manager approved for the sale " +
  "needs `override` (403 `manager_override_required`, nothing changed) — $100 off a $1,000 " +
  "sale is 10 %, but 100 % once the $900 line is removed or a quantity lowered; a percent " +
  "discount keeps its share. An approved share is stored on the sale and audited as " +
  "`pos.discount_override` (with the change, the share, the cashier and the approver), and " +
  "not asked again until the share grows beyond it.";

export function transactionRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/transactions", "Point of sale")
    .route({
      method: "get",
      path: "/",
      summary: "List transactions",
      description: "Sortable by createdAt (default, desc), completedAt, total, number. `q` " +
        "(case-insensitive) matches the transaction number (exactly: digits, optionally " +
        "prefixed by `#`), a substring of any line's description (as `itemSearch`) or of " +
        "the account's name. " +
        "Filters: `accountId`, `itemSearch` (case-insensitive substring of any line's " +
        "description; trigram-indexed), `status`, `type`, `locationId`, `registerId`, " +
        "`drawerSessionId`, `from`/`to` on createdAt (a date is a whole store-local day, " +
        "inclusive; a timestamp an instant). Items and payments are on GET /transactions/:id.",
      access: "pos.view",
      query: transactionListQuery,
      responses: {
        200: {
          description: "A page of transactions",
          schema: listResponse(transactionSummarySchema),
        },
      },
    }, async (c, { query }) => c.json(await listTransactions(deps, query)))
    .route({
      method: "post",
      path: "/",
      summary: "Start a transaction with its first items",
      description: "Status `pending`. Item defaults: `kind` sale; with `productId`, " +
        "`description` = the product's name and `unitPrice` its price (without a product " +
        "both are required); `taxCategory` service for labor lines, else the product's tax " +
        "category, else goods. Consumable or inactive products → 400 `not_sellable`; a unit " +
        "not in stock → 409 `unit_unavailable`. An account with an approved, unexpired tax " +
        "exemption pays no tax. `type` defaults to `sale`; `items` are required except for a " +
        "`repair_payment`, which needs `repairTicketId` (unknown or deleted → 400 " +
        "`invalid_reference`, cancelled → 409 `invalid_transition`) and without `items` gets " +
        "its ticket's customer-facing line items (labor taxed as service, parts as goods) while " +
        "nothing is paid on the ticket, else one line `Balance due, repair R-…` of its " +
        "`balanceDue` (none when nothing is due). Lines copied from the ticket name no " +
        "product: its parts left stock when they were added to the ticket, so completing the " +
        "payment takes nothing again (items given with a `productId` are sold from stock like " +
        "any sale's). " + PRICE_BELOW_CATALOGUE +
        " Supports `Idempotency-Key`.",
      access: "pos.edit",
      idempotent: true,
      body: createTransactionBody,
      responses: { 201: { description: "The transaction", schema: transactionSchema } },
      errors: {
        400: ["invalid_reference", "not_sellable"],
        403: ["manager_override_required"],
        409: ["unit_unavailable", "invalid_transition"],
      },
    }, async (c, { body, actor }) => c.json(await createTransaction(deps, actor, body), 201))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a transaction with items, payments and totals",
      access: "pos.view",
      params: idParams,
      responses: { 200: { description: "The transaction", schema: transactionSchema } },
    }, async (c, { params }) => c.json(await getTransaction(deps.db, params.id)))
    .route(
      {
        method: "post",
        path: "/:id/items",
        summary: "Add an item (pending only)",
        description: "Totals are recomputed. Not pending → 409 `invalid_transition`. " +
          PRICE_BELOW_CATALOGUE + " " + DISCOUNT_SHARE,
        access: "pos.edit",
        params: idParams,
        body: addItemBody,
        responses: {
          201: { description: "The item and the transaction", schema: addItemResponse },
        },
        errors: {
          400: ["invalid_reference", "not_sellable"],
          403: ["manager_override_required"],
          409: ["invalid_transition", "unit_unavailable"],
        },
      },
      async (c, { params, body, actor }) =>
        c.json(await addItem(deps, actor, params.id, body), 201),
    )
    .route(
      {
        method: "patch",
        path: "/:id/items/:itemId",
        summary: "Change an item (pending only)",
        description: "Totals are recomputed. Not pending → 409 `invalid_transition`. " +
          PRICE_BELOW_CATALOGUE + " Only an edit that prices the line further below its " +
          "product's price (a lower `unitPrice`, a larger `quantity` of a reduced line) is " +
          "asked for an override for the line and audited. " + DISCOUNT_SHARE,
        access: "pos.edit",
        params: itemParams,
        body: updateItemBody,
        responses: { 200: { description: "The transaction", schema: transactionSchema } },
        errors: { 403: ["manager_override_required"], 409: ["invalid_transition"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await changeItem(deps, actor, params.id, params.itemId, body)),
    )
    .route({
      method: "delete",
      path: "/:id/items/:itemId",
      summary: "Remove an item (pending only)",
      description: "Totals are recomputed. Not pending → 409 `invalid_transition`. The body " +
        "is optional: `{ override }` when the removal needs one. " + DISCOUNT_SHARE,
      access: "pos.edit",
      params: itemParams,
      body: removeItemBody,
      responses: { 204: { description: "Removed" } },
      errors: { 403: ["manager_override_required"], 409: ["invalid_transition"] },
    }, async (c, { params, body, actor }) => {
      await removeItem(deps, actor, params.id, params.itemId, body);
      return c.body(null, 204);
    })
    .route(
      {
        method: "post",
        path: "/:id/discount",
        summary: "Set the order discount (pending only)",
        description: "`percent` (value a percentage) or `amount`; value 0 removes it. A discount " +
          "whose share of the subtotal exceeds `discountApprovalThresholdPercent` needs a " +
          "manager override when `managerOverride.discount` is on (403 " +
          "`manager_override_required`); so does one that passes the threshold together with " +
          "the lines priced below their product's price (their reductions and the discount " +
          "over the subtotal at catalogue prices). Approvals are audited as " +
          "`pos.discount_override`.",
        access: "pos.edit",
        params: idParams,
        body: discountBody,
        responses: { 200: { description: "The transaction", schema: transactionSchema } },
        errors: { 403: ["manager_override_required"], 409: ["invalid_transition"] },
      },
      async (c, { params, body, actor }) => c.json(await setDiscount(deps, actor, params.id, body)),
    )
    .route(
      {
        method: "post",
        path: "/:id/payments",
        summary: "Take a payment (pending only)",
        description: "Split tenders allowed. `amount` above the balance due → 409 " +
          "`overpayment`. Cash: `tendered` (default the amount) ≥ amount, change = tendered − " +
          "amount; other methods: change 0. Supports `Idempotency-Key`.",
        access: "pos.edit",
        idempotent: true,
        params: idParams,
        body: paymentBody,
        responses: {
          201: { description: "The payment and the transaction", schema: paymentResponse },
        },
        errors: { 409: ["invalid_transition", "overpayment"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await addPayment(deps, actor, params.id, body), 201),
    )
    .route(
      {
        method: "post",
        path: "/:id/complete",
        summary: "Complete a paid transaction",
        description: "Needs an open drawer at the location (409 `drawer_not_open`) and nothing " +
          "due (409 `balance_due`). Recorded against the open session of `registerId`, else the " +
          "location's only open session (several → 400 `register_required`, unless the " +
          "transaction's own register has one open). Decrements stock of non-serialized " +
          "products, marks units sold. A repair_payment moves its ticket to picked_up from any " +
          "non-terminal status (picked_up and delivered stay), checked under a lock on the " +
          "ticket: a cancelled ticket → 409 `invalid_transition`, a pre-tax amount (Σ net of " +
          "the lines) above the ticket's `balanceDue` → 409 `overpayment`. A rental buyout " +
          "sale completes only at the payoff it was started at, checked under the rental's " +
          "lock: rent refunded or paid since moves the payoff → 409 `payoff_changed` with the " +
          "rental's current `payoffAmount` in the problem; void the sale and start the buyout " +
          "again. Completing twice → 409 `invalid_transition`. The discount share is judged " +
          "once more: beyond `discountApprovalThresholdPercent` and beyond the share a manager " +
          "approved for the sale (a changed threshold or catalogue price), completing needs " +
          "`override` (403 `manager_override_required`, still pending), audited as " +
          "`pos.discount_override`. Supports `Idempotency-Key`.",
        access: "pos.edit",
        idempotent: true,
        params: idParams,
        body: completeBody,
        responses: { 200: { description: "The transaction", schema: transactionSchema } },
        errors: {
          400: ["register_required", "invalid_reference"],
          403: ["manager_override_required"],
          409: [
            "invalid_transition",
            "drawer_not_open",
            "balance_due",
            "unit_unavailable",
            "overpayment",
            "payoff_changed",
          ],
        },
      },
      async (c, { params, body, actor }) =>
        c.json(await completeTransaction(deps, actor, params.id, body)),
    )
    .route(
      {
        method: "post",
        path: "/:id/void",
        summary: "Void a transaction",
        description: "A pending transaction, or a complete one whose drawer session is still " +
          "open and that has no refunds (else 409 `invalid_transition`); restores stock and " +
          "units. Needs a manager override when `managerOverride.void` is on. Audited as " +
          "`pos.transaction_voided`. A rental_payment whose rent a completed buyout counted → " +
          "409 `equity_consumed` (as for refunds); a voided buyout sale makes its rental " +
          "active again.",
        access: "pos.edit",
        params: idParams,
        body: voidBody,
        responses: { 200: { description: "The voided transaction", schema: transactionSchema } },
        errors: {
          403: ["manager_override_required"],
          409: ["invalid_transition", "equity_consumed"],
        },
      },
      async (c, { params, body, actor }) =>
        c.json(await voidTransaction(deps, actor, params.id, body)),
    )
    .route(
      {
        method: "post",
        path: "/:id/refunds",
        summary: "Refund items of a completed transaction",
        description: "Creates a complete `refund` transaction (negative totals, " +
          "`originalTransactionId`) in the open drawer session at the location (`registerId` " +
          "picks one when several are open) and restocks. Per unit it gives back the line's " +
          "pro-rata net and tax. More than sold, counting earlier refunds → 409 " +
          "`refund_exceeds_sale`. Needs a manager override when `managerOverride.refund` is on. " +
          "Audited as `pos.refund_created`. Supports `Idempotency-Key`. A rental_payment line " +
          "reopens its charge and takes its rent-to-own equity back, checked under the " +
          "rental's lock: rent whose equity a completed buyout counted in its payoff → 409 " +
          "`equity_consumed` (with that sale's `buyoutTransactionId` in the problem) until the " +
          "buyout sale is refunded or voided. Refunding a buyout sale gives its money back and " +
          "frees that rent for refunds; the rental stays `purchased` and its unit `sold`.",
        access: "pos.edit",
        idempotent: true,
        params: idParams,
        body: refundBody,
        responses: { 201: { description: "The refund transaction", schema: transactionSchema } },
        errors: {
          400: ["invalid_reference", "register_required"],
          403: ["manager_override_required"],
          409: ["invalid_transition", "refund_exceeds_sale", "drawer_not_open", "equity_consumed"],
        },
      },
      async (c, { params, body, actor }) =>
        c.json(await refundTransaction(deps, actor, params.id, body), 201),
    )
    .route({
      method: "get",
      path: "/:id/receipt",
      summary: "Receipt (JSON, 40-column text or a printable HTML page)",
      description: "Numbered with the transaction's `receiptNumber` (S-0001234), never its " +
        "UUID; a refund's receipt also names its original (`originalReceiptNumber`, printed " +
        "`Refund of S-…`) and its `refundReason`. Consumable lines never appear. " +
        PRINTED_FORMS_NOTE,
      access: "pos.view",
      params: idParams,
      query: printQuery,
      responses: printedResponses("The receipt", receiptSchema),
    }, async (c, { params, query }) => {
      const receipt = await getReceipt(deps, params.id);
      return printedResponse(c, {
        json: () => receiptToJson(receipt),
        text: () => renderReceiptText(receipt),
        html: (paper) => renderReceiptHtml(receipt, paper),
      }, query.paper);
    })
    .route(
      {
        method: "post",
        path: "/:id/receipt/email",
        summary: "Email the receipt",
        description: "Queues the receipt in the email outbox (delivered over SMTP by the " +
          "outbox worker) as one message with a text part (the 40-column receipt) and an HTML " +
          "part (the printable page); 202 once queued. `to` defaults to the email of the " +
          "transaction's account; neither → 400 `validation_failed` (path `to`). Needs the " +
          "`email` module (else 403 `module_disabled`). Any status may be emailed (a pending " +
          "or voided transaction's receipt says so). Audited as `pos.receipt_emailed` (receipt " +
          "number, recipient, outbox message id).",
        access: "pos.edit",
        params: idParams,
        body: receiptEmailBody,
        example: { to: "customer@example.com" },
        responses: { 202: { description: "Queued", schema: receiptEmailResult } },
        errors: { 400: ["validation_failed"], 403: ["module_disabled"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await emailReceipt(deps, actor, params.id, body), 202),
    );
}
