/**
 * The printable HTML page of every printed form (the POS receipt, the repair claim tag, the
 * rental agreement): one page shell, one stylesheet, one way to escape.
 *
 * - Markup is written with the `markup` tag: every interpolated value is HTML-escaped unless it
 *   is itself `markup` (a `SafeHtml`), so a value cannot open a tag or leave an attribute.
 *   (Not named `html`: `deno fmt` would reformat the templates' whitespace.)
 * - The page is self-contained (no script, no external asset: it is served with
 *   `Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'`).
 * - Paper: `roll` (80 mm thermal roll, the default) or `a4`. The page's `@page` rule asks the
 *   browser's print dialog for that size (80 mm wide, as long as the content; or A4 portrait)
 *   and `@media print` drops the on-screen frame; on screen the page shows a sheet of that
 *   width.
 */
import type { PostalAddress } from "../address.ts";
import { cityLine, cleanText, type PrintStore } from "./text_layout.ts";

export const PAPER_SIZES = ["roll", "a4"] as const;
export type PaperSize = typeof PAPER_SIZES[number];

/** Markup that is already safe to place in a page (built by `markup`). */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** `&`, `<`, `>`, `"` and `'` as entities. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

function piece(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(piece).join("");
  if (value === null || value === undefined || value === false) return "";
  return escapeHtml(String(value));
}

/**
 * A template tag: literal parts are kept, values escaped (a `SafeHtml` kept as is, an array
 * joined, null/undefined/false left out).
 */
export function markup(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    out += piece(value) + (strings[i + 1] ?? "");
  });
  return new SafeHtml(out);
}

const BASE_CSS = [
  "*{box-sizing:border-box}",
  "body{margin:0;background:#e5e5e5;color:#000;" +
  'font:12px/1.35 "DejaVu Sans Mono",Menlo,Consolas,monospace}',
  ".sheet{background:#fff;margin:8mm auto;padding:4mm}",
  ".paper-roll .sheet{width:80mm}",
  ".paper-a4 .sheet{width:210mm;min-height:297mm;padding:15mm;font-size:11pt}",
  "header.store{text-align:center;margin-bottom:3mm}",
  "header.store h1{font-size:1.3em;margin:0 0 1mm}",
  "header.store p{margin:0}",
  "h2{font-size:1.15em;text-align:center;margin:2mm 0}",
  ".center{text-align:center}",
  ".mark{text-align:center;font-weight:bold}",
  "table{width:100%;border-collapse:collapse}",
  "th,td{padding:.4mm 0;vertical-align:top}",
  "th{text-align:left;font-weight:normal;padding-right:2mm}",
  "td{text-align:left;overflow-wrap:anywhere}",
  ".num{text-align:right;white-space:nowrap}",
  "table.fields td{text-align:right}",
  "tr.total th,tr.total td{font-weight:bold}",
  "hr{border:0;border-top:1px dashed #000;margin:2mm 0}",
  ".sign{margin-top:8mm;border-top:1px solid #000;padding-top:1mm}",
  "footer{text-align:center;margin-top:3mm}",
  "@media print{body{background:none}" +
  ".sheet,.paper-roll .sheet,.paper-a4 .sheet{margin:0;padding:0;width:auto;min-height:0}}",
].join("");

const PAGE_RULES: Record<PaperSize, string> = {
  roll: "@page{size:80mm auto;margin:3mm}",
  a4: "@page{size:A4 portrait;margin:15mm}",
};

/** The stylesheet of a page printed on `paper`. */
export function printCss(paper: PaperSize): string {
  return BASE_CSS + PAGE_RULES[paper];
}

export interface PrintPage {
  /** The document's title (the browser tab, the print job's name). */
  title: string;
  paper?: PaperSize;
  body: SafeHtml;
}

/** A whole printable page: doctype, charset, title, the stylesheet and the body in a sheet. */
export function renderPrintPage(page: PrintPage): string {
  const paper = page.paper ?? "roll";
  const css = new SafeHtml(printCss(paper));
  const title = cleanText(page.title);
  return markup`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style>${css}</style></head><body class="paper-${paper}"><main class="sheet">${page.body}</main></body></html>`
    .value;
}

function addressLines(address: PostalAddress | null | undefined): string[] {
  if (!address) return [];
  return [address.line1, address.line2 ?? "", cityLine(address)].map(cleanText)
    .filter((line) => line !== "");
}

/** The store's header: name, address, phone and email. */
export function storeHeaderHtml(store: PrintStore): SafeHtml {
  const lines = [...addressLines(store.address), cleanText(store.phone), cleanText(store.email)]
    .filter((line) => line !== "");
  const rows = lines.map((line, i) => i === 0 ? markup`${line}` : markup`<br>${line}`);
  const details = rows.length > 0 ? markup`<p>${rows}</p>` : null;
  return markup`<header class="store"><h1>${cleanText(store.name)}</h1>${details}</header>`;
}

/** Label/value rows as a two-column table (values right-aligned). */
export function fieldsHtml(rows: ReadonlyArray<readonly [string, string]>): SafeHtml {
  const cells = rows.map(([label, value]) => markup`<tr><th>${label}</th><td>${value}</td></tr>`);
  return markup`<table class="fields">${cells}</table>`;
}
