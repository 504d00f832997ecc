/** Point of sale (API §8): registers, drawers, adjustments, transactions, reports. */
import type { AppDeps } from "../../app/deps.ts";
import { idParams, listResponse } from "../../app/schemas.ts";
import {
  addItemResponse,
  adjustmentBody,
  adjustmentListQuery,
  adjustmentSchema,
  closeDrawerBody,
  completeBody,
  createRegisterBody,
  createTransactionBody,
  currentDrawerQuery,
  dailyReportQuery,
  dailyReportSchema,
  discountBody,
  drawerListQuery,
  drawerReportSchema,
  drawerSessionSchema,
  itemInput,
  itemParams,
  openDrawerBody,
  paymentBody,
  paymentResponse,
  receiptSchema,
  refundBody,
  registerListQuery,
  registerSchema,
  transactionListQuery,
  transactionSchema,
  transactionSummarySchema,
  updateItemBody,
  updateRegisterBody,
  voidBody,
} from "../../app/pos/pos_schemas.ts";
import { listRegisters } from "../../app/pos/pos_repo.ts";
import {
  changeRegister,
  createRegister,
  getRegister,
  removeRegister,
} from "../../app/pos/registers.ts";
import {
  addAdjustment,
  closeDrawer,
  currentDrawer,
  getDrawer,
  listDrawerAdjustments,
  listDrawers,
  openDrawer,
} from "../../app/pos/drawers.ts";
import {
  addItem,
  changeItem,
  createTransaction,
  getReceipt,
  getTransaction,
  listTransactions,
  removeItem,
  setDiscount,
} from "../../app/pos/transactions.ts";
import { addPayment } from "../../app/pos/payments.ts";
import { completeTransaction } from "../../app/pos/complete_transaction.ts";
import { refundTransaction, voidTransaction } from "../../app/pos/void_and_refund.ts";
import { getDailyReport, getDrawerReport } from "../../app/pos/reports.ts";
import { receiptToJson, renderReceiptText } from "../../domain/pos/receipt_text.ts";
import { ApiRouter } from "../route.ts";

export function registerRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/registers", "Point of sale")
    .route({
      method: "get",
      path: "/",
      summary: "List registers",
      description: "Sortable by name, createdAt (default name). `q` matches the name. " +
        "Filters: `locationId`, `isActive`.",
      access: "pos.view",
      query: registerListQuery,
      responses: {
        200: { description: "A page of registers", schema: listResponse(registerSchema) },
      },
    }, async (c, { query }) => c.json(await listRegisters(deps.db, query)))
    .route({
      method: "post",
      path: "/",
      summary: "Create a register",
      description: "Names are unique per location (case-insensitive; 409 `duplicate`). Unknown " +
        "`locationId` → 400 `invalid_reference`.",
      access: "pos.admin",
      body: createRegisterBody,
      responses: { 201: { description: "The new register", schema: registerSchema } },
    }, async (c, { body }) => c.json(await createRegister(deps, body), 201))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a register",
      access: "pos.view",
      params: idParams,
      responses: { 200: { description: "The register", schema: registerSchema } },
    }, async (c, { params }) => c.json(await getRegister(deps.db, params.id)))
    .route({
      method: "patch",
      path: "/:id",
      summary: "Update a register",
      access: "pos.admin",
      params: idParams,
      body: updateRegisterBody,
      responses: { 200: { description: "The updated register", schema: registerSchema } },
    }, async (c, { params, body }) => c.json(await changeRegister(deps, params.id, body)))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a register",
      description: "Only a register without drawer history; otherwise 409 `in_use` (set " +
        "`isActive: false` instead).",
      access: "pos.admin",
      params: idParams,
      responses: { 204: { description: "Deleted" } },
    }, async (c, { params }) => {
      await removeRegister(deps, params.id);
      return c.body(null, 204);
    });
}

export function drawerRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/drawers", "Point of sale")
    .route({
      method: "post",
      path: "/open",
      summary: "Open a drawer session",
      description: "One open session per register (enforced by the database): a second → 409 " +
        "`drawer_already_open`. Audited as `pos.drawer_opened`. Supports `Idempotency-Key`.",
      access: "pos.edit",
      idempotent: true,
      body: openDrawerBody,
      responses: { 201: { description: "The open session", schema: drawerSessionSchema } },
    }, async (c, { body, actor }) => c.json(await openDrawer(deps, actor, body), 201))
    .route({
      method: "get",
      path: "/current",
      summary: "The open drawer session of a register or location",
      description: "Give `registerId` or `locationId` (with several open at a location: the " +
        "oldest). None open → 404 `no_open_drawer`.",
      access: "pos.view",
      query: currentDrawerQuery,
      responses: { 200: { description: "The open session", schema: drawerSessionSchema } },
    }, async (c, { query }) => c.json(await currentDrawer(deps, query)))
    .route({
      method: "get",
      path: "/",
      summary: "List drawer sessions",
      description: "Sortable by openedAt, closedAt, createdAt (an alias of openedAt; default " +
        "openedAt desc). `q` is a case-insensitive substring search over the register name " +
        "and the session notes. Filters: " +
        "`registerId`, `locationId`, `status` (open|closed), `from`/`to` on openedAt (a date " +
        "is a whole store-local day, inclusive; a timestamp an instant). `expectedBalance` is " +
        "null in the list while a session is open (see GET /drawers/:id).",
      access: "pos.view",
      query: drawerListQuery,
      responses: {
        200: { description: "A page of sessions", schema: listResponse(drawerSessionSchema) },
      },
    }, async (c, { query }) => c.json(await listDrawers(deps, query)))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a drawer session",
      description: "An open session carries its live `expectedBalance`; a closed one its " +
        "frozen `zReport`.",
      access: "pos.view",
      params: idParams,
      responses: { 200: { description: "The session", schema: drawerSessionSchema } },
    }, async (c, { params }) => c.json(await getDrawer(deps, params.id)))
    .route(
      {
        method: "post",
        path: "/:id/close",
        summary: "Close a drawer session",
        description: "Computes `expectedBalance` (opening + cash sales − cash refunds + in − " +
          "out), `overShort` = closing − expected, and freezes the Z report (`zReport`). A " +
          "closed session → 409 `drawer_not_open`. Audited as `pos.drawer_closed`.",
        access: "pos.edit",
        params: idParams,
        body: closeDrawerBody,
        responses: { 200: { description: "The closed session", schema: drawerSessionSchema } },
      },
      async (c, { params, body, actor }) => c.json(await closeDrawer(deps, actor, params.id, body)),
    )
    .route(
      {
        method: "post",
        path: "/:id/adjustments",
        summary: "Cash in or out of an open drawer",
        description: "Needs a manager override when `managerOverride.cashInOut` is on and the " +
          "caller lacks `pos.override` (403 `manager_override_required`). Closed drawer → 409 " +
          "`drawer_not_open`. Audited as `pos.cash_adjustment`. Supports `Idempotency-Key`.",
        access: "pos.edit",
        idempotent: true,
        params: idParams,
        body: adjustmentBody,
        responses: { 201: { description: "The adjustment", schema: adjustmentSchema } },
      },
      async (c, { params, body, actor }) =>
        c.json(await addAdjustment(deps, actor, params.id, body), 201),
    )
    .route({
      method: "get",
      path: "/:id/adjustments",
      summary: "Cash adjustments of a drawer session",
      description: "Sortable by createdAt (default, ascending). `q` matches the reason.",
      access: "pos.view",
      params: idParams,
      query: adjustmentListQuery,
      responses: {
        200: { description: "A page of adjustments", schema: listResponse(adjustmentSchema) },
      },
    }, async (c, { params, query }) => c.json(await listDrawerAdjustments(deps, params.id, query)))
    .route({
      method: "get",
      path: "/:id/report",
      summary: "Drawer report (X while open, Z once closed)",
      description: "The Z report is the one frozen at close.",
      access: "pos.view",
      params: idParams,
      responses: { 200: { description: "The report", schema: drawerReportSchema } },
    }, async (c, { params }) => c.json(await getDrawerReport(deps, params.id)));
}

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
        "exemption pays no tax. `type` defaults to `sale`. `repair_payment` needs " +
        "`repairTicketId` (a cancelled ticket → 409 `invalid_transition`); until the repairs " +
        "module registers its repair-ticket port (app/pos/repair_ticket_port.ts), every " +
        "`repair_payment` is refused with 400 `invalid_reference` (repair tickets are not " +
        "available). Supports `Idempotency-Key`.",
      access: "pos.edit",
      idempotent: true,
      body: createTransactionBody,
      responses: { 201: { description: "The transaction", schema: transactionSchema } },
    }, async (c, { body, actor }) => c.json(await createTransaction(deps, actor, body), 201))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a transaction with items, payments and totals",
      access: "pos.view",
      params: idParams,
      responses: { 200: { description: "The transaction", schema: transactionSchema } },
    }, async (c, { params }) => c.json(await getTransaction(deps.db, params.id)))
    .route({
      method: "post",
      path: "/:id/items",
      summary: "Add an item (pending only)",
      description: "Totals are recomputed. Not pending → 409 `invalid_transition`.",
      access: "pos.edit",
      params: idParams,
      body: itemInput,
      responses: {
        201: { description: "The item and the transaction", schema: addItemResponse },
      },
    }, async (c, { params, body }) => c.json(await addItem(deps, params.id, body), 201))
    .route(
      {
        method: "patch",
        path: "/:id/items/:itemId",
        summary: "Change an item (pending only)",
        access: "pos.edit",
        params: itemParams,
        body: updateItemBody,
        responses: { 200: { description: "The transaction", schema: transactionSchema } },
      },
      async (c, { params, body }) => c.json(await changeItem(deps, params.id, params.itemId, body)),
    )
    .route({
      method: "delete",
      path: "/:id/items/:itemId",
      summary: "Remove an item (pending only)",
      access: "pos.edit",
      params: itemParams,
      responses: { 204: { description: "Removed" } },
    }, async (c, { params }) => {
      await removeItem(deps, params.id, params.itemId);
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
          "`manager_override_required`); approvals are audited as `pos.discount_override`.",
        access: "pos.edit",
        params: idParams,
        body: discountBody,
        responses: { 200: { description: "The transaction", schema: transactionSchema } },
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
          "products, marks units sold, moves a paid repair ticket to picked_up. Completing " +
          "twice → 409 `invalid_transition`. Supports `Idempotency-Key`.",
        access: "pos.edit",
        idempotent: true,
        params: idParams,
        body: completeBody,
        responses: { 200: { description: "The transaction", schema: transactionSchema } },
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
          "`pos.transaction_voided`.",
        access: "pos.edit",
        params: idParams,
        body: voidBody,
        responses: { 200: { description: "The voided transaction", schema: transactionSchema } },
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
          "Audited as `pos.refund_created`. Supports `Idempotency-Key`.",
        access: "pos.edit",
        idempotent: true,
        params: idParams,
        body: refundBody,
        responses: { 201: { description: "The refund transaction", schema: transactionSchema } },
      },
      async (c, { params, body, actor }) =>
        c.json(await refundTransaction(deps, actor, params.id, body), 201),
    )
    .route({
      method: "get",
      path: "/:id/receipt",
      summary: "Receipt (JSON, or 40-column text with Accept: text/plain)",
      description: "Consumable lines never appear.",
      access: "pos.view",
      params: idParams,
      responses: {
        200: { description: "The receipt", schema: receiptSchema },
      },
    }, async (c, { params }) => {
      const receipt = await getReceipt(deps, params.id);
      const accept = c.req.header("Accept") ?? "";
      if (/text\/plain/i.test(accept) && !/application\/json/i.test(accept)) {
        return c.body(renderReceiptText(receipt), 200, {
          "Content-Type": "text/plain; charset=utf-8",
        });
      }
      return c.json(receiptToJson(receipt));
    });
}

export function dailyReportRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/reports/daily", "Point of sale")
    .route({
      method: "get",
      path: "/",
      summary: "Daily report of a location",
      description: "The drawer report's sections summed over the location's sessions closed " +
        "on that store-local date (default today), plus, for today, the open ones as of now; " +
        "`sessions` lists them. Closing balance and over/short sum the closed sessions only.",
      access: "reports.view",
      query: dailyReportQuery,
      responses: { 200: { description: "The daily report", schema: dailyReportSchema } },
    }, async (c, { query }) => c.json(await getDailyReport(deps, query.locationId, query.date)));
}

export const POS_ROUTERS: ReadonlyArray<(deps: AppDeps) => ApiRouter> = [
  registerRoutes,
  drawerRoutes,
  transactionRoutes,
  dailyReportRoutes,
];
