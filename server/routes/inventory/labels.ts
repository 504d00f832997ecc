/**
 * Shelf labels (API §17): one product's label (PDF or PNG) and PDF sheets of many; one
 * label's signed URL and the label it opens in a browser. `GET /products/:id/label/print` is
 * declared with access "public" ON PURPOSE: it answers a valid signed URL only (`expires` +
 * `signature`, no token; tampered or expired → 403 before any lookup).
 */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams } from "../../../app/schemas.ts";
import { fileUrlQuery, fileUrlSchema, serveQuery } from "../../../app/files/file_schemas.ts";
import {
  labelFileQuery,
  labelQuery,
  labelSheetBody,
  MAX_LABEL_COPIES,
  MAX_LABEL_PRODUCTS,
} from "../../../app/inventory/inventory_schemas.ts";
import {
  type LabelFormat,
  labelLink,
  labelSheet,
  openLinkedLabel,
  productLabel,
  type RenderedLabel,
} from "../../../app/inventory/labels.ts";
import { preferredMediaType } from "../../negotiation.ts";
import { ApiRouter } from "../../route.ts";

const BARCODE_RULE = "The barcode is the product's `upc` when it is a valid UPC-A, EAN-13 or " +
  "EAN-8 (check digit included; a 13-digit code with a leading 0 prints as its UPC-A), else " +
  "Code 128 of the `sku` (a SKU outside printable ASCII gets no barcode: the label prints it as " +
  "text). Names are wrapped to two lines, shrunk, then cut with an ellipsis; characters the " +
  "label fonts cannot draw (emoji, non-Latin scripts) print as `?`, accents they lack are " +
  "dropped. The price is the product's price as everywhere in the API (`1299.99`).";

/** PDF unless PNG is preferred: no Accept, `*\/*` or anything else gives a PDF, never a 406. */
export function labelFormatFor(accept: string | undefined): LabelFormat {
  return preferredMediaType(accept, ["application/pdf", "image/png"]) === "image/png"
    ? "png"
    : "pdf";
}

function labelResponse(
  label: RenderedLabel,
  filename: string,
  headers: Record<string, string> = { "Vary": "Accept" },
): Response {
  return new Response(label.bytes as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      "Content-Type": label.contentType,
      "Content-Disposition": `inline; filename="${filename}"`,
      "Cache-Control": "no-store",
      ...headers,
    },
  });
}

export function labelRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/products", "Products")
    .route({
      method: "post",
      path: "/labels",
      summary: "Print shelf labels (a PDF sheet)",
      description:
        `\`copies\` (1..${MAX_LABEL_COPIES}, default 1) labels of each of \`productIds\` ` +
        `(1..${MAX_LABEL_PRODUCTS}), in the listed order, as one \`application/pdf\`. Layouts: ` +
        "`avery5160` (default): US Letter pages of 30 labels, 3 columns × 10 rows of 2.625 × 1 in, " +
        "0.5 in top and 0.1875 in side margins (Avery 5160/8160 and equivalents), as many pages as " +
        "needed; `roll57`: one 57 × 32 mm label a page, for 57 mm label-roll printers. Each label: " +
        "the name (top left), the price (top right, bold) and a barcode. " + BARCODE_RULE +
        " Unknown or deleted ids → 404 `not_found` whose `detail` and `missing` (an array of ids) name every one of them; more " +
        "than 500 ids, 0 ids, or copies outside 1..100 → 400 `validation_failed`. Each product's " +
        "barcode is drawn once and reused for its copies (the largest sheet, 50 000 labels, " +
        "takes seconds).",
      access: "inventory.view",
      body: labelSheetBody,
      responses: {
        200: {
          description: "The label sheet",
          contentType: "application/pdf",
          headers: ["Content-Disposition", "Cache-Control", "Vary"],
        },
        404: {
          description:
            "Some product ids are unknown or deleted (named in `detail` and in `missing`)",
        },
      },
      errors: { 404: ["not_found"] },
    }, async (_c, { body }) => labelResponse(await labelSheet(deps, body), "labels.pdf"))
    .route({
      method: "get",
      path: "/:id/label",
      summary: "One product's shelf label (PDF or PNG)",
      description: "By `Accept`: `image/png` → a 300-dpi grayscale PNG; `application/pdf` → a " +
        "one-page PDF the size of the label. Anything else (no `Accept`, `*/*`, " +
        "`application/json`) gets the PDF: this route never answers 406. `layout` sets the " +
        "label's size: `avery5160` (2.625 × 1 in, default) or `roll57` (57 × 32 mm). " +
        BARCODE_RULE + " Unknown or deleted product → 404 `not_found`.",
      access: "inventory.view",
      params: idParams,
      query: labelQuery,
      responses: {
        200: {
          description: "The label (application/pdf, or image/png when preferred)",
          contentType: "application/pdf",
          alternatives: { "image/png": "The label as a 300-dpi grayscale PNG" },
          headers: ["Content-Disposition", "Cache-Control", "Vary"],
        },
      },
    }, async (c, { params, query }) => {
      const format = labelFormatFor(c.req.header("Accept"));
      const label = await productLabel(deps, params.id, format, query.layout);
      return labelResponse(label, `label-${params.id}.${format}`);
    })
    .route({
      method: "get",
      path: "/:id/label/url",
      summary: "A signed URL of one product's shelf label",
      description: "`{ url, expiresAt }`: the URL opens the label (`format` pdf, the default, " +
        "or png; `layout` avery5160 or roll57) in any browser without a token until " +
        "`expiresAt` (default 15 minutes; `expiresIn` seconds, at most 7 days). The holder " +
        "may change `format` and `layout` (they carry no access). Signed like file URLs (HMAC " +
        "over the product id and expiry, for labels only: worthless on any other route). " +
        "Unknown or deleted product → 404 `not_found`.",
      access: "inventory.view",
      params: idParams,
      query: labelFileQuery.extend(fileUrlQuery.shape),
      responses: { 200: { description: "The signed URL", schema: fileUrlSchema } },
    }, async (c, { params, query }) =>
      c.json(
        await labelLink(deps, params.id, {
          format: query.format,
          layout: query.layout,
          ttlSeconds: query.expiresIn,
        }),
      ))
    .route({
      method: "get",
      path: "/:id/label/print",
      summary: "One product's shelf label, from a signed URL (no token)",
      description: "Opens what `GET /products/:id/label/url` signed: the label as " +
        "`format` (pdf by default, or png) in `layout`, as `GET /products/:id/label` draws " +
        "it, with `Referrer-Policy: no-referrer`. A missing, tampered or expired signature → " +
        "403 `invalid_signature` (before any lookup); a product deleted since → 404. Declared " +
        "public because the signed URL needs no token; the route checks the signature itself. " +
        BARCODE_RULE,
      access: "public",
      params: idParams,
      query: labelFileQuery.extend(serveQuery.shape),
      responses: {
        200: {
          description: "The label (application/pdf, or image/png with format=png)",
          contentType: "application/pdf",
          alternatives: { "image/png": "The label as a 300-dpi grayscale PNG" },
        },
      },
      errors: { 403: ["invalid_signature"] },
    }, async (_c, { params, query }) => {
      const label = await openLinkedLabel(deps, params.id, query, query.format, query.layout);
      return labelResponse(label, `label-${params.id}.${query.format}`, {
        "Referrer-Policy": "no-referrer",
      });
    });
}
