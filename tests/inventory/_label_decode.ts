/**
 * Reading shelf labels back like a scanner would: decode a barcode from a PNG (fast-png +
 * @zxing/library), and from a PDF sheet take the barcode images (one-bit image XObjects),
 * the pages and the labels placed on them (pdf-lib).
 */
import ZXing from "@zxing/library";
import { decode } from "fast-png";
import {
  decodePDFRawStream,
  PDFArray,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFRawStream,
  type PDFStream,
} from "pdf-lib";

export interface Decoded {
  text: string;
  format: "UPC_A" | "EAN_13" | "EAN_8" | "CODE_128" | string;
}

/** Decodes the one linear barcode in a grayscale image (0 black, 255 white). */
export function decodeGray(width: number, height: number, gray: Uint8Array): Decoded {
  const source = new ZXing.RGBLuminanceSource(new Uint8ClampedArray(gray), width, height);
  const bitmap = new ZXing.BinaryBitmap(new ZXing.HybridBinarizer(source));
  const hints = new Map<ZXing.DecodeHintType, unknown>([
    [ZXing.DecodeHintType.TRY_HARDER, true],
    [ZXing.DecodeHintType.POSSIBLE_FORMATS, [
      ZXing.BarcodeFormat.UPC_A,
      ZXing.BarcodeFormat.EAN_13,
      ZXing.BarcodeFormat.EAN_8,
      ZXing.BarcodeFormat.CODE_128,
    ]],
  ]);
  const result = new ZXing.MultiFormatOneDReader(hints).decode(bitmap, hints);
  return { text: result.getText(), format: ZXing.BarcodeFormat[result.getBarcodeFormat()] };
}

/** Decodes the barcode of a PNG (any channel layout; transparency over white). */
export function decodePng(png: Uint8Array): Decoded & { width: number; height: number } {
  const image = decode(png);
  const { width, height, channels } = image;
  const max = image.depth === 16 ? 65535 : 255;
  const gray = new Uint8Array(width * height);
  for (let i = 0; i < width * height; i++) {
    const o = i * channels;
    const luma = channels >= 3
      ? 0.299 * image.data[o]! + 0.587 * image.data[o + 1]! + 0.114 * image.data[o + 2]!
      : image.data[o]!;
    const alpha = channels === 2 || channels === 4 ? image.data[o + channels - 1]! / max : 1;
    gray[i] = Math.round(255 - alpha * (255 - (luma * 255) / max));
  }
  return { ...decodeGray(width, height, gray), width, height };
}

/** A one-row, one-bit DeviceGray image (a label's bars) drawn as a scanner sees it. */
function decodeBars(width: number, bits: Uint8Array): Decoded {
  const perModule = 3;
  const rows = 40;
  const row = new Uint8Array(width * perModule);
  for (let i = 0; i < width; i++) {
    const white = (bits[i >> 3]! >> (7 - (i & 7))) & 1;
    row.fill(white ? 255 : 0, i * perModule, (i + 1) * perModule);
  }
  const gray = new Uint8Array(row.length * rows);
  for (let y = 0; y < rows; y++) gray.set(row, y * row.length);
  return decodeGray(row.length, rows, gray);
}

export interface ParsedSheet {
  pages: Array<{ width: number; height: number; labels: number }>;
  /** Every barcode image of the document, decoded (one per distinct product). */
  barcodes: Decoded[];
}

function numberOf(stream: PDFRawStream, key: string): number {
  return (stream.dict.get(PDFName.of(key)) as PDFNumber).asNumber();
}

function streamText(stream: PDFStream): string {
  const bytes = stream instanceof PDFRawStream
    ? decodePDFRawStream(stream).decode()
    : stream.getContents();
  return new TextDecoder("latin1").decode(bytes);
}

/** Pages (size, labels placed: form XObjects drawn), and the decoded barcode images. */
export async function parseSheet(pdf: Uint8Array): Promise<ParsedSheet> {
  const doc = await PDFDocument.load(pdf);
  const pages = doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray
      ? contents.asArray().map((ref) => doc.context.lookup(ref) as PDFStream)
      : contents
      ? [contents as PDFStream]
      : [];
    const text = streams.map(streamText).join("\n");
    const { width, height } = page.getSize();
    return { width, height, labels: [...text.matchAll(/\/Label[^\s/]*\s+Do\b/g)].length };
  });
  const barcodes: Decoded[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    if (object.dict.get(PDFName.of("Subtype")) !== PDFName.of("Image")) continue;
    if (numberOf(object, "Height") !== 1 || numberOf(object, "BitsPerComponent") !== 1) continue;
    barcodes.push(decodeBars(numberOf(object, "Width"), decodePDFRawStream(object).decode()));
  }
  return { pages, barcodes };
}
