/**
 * One shelf label as a PNG (API §17 `GET /products/:id/label`, `Accept: image/png`): the same
 * geometry as the PDF label (`domain/inventory/label_layout.ts`) at 300 dpi, grayscale. The
 * bars are bwip-js's encoding, a whole number of pixels a module (bars stay exact); the text is
 * drawn with bwip-js's built-in OCR-B font (printable ASCII, so names go through `toAscii`);
 * fast-png encodes the image.
 */
import bwipjs from "bwip-js";
import { encode } from "fast-png";
import { type Box, labelBoxes, POINTS_PER_INCH } from "../../domain/inventory/label_layout.ts";
import { type FittedText, fitText, toAscii } from "../../domain/inventory/label_text.ts";
import {
  barcodeModules,
  barcodePlacement,
  CODE_FONT,
  type LabelContent,
  NAME_FONT,
  PRICE_FONT,
} from "./label_render.ts";

export const PNG_DPI = 300;
const PX = PNG_DPI / POINTS_PER_INCH;

/** A grayscale canvas: 0 black, 255 white. */
interface Canvas {
  width: number;
  height: number;
  data: Uint8Array;
}

function glyphFont(): number {
  return bwipjs.FontLib.lookup("OCR-B");
}

/** Width in points of `text` in OCR-B at `size` points (a monospaced font). */
function measure(text: string, size: number): number {
  const px = Math.max(1, Math.round(size * PX));
  const advance = bwipjs.FontLib.getglyph(glyphFont(), 0x30, px, px).advance;
  return ([...text].length * advance) / PX;
}

export function labelPng(
  label: LabelContent,
  widthPt: number,
  heightPt: number,
): Uint8Array {
  const price = toAscii(label.price);
  const boxes = labelBoxes(widthPt, heightPt, measure(price, PRICE_FONT.maxSize));
  const modules = label.barcode ? barcodeModules(label.barcode) : undefined;
  // Whole pixels a module (bars stay exact); a barcode wider than the label widens the image.
  const perModule = modules
    ? Math.max(1, Math.floor((boxes.barcode.width * PX) / modules.length))
    : 1;
  const padding = Math.round(boxes.barcode.x * PX);
  const canvas = blank(
    Math.max(Math.round(widthPt * PX), (modules?.length ?? 0) * perModule + 2 * padding),
    Math.round(heightPt * PX),
  );
  const extra = canvas.width / PX - widthPt;
  const name = fitText(
    toAscii(label.name) || "(no name)",
    { width: boxes.name.width, ...NAME_FONT },
    measure,
    "...",
  );
  drawLines(canvas, name, boxes.name, heightPt, "left");
  const priceText = fitText(
    price,
    { width: boxes.price.width, maxLines: 1, ...PRICE_FONT },
    measure,
  );
  drawLines(canvas, priceText, { ...boxes.price, x: boxes.price.x + extra }, heightPt, "right");
  if (label.barcode && modules) {
    const box = { ...boxes.barcode, width: boxes.barcode.width + extra };
    const code = fitText(label.barcode.value, { width: box.width, ...CODE_FONT }, measure, "...");
    const at = barcodePlacement(modules.length, box, code.size);
    const left = Math.round((canvas.width - modules.length * perModule) / 2);
    const top = Math.round((heightPt - at.bars.y - at.bars.height) * PX);
    const height = Math.round(at.bars.height * PX);
    modules.forEach((dark, i) => {
      if (dark) fill(canvas, left + i * perModule, top, perModule, height);
    });
    drawLines(canvas, code, at.text, heightPt, "center");
  } else {
    const sku = fitText(
      `SKU ${toAscii(label.sku)}`,
      { width: boxes.barcode.width, maxLines: 2, maxSize: 9, minSize: 6 },
      measure,
      "...",
    );
    drawLines(canvas, sku, boxes.barcode, heightPt, "left");
  }
  return encode({ width: canvas.width, height: canvas.height, data: canvas.data, channels: 1 });
}

function blank(width: number, height: number): Canvas {
  return { width, height, data: new Uint8Array(width * height).fill(255) };
}

/** Paints a black rectangle (pixels, from the top left). */
function fill(canvas: Canvas, x: number, y: number, width: number, height: number): void {
  for (let row = Math.max(0, y); row < Math.min(canvas.height, y + height); row++) {
    const at = row * canvas.width;
    canvas.data.fill(0, at + Math.max(0, x), at + Math.min(canvas.width, x + width));
  }
}

/**
 * Lines of `text` from the top of `box` (points, from the label's bottom left).
 */
function drawLines(
  canvas: Canvas,
  text: FittedText,
  box: Box,
  labelHeightPt: number,
  align: "left" | "right" | "center",
): void {
  const px = Math.max(1, Math.round(text.size * PX));
  const leading = text.size * 1.15;
  text.lines.forEach((line, i) => {
    const width = measure(line, text.size);
    const xPt = align === "left"
      ? box.x
      : box.x + (box.width - width) * (align === "center" ? 0.5 : 1);
    const baselinePt = box.y + box.height - text.size * 0.9 - i * leading;
    drawText(canvas, line, Math.round(xPt * PX), Math.round((labelHeightPt - baselinePt) * PX), px);
  });
}

/** Draws `text` with its baseline at `baseline` (pixels from the top), darkening pixels. */
function drawText(canvas: Canvas, text: string, x: number, baseline: number, size: number): void {
  const font = glyphFont();
  let pen = x;
  for (const ch of text) {
    const glyph = bwipjs.FontLib.getglyph(font, ch.codePointAt(0)!, size, size);
    const pixels = glyph.pixels;
    for (let gy = 0; pixels && gy < glyph.height; gy++) {
      const cy = baseline - glyph.top + gy;
      if (cy < 0 || cy >= canvas.height) continue;
      for (let gx = 0; gx < glyph.width; gx++) {
        const cx = pen + glyph.left + gx;
        if (cx < 0 || cx >= canvas.width) continue;
        const at = cy * canvas.width + cx;
        canvas.data[at] = Math.min(
          canvas.data[at]!,
          255 - pixels[glyph.offset + gy * glyph.width + gx]!,
        );
      }
    }
    pen += glyph.advance;
  }
}
