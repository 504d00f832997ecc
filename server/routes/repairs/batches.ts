/** Repair batches and their approval workflow (API §9). */
import type { AppDeps } from "../../../app/deps.ts";
import {
  createBatch,
  deleteBatch,
  moveBatch,
  requireBatch,
  updateBatch,
} from "../../../app/repairs/batches.ts";
import { listBatches } from "../../../app/repairs/batches_repo.ts";
import { batchJson } from "../../../app/repairs/batches.ts";
import {
  approveBatchBody,
  batchListQuery,
  batchSchema,
  createBatchBody,
  rejectBatchBody,
  updateBatchBody,
} from "../../../app/repairs/repair_schemas.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import { ApiRouter } from "../../route.ts";
import { noContent } from "./_shared.ts";

const WORKFLOW = "Status draft → submitted (POST /submit, repairs.edit) → approved (POST " +
  "/approve `{ note? }`) or rejected (POST /reject `{ reason }`, reason required), both " +
  "repairs.approve and audited; any other move → 409 `invalid_transition`. Tickets join " +
  "(their `batchId`, which sets `isBatch`) and leave only while the batch is a draft.";

const batchResponse = { 200: { description: "The batch", schema: batchSchema } };

export function batchRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/repair-batches", "Repairs")
    .route({
      method: "get",
      path: "/",
      summary: "List repair batches",
      description: "Filters `status`, `accountId`; `q` matches the batch's and the account's " +
        "name; sortable by createdAt (default, newest first), name, status.",
      access: "repairs.view",
      query: batchListQuery,
      responses: { 200: { description: "A page of batches", schema: listResponse(batchSchema) } },
    }, async (c, { query }) => {
      const page = await listBatches(deps.db, query);
      return c.json({ data: page.data.map(batchJson), pagination: page.pagination });
    })
    .route({
      method: "post",
      path: "/",
      summary: "Start a repair batch",
      description: "A draft batch of an account (a school's or a band's instruments taken in " +
        "together). " + WORKFLOW,
      access: "repairs.edit",
      body: createBatchBody,
      responses: { 201: { description: "The batch", schema: batchSchema } },
      errors: { 400: ["invalid_reference"] },
    }, async (c, { body, actor }) => c.json(await createBatch(deps, actor, body), 201))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a repair batch",
      description: "`ticketCount` counts its live tickets (list them with GET " +
        "/repair-tickets?batchId=).",
      access: "repairs.view",
      params: idParams,
      responses: batchResponse,
    }, async (c, { params }) => c.json(await requireBatch(deps.db, params.id)))
    .route(
      {
        method: "patch",
        path: "/:id",
        summary: "Change a repair batch",
        description: "`name`, `accountId`, `notes` (any status; `status` moves only through " +
          "the workflow routes).",
        access: "repairs.edit",
        params: idParams,
        body: updateBatchBody,
        responses: batchResponse,
        errors: { 400: ["invalid_reference"] },
      },
      async (c, { params, body, actor }) => c.json(await updateBatch(deps, actor, params.id, body)),
    )
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a repair batch (soft)",
      description: "Refused with 409 `in_use` while tickets belong to it.",
      access: "repairs.admin",
      params: idParams,
      responses: noContent,
      errors: { 409: ["in_use"] },
    }, async (c, { params, actor }) => {
      await deleteBatch(deps, actor, params.id);
      return c.body(null, 204);
    })
    .route(
      {
        method: "post",
        path: "/:id/submit",
        summary: "Submit a draft batch for approval",
        description: WORKFLOW,
        access: "repairs.edit",
        params: idParams,
        responses: batchResponse,
        errors: { 409: ["invalid_transition"] },
      },
      async (c, { params, actor }) =>
        c.json(await moveBatch(deps, actor, params.id, "submit", null)),
    )
    .route(
      {
        method: "post",
        path: "/:id/approve",
        summary: "Approve a submitted batch",
        description: WORKFLOW,
        access: "repairs.approve",
        params: idParams,
        body: approveBatchBody,
        responses: batchResponse,
        errors: { 409: ["invalid_transition"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await moveBatch(deps, actor, params.id, "approve", body?.note ?? null)),
    )
    .route(
      {
        method: "post",
        path: "/:id/reject",
        summary: "Reject a submitted batch",
        description: WORKFLOW,
        access: "repairs.approve",
        params: idParams,
        body: rejectBatchBody,
        responses: batchResponse,
        errors: { 409: ["invalid_transition"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await moveBatch(deps, actor, params.id, "reject", body.reason)),
    );
}
