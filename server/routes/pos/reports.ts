/** The daily report of a location (API §8). */
import type { AppDeps } from "../../../app/deps.ts";
import { dailyReportQuery, dailyReportSchema } from "../../../app/pos/drawer_schemas.ts";
import { getDailyReport } from "../../../app/pos/reports.ts";
import { ApiRouter } from "../../route.ts";

export function dailyReportRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/reports/daily", "Point of sale")
    .route({
      method: "get",
      path: "/",
      summary: "Daily report of a location",
      description: "The drawer report's sections summed over the location's sessions closed " +
        "on that store-local date (default today), plus, for today, the open ones as of now; " +
        "`sessions` lists them, each naming its `register` and `cashier`. Closing balance " +
        "and over/short sum the closed sessions only; `voids` sums the sessions' voids, by " +
        "cashier (see GET /drawers/:id/report).",
      access: "reports.view",
      query: dailyReportQuery,
      responses: { 200: { description: "The daily report", schema: dailyReportSchema } },
      errors: { 400: ["invalid_reference"] },
    }, async (c, { query }) => c.json(await getDailyReport(deps, query.locationId, query.date)));
}
