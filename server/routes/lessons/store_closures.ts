/** Store closures (API §10): date ranges without lessons. */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import {
  createStoreClosureBody,
  storeClosureListQuery,
  storeClosureSchema,
} from "../../../app/lessons/lesson_schemas.ts";
import { listStoreClosures } from "../../../app/lessons/store_closures_repo.ts";
import { createStoreClosure, removeStoreClosure } from "../../../app/lessons/store_closures.ts";
import { ApiRouter } from "../../route.ts";
import { noContent } from "./_shared.ts";

export function storeClosureRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/store-closures", "Lessons")
    .route({
      method: "get",
      path: "/",
      summary: "List store closures",
      description: "Sortable by startDate, createdAt; from/to list closures overlapping them.",
      access: "lessons.view",
      query: storeClosureListQuery,
      responses: { 200: { description: "A page", schema: listResponse(storeClosureSchema) } },
    }, async (c, { query }) => c.json(await listStoreClosures(deps.db, query)))
    .route({
      method: "post",
      path: "/",
      summary: "Add a store closure",
      description: "startDate..endDate inclusive; no sessions are generated on those dates.",
      access: "lessons.edit",
      body: createStoreClosureBody,
      responses: { 201: { description: "The closure", schema: storeClosureSchema } },
    }, async (c, { body, actor }) => c.json(await createStoreClosure(deps, actor, body), 201))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a store closure",
      access: "lessons.edit",
      params: idParams,
      responses: noContent,
    }, async (c, { params, actor }) => {
      await removeStoreClosure(deps, actor, params.id);
      return c.body(null, 204);
    });
}
