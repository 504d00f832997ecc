/** The counter's scan (API §17): one code, one exact answer. */
import type { AppDeps } from "../../app/deps.ts";
import { scanCode } from "../../app/counter/scan.ts";
import { scanParams, scanResultSchema } from "../../app/counter/scan_schemas.ts";
import { ApiRouter } from "../route.ts";

export function scanRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/scan", "Counter").route({
    method: "get",
    path: "/:code",
    summary: "Find the record a scanned or typed code names",
    description: "An exact match after trimming, case-insensitively, on a product's `sku` or " +
      "`upc` (a 12-digit UPC-A and its 13-digit EAN-13 form with a leading 0 are the same code), " +
      "a unit's `serialNumber`, the `serialNumber` on a repair ticket (a customer's instrument: " +
      "its open tickets; with none open, its latest ticket unless a unit carries the serial), " +
      "a repair `ticketNumber` (`R-000123`), a `rentalNumber` " +
      "(`L-000123`), an `accountNumber` (`A-000001`) or a transaction's `receiptNumber` " +
      "(`S-0001234`); the human numbers also read without the dash or the leading zeros " +
      "(`s1234`). A kind is searched only when its module is enabled and the caller holds " +
      "its view permission (inventory.view, repairs.view, rentals.view, accounts.view, " +
      "pos.view); otherwise it is treated as absent. Every kind is one index lookup on the " +
      "normalised value, never a fuzzy search: use `q` on the lists for partial names. " +
      "Soft-deleted records are not found. Answers the record as its own GET returns it. " +
      "404 `not_found` when nothing matches; 409 `ambiguous` with " +
      "`candidates [{ kind, id, label }]` when several records match (e.g. units of two " +
      "products sharing a serial, or a SKU that is also a serial); 400 " +
      "`invalid_check_digit` when a 12- or 13-digit numeric code with a wrong check digit " +
      "matches nothing (a misread barcode: scan again).",
    access: "authenticated",
    params: scanParams,
    responses: { 200: { description: "The one record the code names", schema: scanResultSchema } },
    errors: {
      400: ["invalid_check_digit", "validation_failed"],
      404: ["not_found"],
      409: ["ambiguous"],
    },
  }, async (c, { params, actor }) => c.json(await scanCode(deps, actor, params.code)));
}
