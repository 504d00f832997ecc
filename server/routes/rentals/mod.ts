/**
 * Rentals (API §13): rentals with their charges and buyouts, and the unit life story. This
 * list is what `server/app.ts` mounts.
 */
import type { AppDeps } from "../../../app/deps.ts";
import type { ApiRouter } from "../../route.ts";
import { rentalRoutes } from "./rentals.ts";
import { unitStoryRoutes } from "./unit_story.ts";

/** Every rentals router, for `server/app.ts`. */
export const RENTAL_ROUTERS: ReadonlyArray<(deps: AppDeps) => ApiRouter> = [
  rentalRoutes,
  unitStoryRoutes,
];
