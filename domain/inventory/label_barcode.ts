/**
 * Which barcode a shelf label carries (API §17), pure: the product's `upc` when it is a valid
 * GTIN (UPC-A, EAN-13 or EAN-8 with a correct check digit), else Code 128 of its `sku`.
 *
 * - A 13-digit code with a leading 0 is the EAN-13 form of a UPC-A: printed as the UPC-A (what a
 *   US scanner and the scan route read as the same product).
 * - A `upc` that is not a valid GTIN (letters, a wrong check digit, another length) is ignored:
 *   the label falls back to the SKU, so it still scans back to the product.
 * - Code 128 covers printable ASCII only; a SKU with other characters gets no barcode (the
 *   label prints the SKU as text instead) rather than a symbol that would not scan back.
 */
import { hasValidGtinCheckDigit } from "./gtin.ts";

export type LabelSymbology = "upca" | "ean13" | "ean8" | "code128";

export interface LabelBarcode {
  symbology: LabelSymbology;
  /** The exact text encoded (digits with their check digit for GTINs). */
  value: string;
}

/** Printable ASCII (space to `~`): what Code 128 encodes without extended modes. */
const CODE128_TEXT = /^[\x20-\x7e]+$/;

/** The barcode of a product's label, or null when neither its UPC nor its SKU can be encoded. */
export function labelBarcodeFor(product: { sku: string; upc: string | null }): LabelBarcode | null {
  const upc = (product.upc ?? "").trim();
  if (hasValidGtinCheckDigit(upc)) {
    if (upc.length === 12) return { symbology: "upca", value: upc };
    if (upc.length === 13) {
      return upc.startsWith("0")
        ? { symbology: "upca", value: upc.slice(1) }
        : { symbology: "ean13", value: upc };
    }
    if (upc.length === 8) return { symbology: "ean8", value: upc };
  }
  const sku = product.sku.trim();
  return CODE128_TEXT.test(sku) ? { symbology: "code128", value: sku } : null;
}

/**
 * The modules of a linear barcode from its bar/space widths (`sbs`: bar, space, bar, … in
 * modules, as bwip-js's `raw()` gives them), with `quietZone` light modules each side: 1 dark,
 * 0 light.
 */
export function barModules(sbs: readonly number[], quietZone: number): Uint8Array {
  const total = sbs.reduce((sum, w) => sum + w, 0) + 2 * quietZone;
  const modules = new Uint8Array(total);
  let at = quietZone;
  sbs.forEach((width, i) => {
    if (i % 2 === 0) modules.fill(1, at, at + width);
    at += width;
  });
  return modules;
}
