/**
 * Receipts in a browser (API §17): a signed URL of the receipt's printable page, and the page
 * it opens. `GET /transactions/:id/receipt/print` is declared with access "public" ON PURPOSE:
 * it answers a valid signed URL only (`expires` + `signature`, no token; tampered or expired →
 * 403 before any lookup), so a link that is printed, emailed or opened on the shop's tablet
 * works; the signing (app/files/signed_urls.ts) is the files' one, for the receipt's purpose.
 */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams } from "../../../app/schemas.ts";
import { fileUrlQuery, fileUrlSchema, serveQuery } from "../../../app/files/file_schemas.ts";
import { openLinkedReceipt, receiptLink } from "../../../app/pos/receipts.ts";
import { renderReceiptHtml } from "../../../domain/pos/receipt_html.ts";
import { printQuery, signedPageResponse } from "../../printable.ts";
import { ApiRouter } from "../../route.ts";

const TAG = "Transactions";

export function receiptLinkRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/transactions", TAG)
    .route({
      method: "get",
      path: "/:id/receipt/url",
      summary: "A signed URL of the receipt's printable page",
      description: "`{ url, expiresAt }`: the URL opens the receipt's printable HTML page (as " +
        "`GET /transactions/:id/receipt` with `Accept: text/html`) in any browser without a " +
        "token until `expiresAt` (default 15 minutes; `expiresIn` seconds, at most 7 days, for " +
        "a link to email or print). `paper` (`roll` or `a4`) lays the page out; the holder " +
        "may change it (it carries no access). Signed like file URLs (HMAC over the " +
        "transaction id and expiry, for receipts only: worthless on any other route). Any " +
        "status may be linked (a pending or voided transaction's receipt says so).",
      access: "pos.view",
      params: idParams,
      query: printQuery.extend(fileUrlQuery.shape),
      responses: { 200: { description: "The signed URL", schema: fileUrlSchema } },
    }, async (c, { params, query }) =>
      c.json(
        await receiptLink(deps, params.id, { paper: query.paper, ttlSeconds: query.expiresIn }),
      ))
    .route({
      method: "get",
      path: "/:id/receipt/print",
      summary: "The receipt's printable page, from a signed URL (no token)",
      description: "Opens what `GET /transactions/:id/receipt/url` signed: the receipt's " +
        "self-contained printable page (80 mm roll, or A4 with `paper=a4`), with the HTML " +
        "form's headers (`Content-Security-Policy: default-src 'none'; style-src " +
        "'unsafe-inline'`), `Cache-Control: private, no-store` and `Referrer-Policy: " +
        "no-referrer`. A missing, tampered or expired signature → 403 `invalid_signature` " +
        "(before any lookup); a transaction that is gone → 404. Declared public because the " +
        "signed URL needs no token; the route checks the signature itself.",
      access: "public",
      params: idParams,
      query: printQuery.extend(serveQuery.shape),
      responses: {
        200: { description: "The printable page", contentType: "text/html" },
      },
      errors: { 403: ["invalid_signature"] },
    }, async (c, { params, query }) => {
      const receipt = await openLinkedReceipt(deps, params.id, query);
      return signedPageResponse(c, renderReceiptHtml(receipt, query.paper));
    });
}
