/**
 * Shelf labels (API §17): one product's label as PDF or PNG, and a PDF sheet of many. Reads
 * only; the products come in one query; each distinct product's barcode is rendered once
 * (label_render.ts), whatever the number of copies.
 *
 * One label also opens in a browser from a signed URL (`labelLink`: no token), signed like
 * files' URLs for the label's own purpose.
 */
import { NotFoundError } from "../../domain/errors.ts";
import { labelBarcodeFor } from "../../domain/inventory/label_barcode.ts";
import {
  type LabelLayout,
  type SheetGeometry,
  SHEETS,
} from "../../domain/inventory/label_layout.ts";
import { formatMoney, parseMoney } from "../../domain/money.ts";
import type { AppDeps } from "../deps.ts";
import {
  requirePrintoutSignature,
  type SignedQuery,
  signPrintoutUrl,
} from "../files/signed_urls.ts";
import type { LabelSheetInput } from "./inventory_schemas.ts";
import { labelPng } from "./label_png.ts";
import { type LabelContent, labelsPdf } from "./label_render.ts";
import { requireProduct } from "./products.ts";
import { findProductsByIds, type ProductRecord } from "./products_repo.ts";

export type LabelFormat = "pdf" | "png";

export interface RenderedLabel {
  contentType: "application/pdf" | "image/png";
  bytes: Uint8Array;
}

function labelContent(product: ProductRecord): LabelContent {
  return {
    key: product.id,
    name: product.name,
    price: formatMoney(parseMoney(product.price)),
    sku: product.sku,
    barcode: labelBarcodeFor(product),
  };
}

/** A page the size of one label of `layout`. */
function singleLabelSheet(layout: LabelLayout): SheetGeometry {
  const { labelWidth, labelHeight } = SHEETS[layout];
  return {
    pageWidth: labelWidth,
    pageHeight: labelHeight,
    labelWidth,
    labelHeight,
    columns: 1,
    rows: 1,
    marginLeft: 0,
    marginTop: 0,
    pitchX: labelWidth,
    pitchY: labelHeight,
  };
}

/** One live product's label, sized as one label of `layout`; 404 for an unknown product. */
export async function productLabel(
  deps: Pick<AppDeps, "db">,
  id: string,
  format: LabelFormat,
  layout: LabelLayout,
): Promise<RenderedLabel> {
  const content = labelContent(await requireProduct(deps.db, id));
  if (format === "png") {
    const { labelWidth, labelHeight } = SHEETS[layout];
    return { contentType: "image/png", bytes: labelPng(content, labelWidth, labelHeight) };
  }
  const bytes = await labelsPdf([content], singleLabelSheet(layout), `Label ${content.sku}`);
  return { contentType: "application/pdf", bytes };
}

/**
 * A PDF sheet: `copies` labels of each listed product, in the listed order, on `layout`. Any
 * unknown (or deleted) id → 404 naming every one of them.
 */
export async function labelSheet(
  deps: Pick<AppDeps, "db">,
  input: LabelSheetInput,
): Promise<RenderedLabel> {
  const distinct = [...new Set(input.productIds.map((id) => id.toLowerCase()))];
  const products = new Map(
    (await findProductsByIds(deps.db, distinct)).map((p) => [p.id.toLowerCase(), p]),
  );
  const missing = distinct.filter((id) => !products.has(id));
  if (missing.length > 0) {
    throw new NotFoundError(
      "not_found",
      `${missing.length === 1 ? "Product" : "Products"} not found: ${missing.join(", ")}`,
      { missing },
    );
  }
  const contents = new Map([...products].map(([id, p]) => [id, labelContent(p)]));
  const labels: LabelContent[] = [];
  for (const id of input.productIds) {
    const content = contents.get(id.toLowerCase())!;
    for (let i = 0; i < input.copies; i++) labels.push(content);
  }
  const bytes = await labelsPdf(labels, SHEETS[input.layout], "Shelf labels");
  return { contentType: "application/pdf", bytes };
}

/** Signatures of label links are made for this purpose only (worthless on other routes). */
const LABEL_LINK = "label:";

type LinkDeps = Pick<AppDeps, "db" | "config" | "clock">;

/**
 * A signed URL opening the product's label (`format`, `layout`) without a token until
 * `expiresAt`; 404 for an unknown product.
 */
export async function labelLink(
  deps: LinkDeps,
  id: string,
  options: { format: LabelFormat; layout: LabelLayout; ttlSeconds?: number },
): Promise<{ url: string; expiresAt: string }> {
  const productId = (await requireProduct(deps.db, id)).id.toLowerCase();
  return signPrintoutUrl(
    deps.config,
    {
      id: productId,
      routeUrl: `${deps.config.publicUrl}/v1/products/${productId}/label/print`,
      purpose: LABEL_LINK,
      options: { format: options.format, layout: options.layout },
    },
    deps.clock.now(),
    options.ttlSeconds,
  );
}

/**
 * The label a signed URL opens: a tampered or expired signature → 403 invalid_signature
 * (before any lookup); a product that is gone → 404.
 */
export async function openLinkedLabel(
  deps: LinkDeps,
  id: string,
  query: SignedQuery,
  format: LabelFormat,
  layout: LabelLayout,
): Promise<RenderedLabel> {
  await requirePrintoutSignature(
    deps.config,
    { id, purpose: LABEL_LINK },
    query,
    deps.clock.now(),
    "label",
  );
  return await productLabel(deps, id, format, layout);
}
