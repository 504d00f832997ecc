/**
 * Repairs (API §9): tickets (with their line items, notes and photos), batches and service
 * templates. One file per resource; this list is what `server/app.ts` mounts, in this order
 * (the tickets router first: its `/ready-for-pickup` comes before any `/:id`).
 */
import type { AppDeps } from "../../../app/deps.ts";
import type { ApiRouter } from "../../route.ts";
import { batchRoutes } from "./batches.ts";
import { lineItemRoutes } from "./line_items.ts";
import { noteRoutes } from "./notes.ts";
import { photoRoutes } from "./photos.ts";
import { serviceTemplateRoutes } from "./service_templates.ts";
import { ticketRoutes } from "./tickets.ts";

/** Every repairs router, for `server/app.ts`. */
export const REPAIR_ROUTERS: ReadonlyArray<(deps: AppDeps) => ApiRouter> = [
  ticketRoutes,
  lineItemRoutes,
  noteRoutes,
  photoRoutes,
  batchRoutes,
  serviceTemplateRoutes,
];
