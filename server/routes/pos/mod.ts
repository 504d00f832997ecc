/**
 * Point of sale (API §8): registers, drawers and adjustments, transactions, reports. One file
 * per resource; this list is what `server/app.ts` mounts, in this order.
 */
import type { AppDeps } from "../../../app/deps.ts";
import type { ApiRouter } from "../../route.ts";
import { drawerRoutes } from "./drawers.ts";
import { registerRoutes } from "./registers.ts";
import { receiptLinkRoutes } from "./receipt_links.ts";
import { dailyReportRoutes } from "./reports.ts";
import { transactionRoutes } from "./transactions.ts";

/** Every point-of-sale router, for `server/app.ts`. */
export const POS_ROUTERS: ReadonlyArray<(deps: AppDeps) => ApiRouter> = [
  registerRoutes,
  drawerRoutes,
  transactionRoutes,
  receiptLinkRoutes,
  dailyReportRoutes,
];
