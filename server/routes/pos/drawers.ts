/** Drawer sessions, their cash adjustments and reports (API §8). */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import {
  adjustmentBody,
  adjustmentListQuery,
  adjustmentSchema,
  closeDrawerBody,
  currentDrawerQuery,
  drawerListQuery,
  drawerReportSchema,
  drawerSessionSchema,
  openDrawerBody,
} from "../../../app/pos/drawer_schemas.ts";
import { addAdjustment, listDrawerAdjustments } from "../../../app/pos/adjustments.ts";
import {
  closeDrawer,
  currentDrawer,
  getDrawer,
  listDrawers,
  openDrawer,
} from "../../../app/pos/drawers.ts";
import { getDrawerReport } from "../../../app/pos/reports.ts";
import { ApiRouter } from "../../route.ts";

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
      errors: { 400: ["invalid_reference"], 409: ["drawer_already_open"] },
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
      errors: { 404: ["no_open_drawer"] },
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
        "null in the list while a session is open (see GET /drawers/:id). Each session names " +
        "its `register` and `cashier` (who opened it).",
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
          "closed session → 409 `drawer_not_open`. Audited as `pos.drawer_closed`. A single " +
          "sale, payment or adjustment holds up to 9,999,999,999.99, but a session sums many: " +
          "its `closingBalance`, `expectedBalance` and `overShort` hold up to 14 digits before " +
          "the point (numeric(16,2)), so a drawer the API let fill always closes; a count " +
          "beyond that → 400 `validation_failed`.",
        access: "pos.edit",
        params: idParams,
        body: closeDrawerBody,
        responses: { 200: { description: "The closed session", schema: drawerSessionSchema } },
        errors: { 409: ["drawer_not_open"] },
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
        errors: { 403: ["manager_override_required"], 409: ["drawer_not_open"] },
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
      description: "The Z report is the one frozen at close. It names the session's " +
        "`register` and `cashier` (who opened it) beside their ids, numbers each discount " +
        "with its `receiptNumber`, and counts `voids` by cashier: a sale completed in the " +
        "session and voided, or a pending one voided at its register while the session was " +
        "open (voids count in no other figure). Money that moves one way (refunds, cash " +
        "refunds, adjustments out, voids) is a positive magnitude. A Z frozen before these " +
        "fields existed gets them from the session as it stands; its frozen figures are kept.",
      access: "pos.view",
      params: idParams,
      responses: { 200: { description: "The report", schema: drawerReportSchema } },
    }, async (c, { params }) => c.json(await getDrawerReport(deps, params.id)));
}
