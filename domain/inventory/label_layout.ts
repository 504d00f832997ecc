/**
 * Shelf-label geometry (API §17), pure, in PDF points (1/72 in) with the origin at the bottom
 * left of the page, as PDF draws:
 *
 * - `avery5160`: US Letter (8.5 × 11 in), 3 columns × 10 rows of 2.625 × 1 in labels, 0.5 in
 *   top margin, 0.1875 in side margins, 0.125 in between columns (a 2.75 in column pitch): the
 *   template of Avery 5160/8160 and their equivalents. 30 labels a page, pages as needed.
 * - `roll57`: a 57 mm wide roll of 57 × 32 mm labels, one label a page (what label printers
 *   expect: each page is one label).
 *
 * A label holds the name (top left, up to two lines), the price (top right, bold) and the
 * barcode below them across the label's width.
 */

export const LABEL_LAYOUTS = ["avery5160", "roll57"] as const;
export type LabelLayout = (typeof LABEL_LAYOUTS)[number];

export const POINTS_PER_INCH = 72;
const MM = POINTS_PER_INCH / 25.4;

export interface SheetGeometry {
  pageWidth: number;
  pageHeight: number;
  labelWidth: number;
  labelHeight: number;
  columns: number;
  rows: number;
  /** From the page's left edge to the first column's left edge. */
  marginLeft: number;
  /** From the page's top edge to the first row's top edge. */
  marginTop: number;
  /** From one column's left edge to the next one's. */
  pitchX: number;
  /** From one row's top edge to the next one's. */
  pitchY: number;
}

export const SHEETS: Readonly<Record<LabelLayout, SheetGeometry>> = {
  avery5160: {
    pageWidth: 8.5 * POINTS_PER_INCH,
    pageHeight: 11 * POINTS_PER_INCH,
    labelWidth: 2.625 * POINTS_PER_INCH,
    labelHeight: 1 * POINTS_PER_INCH,
    columns: 3,
    rows: 10,
    marginLeft: 0.1875 * POINTS_PER_INCH,
    marginTop: 0.5 * POINTS_PER_INCH,
    pitchX: 2.75 * POINTS_PER_INCH,
    pitchY: 1 * POINTS_PER_INCH,
  },
  roll57: {
    pageWidth: 57 * MM,
    pageHeight: 32 * MM,
    labelWidth: 57 * MM,
    labelHeight: 32 * MM,
    columns: 1,
    rows: 1,
    marginLeft: 0,
    marginTop: 0,
    pitchX: 57 * MM,
    pitchY: 32 * MM,
  },
};

export function labelsPerPage(sheet: SheetGeometry): number {
  return sheet.columns * sheet.rows;
}

/** Pages needed for `labels` labels (at least one: an empty request has no sheet to print). */
export function pageCount(sheet: SheetGeometry, labels: number): number {
  return Math.max(1, Math.ceil(labels / labelsPerPage(sheet)));
}

export interface LabelSlot {
  /** 0-based page index. */
  page: number;
  /** Bottom-left corner of the label on its page. */
  x: number;
  y: number;
}

/** Where the `index`-th label (0-based) goes: filled row by row, left to right, top down. */
export function labelSlot(sheet: SheetGeometry, index: number): LabelSlot {
  if (!Number.isInteger(index) || index < 0) throw new RangeError(`Bad label index ${index}`);
  const perPage = labelsPerPage(sheet);
  const onPage = index % perPage;
  const column = onPage % sheet.columns;
  const row = Math.floor(onPage / sheet.columns);
  return {
    page: Math.floor(index / perPage),
    x: sheet.marginLeft + column * sheet.pitchX,
    y: sheet.pageHeight - sheet.marginTop - row * sheet.pitchY - sheet.labelHeight,
  };
}

/** A rectangle inside a label, from the label's bottom-left corner. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LabelBoxes {
  name: Box;
  price: Box;
  barcode: Box;
}

/** Inner padding of a label: ~1.8 mm on a 1 in label, more on taller ones. */
export function labelPadding(labelHeight: number): number {
  return Math.max(4, labelHeight * 0.07);
}

/**
 * The name, price and barcode boxes of a `width` × `height` label whose price text is
 * `priceWidth` wide: the top band (about a third) holds the name and, right-aligned, the price;
 * the rest is the barcode's.
 */
export function labelBoxes(width: number, height: number, priceWidth: number): LabelBoxes {
  const pad = labelPadding(height);
  const gap = pad;
  const innerWidth = width - 2 * pad;
  const topBand = Math.min(height * 0.36, 30);
  const topY = height - pad - topBand;
  const price = Math.min(priceWidth, innerWidth / 2);
  return {
    name: { x: pad, y: topY, width: innerWidth - price - gap, height: topBand },
    price: { x: width - pad - price, y: topY, width: price, height: topBand },
    barcode: { x: pad, y: pad, width: innerWidth, height: topY - gap - pad },
  };
}
