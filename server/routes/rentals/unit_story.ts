/** A unit's life story by serial number (API §13), under `/units` with inventory.view. */
import type { AppDeps } from "../../../app/deps.ts";
import { serialParams, unitStorySchema } from "../../../app/rentals/rental_schemas.ts";
import { getUnitStory } from "../../../app/rentals/unit_story.ts";
import { ApiRouter } from "../../route.ts";

export function unitStoryRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/units", "Units")
    .route({
      method: "get",
      path: "/by-serial/:serial",
      summary: "A unit's life story, by serial number",
      description: "The unit (serial matched case-insensitively after trimming; the most " +
        "recent when several share it), its product and a timeline, oldest first, of " +
        "everything that happened to it: `received` (created, directly or by a stock " +
        "receipt), `status_changed` and `condition_changed` (from/to, who), `sold` and " +
        "`refunded` (transaction, receipt number, customer), `rented` and `returned` " +
        "(rental, account; a cancelled rental returns with `cancelled: true`), " +
        "`repair_opened` and `repair_closed` (repair tickets carrying that serial), " +
        "`bought_out`. One indexed query per source. No unit with that serial → 404.",
      access: "inventory.view",
      params: serialParams,
      responses: { 200: { description: "The unit's story", schema: unitStorySchema } },
    }, async (c, { params }) => c.json(await getUnitStory(deps, params.serial)));
}
