/**
 * Drawing shelf labels (API §17) with the libraries: bwip-js encodes the barcode (its bars,
 * check digits and Code 128 code sets), pdf-lib draws the PDF. The geometry and the text rules are the
 * pure `domain/inventory/label_*.ts`; the PNG form of a label is `label_png.ts`.
 *
 * A sheet draws each product's label once, as a PDF form XObject (its name, price and barcode
 * image: the bars as a one-bit image, the code under them as text), and places that form for
 * every copy: 500 products × 100 copies is 500 barcodes and 500 forms, not 50 000 drawings.
 */
import bwipjs from "bwip-js";
import {
  beginText,
  concatTransformationMatrix,
  drawObject,
  endText,
  moveText,
  PDFDocument,
  type PDFFont,
  type PDFName,
  type PDFOperator,
  type PDFPage,
  type PDFRef,
  popGraphicsState,
  pushGraphicsState,
  setFillingGrayscaleColor,
  setFontAndSize,
  showText,
  StandardFonts,
} from "pdf-lib";
import { barModules, type LabelBarcode } from "../../domain/inventory/label_barcode.ts";
import {
  type Box,
  labelBoxes,
  labelSlot,
  pageCount,
  type SheetGeometry,
} from "../../domain/inventory/label_layout.ts";
import { type FittedText, fitText, toWinAnsi } from "../../domain/inventory/label_text.ts";

/** What one label shows. `name` and `price` as stored; `price` already formatted. */
export interface LabelContent {
  /** Identifies the product: labels of the same key share one drawing. */
  key: string;
  name: string;
  price: string;
  sku: string;
  barcode: LabelBarcode | null;
}

/** Quiet zone each side of a barcode, in modules (UPC/EAN need 9, Code 128 needs 10). */
export const QUIET_ZONE_MODULES = 10;
/** The widest module drawn, in points (0.5 mm; UPC's nominal module is 0.33 mm). */
const MAX_MODULE_PT = 1.4;

export const NAME_FONT = { maxSize: 9, minSize: 6, maxLines: 2 };
export const PRICE_FONT = { maxSize: 14, minSize: 8 };
/** The human-readable code under the bars. */
export const CODE_FONT = { maxSize: 8, minSize: 5, maxLines: 1 };

/**
 * The barcode's modules (1 dark, 0 light) with its quiet zones, encoded by bwip-js (check
 * digits, Code 128 code sets); undefined when bwip-js refuses the value.
 */
export function barcodeModules(barcode: LabelBarcode): Uint8Array | undefined {
  try {
    const [symbol] = bwipjs.raw(barcode.symbology, barcode.value, {});
    if (!symbol || !("sbs" in symbol)) return undefined;
    return barModules(symbol.sbs, QUIET_ZONE_MODULES);
  } catch {
    return undefined;
  }
}

/** Where the bars and the code under them go in `box`: bars as wide as fits, text below. */
export function barcodePlacement(modules: number, box: Box, textSize: number) {
  const module = Math.min(MAX_MODULE_PT, box.width / modules);
  const width = module * modules;
  const textBand = textSize * 1.25;
  return {
    bars: {
      x: box.x + (box.width - width) / 2,
      y: box.y + textBand,
      width,
      height: box.height - textBand,
    },
    text: { x: box.x, y: box.y, width: box.width, height: textBand },
  };
}

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

/**
 * One PDF holding `labels` (in order, one after the other), placed on `sheet`'s pages. Labels
 * with the same `key` are drawn once and placed again.
 */
export async function labelsPdf(
  labels: readonly LabelContent[],
  sheet: SheetGeometry,
  title: string,
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setCreator("Shop back office");
  doc.setProducer("pdf-lib");
  const fonts: Fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  };
  const pages: PDFPage[] = [];
  for (let i = 0; i < pageCount(sheet, labels.length); i++) {
    pages.push(doc.addPage([sheet.pageWidth, sheet.pageHeight]));
  }
  const forms = new Map<string, PDFRef>();
  let placed: { page: number; key: string; name: PDFName } | undefined;
  for (const [index, label] of labels.entries()) {
    let form = forms.get(label.key);
    if (!form) {
      form = labelForm(doc, fonts, label, sheet.labelWidth, sheet.labelHeight);
      forms.set(label.key, form);
    }
    const slot = labelSlot(sheet, index);
    const page = pages[slot.page]!;
    if (placed?.page !== slot.page || placed.key !== label.key) {
      placed = { page: slot.page, key: label.key, name: page.node.newXObject("Label", form) };
    }
    page.pushOperators(
      pushGraphicsState(),
      concatTransformationMatrix(1, 0, 0, 1, slot.x, slot.y),
      drawObject(placed.name),
      popGraphicsState(),
    );
  }
  return await doc.save();
}

/** One label as a form XObject of `width` × `height` points. */
function labelForm(
  doc: PDFDocument,
  fonts: Fonts,
  label: LabelContent,
  width: number,
  height: number,
): PDFRef {
  const price = toWinAnsi(label.price);
  const priceWidth = fonts.bold.widthOfTextAtSize(price, PRICE_FONT.maxSize);
  const boxes = labelBoxes(width, height, priceWidth);
  const ops: PDFOperator[] = [setFillingGrayscaleColor(0)];
  const resources: { Font: Record<string, PDFRef>; XObject: Record<string, PDFRef> } = {
    Font: { F1: fonts.regular.ref, F2: fonts.bold.ref },
    XObject: {},
  };

  const name = fitText(
    toWinAnsi(label.name) || "(no name)",
    { width: boxes.name.width, ...NAME_FONT },
    (t, size) => fonts.regular.widthOfTextAtSize(t, size),
  );
  ops.push(...textLines(fonts.regular, "F1", name, boxes.name, "left"));
  const priceText = fitText(
    price,
    { width: boxes.price.width, maxLines: 1, ...PRICE_FONT },
    (t, size) => fonts.bold.widthOfTextAtSize(t, size),
  );
  ops.push(...textLines(fonts.bold, "F2", priceText, boxes.price, "right"));

  const modules = label.barcode ? barcodeModules(label.barcode) : undefined;
  if (label.barcode && modules) {
    // The bars as a one-row, one-bit image stretched over the bar height: bars stay exact.
    resources.XObject.Im1 = barsImage(doc, modules);
    const code = fitText(
      label.barcode.value,
      { width: boxes.barcode.width, ...CODE_FONT },
      (t, size) => fonts.regular.widthOfTextAtSize(t, size),
    );
    const at = barcodePlacement(modules.length, boxes.barcode, code.size);
    ops.push(
      pushGraphicsState(),
      concatTransformationMatrix(at.bars.width, 0, 0, at.bars.height, at.bars.x, at.bars.y),
      drawObject("Im1"),
      popGraphicsState(),
      ...textLines(fonts.regular, "F1", code, at.text, "center"),
    );
  } else {
    // No encodable code: the SKU in words, where the barcode would be.
    const sku = fitText(
      `SKU ${toWinAnsi(label.sku)}`,
      { width: boxes.barcode.width, maxLines: 2, maxSize: 9, minSize: 6 },
      (t, size) => fonts.regular.widthOfTextAtSize(t, size),
    );
    ops.push(...textLines(fonts.regular, "F1", sku, boxes.barcode, "left"));
  }
  const form = doc.context.formXObject(ops, {
    BBox: [0, 0, width, height],
    Resources: resources,
  });
  return doc.context.register(form);
}

/** Text lines from the top of `box`, aligned left, right or centred. */
function textLines(
  font: PDFFont,
  fontKey: string,
  text: FittedText,
  box: Box,
  align: "left" | "right" | "center",
): PDFOperator[] {
  const ops: PDFOperator[] = [];
  const leading = text.size * 1.15;
  text.lines.forEach((line, i) => {
    const lineWidth = font.widthOfTextAtSize(line, text.size);
    const x = align === "left"
      ? box.x
      : box.x + (box.width - lineWidth) * (align === "center" ? 0.5 : 1);
    const y = box.y + box.height - text.size * 0.9 - i * leading;
    ops.push(
      beginText(),
      setFontAndSize(fontKey, text.size),
      moveText(x, y),
      showText(font.encodeText(line)),
      endText(),
    );
  });
  return ops;
}

/** A one-bit DeviceGray image, one pixel a module and one row high (0 black, 1 white). */
function barsImage(doc: PDFDocument, modules: Uint8Array): PDFRef {
  const bytes = new Uint8Array(Math.ceil(modules.length / 8)).fill(0xff);
  modules.forEach((dark, i) => {
    if (dark) bytes[i >> 3]! &= ~(0x80 >> (i & 7));
  });
  const image = doc.context.flateStream(bytes, {
    Type: "XObject",
    Subtype: "Image",
    Width: modules.length,
    Height: 1,
    ColorSpace: "DeviceGray",
    BitsPerComponent: 1,
    Interpolate: false,
  });
  return doc.context.register(image);
}
