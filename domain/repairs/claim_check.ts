/**
 * The claim tag handed over at intake (API §9 `GET /repair-tickets/:id/claim-check`): its
 * printable forms. `renderClaimCheckText()` is a 40-column text like the POS receipt (same
 * wrapping rules: control characters and whitespace runs become one space, long values wrap
 * at word boundaries, values right-aligned); `renderClaimCheckHtml()` a small self-contained
 * page with the same content (every value HTML-escaped).
 */
import type { PostalAddress } from "../address.ts";
import { storeLocalDateTime } from "../calendar.ts";
import { type Cents, formatMoney } from "../money.ts";
import { RECEIPT_WIDTH, wrapText } from "../pos/receipt_text.ts";

export interface ClaimCheckInput {
  store: { name: string; address?: PostalAddress | null; phone?: string | null };
  /** The store's IANA time zone, for the intake time. */
  timeZone: string;
  ticketNumber: string;
  accountName: string;
  itemDescription: string;
  itemCount: number;
  serialNumber: string | null;
  intakeAt: Date | null;
  estimateCents: Cents | null;
  dueDate: string | null;
}

/** The tag's rows as label/value pairs (values already formatted). */
function fields(input: ClaimCheckInput): Array<[string, string]> {
  const rows: Array<[string, string]> = [
    ["Customer", input.accountName],
    ["Item", input.itemDescription],
    ["Count", String(input.itemCount)],
  ];
  if (input.serialNumber) rows.push(["Serial", input.serialNumber]);
  rows.push(["Intake", input.intakeAt ? storeLocalDateTime(input.intakeAt, input.timeZone) : "-"]);
  if (input.estimateCents !== null) rows.push(["Estimate", formatMoney(input.estimateCents)]);
  if (input.dueDate) rows.push(["Due", input.dueDate]);
  return rows;
}

function center(text: string, w: number): string {
  const chars = Array.from(text).slice(0, w);
  return " ".repeat(Math.floor((w - chars.length) / 2)) + chars.join("");
}

/** `label:` and `value` on one row when they fit, else the label then the wrapped value. */
function field(label: string, value: string, w: number): string[] {
  const head = `${label}:`;
  const room = w - Array.from(head).length - 1;
  const oneRow = wrapText(value, room);
  if (oneRow.length <= 1) {
    const text = oneRow[0] ?? "";
    return [head + " ".repeat(w - Array.from(head).length - Array.from(text).length) + text];
  }
  return [head, ...wrapText(value, w - 2, 4).map((row) => `  ${row}`)];
}

const FOOTER = "Present this tag to collect your item.";

/** The tag as text, every line at most `w` (default 40) characters, ending with "\n". */
export function renderClaimCheckText(input: ClaimCheckInput, w = RECEIPT_WIDTH): string {
  if (!Number.isInteger(w) || w < 20) throw new RangeError("Claim tag width must be at least 20");
  const out: string[] = [];
  const rule = "-".repeat(w);
  for (const text of wrapText(input.store.name, w, 2)) out.push(center(text, w));
  const address = input.store.address;
  if (address) {
    for (const text of wrapText(address.line1, w, 1)) out.push(center(text, w));
    const city = `${address.city}, ${address.state} ${address.postalCode}`;
    for (const text of wrapText(city, w, 1)) out.push(center(text, w));
  }
  for (const text of wrapText(input.store.phone ?? "", w, 1)) out.push(center(text, w));
  out.push(rule);
  out.push(center("REPAIR CLAIM CHECK", w));
  out.push(center(input.ticketNumber, w));
  out.push(rule);
  for (const [label, value] of fields(input)) out.push(...field(label, value, w));
  out.push(rule);
  for (const text of wrapText(FOOTER, w)) out.push(center(text, w));
  return out.map((text) => text.replace(/\s+$/u, "")).join("\n") + "\n";
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

/** The tag as a printable HTML page (no external assets, no script). */
export function renderClaimCheckHtml(input: ClaimCheckInput): string {
  const rows = fields(input).map(([label, value]) =>
    `<tr><th>${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`
  ).join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<title>Claim check ${escapeHtml(input.ticketNumber)}</title><style>` +
    `body{font-family:monospace;max-width:80mm;margin:0 auto}h1,h2,p{text-align:center}` +
    `th{text-align:left;padding-right:1em}td{text-align:right}` +
    `@media print{@page{margin:4mm}}</style></head><body>` +
    `<h1>${escapeHtml(input.store.name)}</h1><h2>Repair claim check<br>` +
    `${escapeHtml(input.ticketNumber)}</h2><table>${rows}</table>` +
    `<p>${escapeHtml(FOOTER)}</p></body></html>`;
}
