/**
 * Inventory (API §7): products, categories, suppliers, links, lookups, units, receipts. One
 * file per resource; this list is what `server/app.ts` mounts, in this order.
 */
import type { AppDeps } from "../../../app/deps.ts";
import type { ApiRouter } from "../../route.ts";
import { categoryRoutes } from "./categories.ts";
import { labelRoutes } from "./labels.ts";
import { productRoutes } from "./products.ts";
import { stockReceiptRoutes } from "./stock_receipts.ts";
import { productSupplierRoutes, supplierRoutes } from "./suppliers.ts";
import { itemConditionRoutes, unitRoutes, unitStatusRoutes } from "./units.ts";

/** Every inventory router, for `server/app.ts`. */
export const INVENTORY_ROUTERS: ReadonlyArray<(deps: AppDeps) => ApiRouter> = [
  labelRoutes, // before productRoutes: `/products/labels` is no product id
  productRoutes,
  categoryRoutes,
  supplierRoutes,
  productSupplierRoutes,
  unitRoutes,
  unitStatusRoutes,
  itemConditionRoutes,
  stockReceiptRoutes,
];
